/*
 * Bundled geography: real cities (for DDoS source and destination geolocation, and for objects
 * without site coordinates) and the provider's points of presence (for RTT: a site's RTT grows
 * with its distance to the nearest PoP). Coordinates are the cities' centres, rounded.
 */

export interface City {
  city: string;
  country: string;
  lat: number;
  lon: number;
}

export const CITIES: readonly City[] = [
  { city: "New York", country: "United States", lat: 40.71, lon: -74.01 },
  { city: "Los Angeles", country: "United States", lat: 34.05, lon: -118.24 },
  { city: "Chicago", country: "United States", lat: 41.88, lon: -87.63 },
  { city: "Dallas", country: "United States", lat: 32.78, lon: -96.8 },
  { city: "Miami", country: "United States", lat: 25.76, lon: -80.19 },
  { city: "Seattle", country: "United States", lat: 47.61, lon: -122.33 },
  { city: "Ashburn", country: "United States", lat: 39.04, lon: -77.49 },
  { city: "Atlanta", country: "United States", lat: 33.75, lon: -84.39 },
  { city: "Denver", country: "United States", lat: 39.74, lon: -104.99 },
  { city: "San Jose", country: "United States", lat: 37.34, lon: -121.89 },
  { city: "Toronto", country: "Canada", lat: 43.65, lon: -79.38 },
  { city: "Montreal", country: "Canada", lat: 45.5, lon: -73.57 },
  { city: "Vancouver", country: "Canada", lat: 49.28, lon: -123.12 },
  { city: "Mexico City", country: "Mexico", lat: 19.43, lon: -99.13 },
  { city: "São Paulo", country: "Brazil", lat: -23.55, lon: -46.63 },
  { city: "Rio de Janeiro", country: "Brazil", lat: -22.91, lon: -43.17 },
  { city: "Buenos Aires", country: "Argentina", lat: -34.6, lon: -58.38 },
  { city: "Santiago", country: "Chile", lat: -33.45, lon: -70.67 },
  { city: "Bogotá", country: "Colombia", lat: 4.71, lon: -74.07 },
  { city: "Lima", country: "Peru", lat: -12.05, lon: -77.04 },
  { city: "London", country: "United Kingdom", lat: 51.51, lon: -0.13 },
  { city: "Manchester", country: "United Kingdom", lat: 53.48, lon: -2.24 },
  { city: "Dublin", country: "Ireland", lat: 53.35, lon: -6.26 },
  { city: "Paris", country: "France", lat: 48.86, lon: 2.35 },
  { city: "Marseille", country: "France", lat: 43.3, lon: 5.37 },
  { city: "Frankfurt", country: "Germany", lat: 50.11, lon: 8.68 },
  { city: "Berlin", country: "Germany", lat: 52.52, lon: 13.4 },
  { city: "Munich", country: "Germany", lat: 48.14, lon: 11.58 },
  { city: "Amsterdam", country: "Netherlands", lat: 52.37, lon: 4.9 },
  { city: "Brussels", country: "Belgium", lat: 50.85, lon: 4.35 },
  { city: "Zurich", country: "Switzerland", lat: 47.38, lon: 8.54 },
  { city: "Vienna", country: "Austria", lat: 48.21, lon: 16.37 },
  { city: "Milan", country: "Italy", lat: 45.46, lon: 9.19 },
  { city: "Rome", country: "Italy", lat: 41.9, lon: 12.5 },
  { city: "Madrid", country: "Spain", lat: 40.42, lon: -3.7 },
  { city: "Barcelona", country: "Spain", lat: 41.39, lon: 2.17 },
  { city: "Lisbon", country: "Portugal", lat: 38.72, lon: -9.14 },
  { city: "Stockholm", country: "Sweden", lat: 59.33, lon: 18.07 },
  { city: "Oslo", country: "Norway", lat: 59.91, lon: 10.75 },
  { city: "Copenhagen", country: "Denmark", lat: 55.68, lon: 12.57 },
  { city: "Helsinki", country: "Finland", lat: 60.17, lon: 24.94 },
  { city: "Warsaw", country: "Poland", lat: 52.23, lon: 21.01 },
  { city: "Prague", country: "Czechia", lat: 50.08, lon: 14.44 },
  { city: "Budapest", country: "Hungary", lat: 47.5, lon: 19.04 },
  { city: "Bucharest", country: "Romania", lat: 44.43, lon: 26.1 },
  { city: "Sofia", country: "Bulgaria", lat: 42.7, lon: 23.32 },
  { city: "Athens", country: "Greece", lat: 37.98, lon: 23.73 },
  { city: "Istanbul", country: "Turkey", lat: 41.01, lon: 28.98 },
  { city: "Kyiv", country: "Ukraine", lat: 50.45, lon: 30.52 },
  { city: "Moscow", country: "Russia", lat: 55.76, lon: 37.62 },
  { city: "Saint Petersburg", country: "Russia", lat: 59.93, lon: 30.36 },
  { city: "Tel Aviv", country: "Israel", lat: 32.09, lon: 34.78 },
  { city: "Dubai", country: "United Arab Emirates", lat: 25.2, lon: 55.27 },
  { city: "Riyadh", country: "Saudi Arabia", lat: 24.71, lon: 46.68 },
  { city: "Tehran", country: "Iran", lat: 35.69, lon: 51.39 },
  { city: "Cairo", country: "Egypt", lat: 30.04, lon: 31.24 },
  { city: "Lagos", country: "Nigeria", lat: 6.52, lon: 3.38 },
  { city: "Nairobi", country: "Kenya", lat: -1.29, lon: 36.82 },
  { city: "Johannesburg", country: "South Africa", lat: -26.2, lon: 28.05 },
  { city: "Cape Town", country: "South Africa", lat: -33.92, lon: 18.42 },
  { city: "Casablanca", country: "Morocco", lat: 33.57, lon: -7.59 },
  { city: "Mumbai", country: "India", lat: 19.08, lon: 72.88 },
  { city: "New Delhi", country: "India", lat: 28.61, lon: 77.21 },
  { city: "Bengaluru", country: "India", lat: 12.97, lon: 77.59 },
  { city: "Chennai", country: "India", lat: 13.08, lon: 80.27 },
  { city: "Karachi", country: "Pakistan", lat: 24.86, lon: 67.0 },
  { city: "Dhaka", country: "Bangladesh", lat: 23.81, lon: 90.41 },
  { city: "Singapore", country: "Singapore", lat: 1.35, lon: 103.82 },
  { city: "Kuala Lumpur", country: "Malaysia", lat: 3.14, lon: 101.69 },
  { city: "Jakarta", country: "Indonesia", lat: -6.21, lon: 106.85 },
  { city: "Bangkok", country: "Thailand", lat: 13.76, lon: 100.5 },
  { city: "Ho Chi Minh City", country: "Vietnam", lat: 10.82, lon: 106.63 },
  { city: "Hanoi", country: "Vietnam", lat: 21.03, lon: 105.85 },
  { city: "Manila", country: "Philippines", lat: 14.6, lon: 120.98 },
  { city: "Hong Kong", country: "China", lat: 22.32, lon: 114.17 },
  { city: "Shanghai", country: "China", lat: 31.23, lon: 121.47 },
  { city: "Beijing", country: "China", lat: 39.9, lon: 116.41 },
  { city: "Shenzhen", country: "China", lat: 22.54, lon: 114.06 },
  { city: "Taipei", country: "Taiwan", lat: 25.03, lon: 121.57 },
  { city: "Seoul", country: "South Korea", lat: 37.57, lon: 126.98 },
  { city: "Tokyo", country: "Japan", lat: 35.68, lon: 139.69 },
  { city: "Osaka", country: "Japan", lat: 34.69, lon: 135.5 },
  { city: "Sydney", country: "Australia", lat: -33.87, lon: 151.21 },
  { city: "Melbourne", country: "Australia", lat: -37.81, lon: 144.96 },
  { city: "Perth", country: "Australia", lat: -31.95, lon: 115.86 },
  { city: "Auckland", country: "New Zealand", lat: -36.85, lon: 174.76 },
];

/** A provider point of presence: where a site's traffic enters the backbone. */
export interface Pop {
  code: string;
  city: string;
  country: string;
  lat: number;
  lon: number;
  /** Base of the PoP's addresses (a /16 of the provider's public space). */
  net: string;
}

// The provider's addresses are taken from a block that is never routed on the internet
// (198.18.0.0/15, benchmarking), so no real host is ever named.
export const POPS: readonly Pop[] = [
  { code: "nyc", city: "New York", country: "United States", lat: 40.71, lon: -74.01, net: "198.18.1" },
  { code: "iad", city: "Ashburn", country: "United States", lat: 39.04, lon: -77.49, net: "198.18.2" },
  { code: "chi", city: "Chicago", country: "United States", lat: 41.88, lon: -87.63, net: "198.18.3" },
  { code: "dfw", city: "Dallas", country: "United States", lat: 32.78, lon: -96.8, net: "198.18.4" },
  { code: "lax", city: "Los Angeles", country: "United States", lat: 34.05, lon: -118.24, net: "198.18.5" },
  { code: "sjc", city: "San Jose", country: "United States", lat: 37.34, lon: -121.89, net: "198.18.6" },
  { code: "sea", city: "Seattle", country: "United States", lat: 47.61, lon: -122.33, net: "198.18.7" },
  { code: "mia", city: "Miami", country: "United States", lat: 25.76, lon: -80.19, net: "198.18.8" },
  { code: "yyz", city: "Toronto", country: "Canada", lat: 43.65, lon: -79.38, net: "198.18.9" },
  { code: "gru", city: "São Paulo", country: "Brazil", lat: -23.55, lon: -46.63, net: "198.18.10" },
  { code: "lhr", city: "London", country: "United Kingdom", lat: 51.51, lon: -0.13, net: "198.18.11" },
  { code: "fra", city: "Frankfurt", country: "Germany", lat: 50.11, lon: 8.68, net: "198.18.12" },
  { code: "ams", city: "Amsterdam", country: "Netherlands", lat: 52.37, lon: 4.9, net: "198.18.13" },
  { code: "par", city: "Paris", country: "France", lat: 48.86, lon: 2.35, net: "198.18.14" },
  { code: "mad", city: "Madrid", country: "Spain", lat: 40.42, lon: -3.7, net: "198.18.15" },
  { code: "sto", city: "Stockholm", country: "Sweden", lat: 59.33, lon: 18.07, net: "198.18.16" },
  { code: "dxb", city: "Dubai", country: "United Arab Emirates", lat: 25.2, lon: 55.27, net: "198.18.17" },
  { code: "bom", city: "Mumbai", country: "India", lat: 19.08, lon: 72.88, net: "198.18.18" },
  { code: "sin", city: "Singapore", country: "Singapore", lat: 1.35, lon: 103.82, net: "198.18.19" },
  { code: "hkg", city: "Hong Kong", country: "China", lat: 22.32, lon: 114.17, net: "198.18.20" },
  { code: "nrt", city: "Tokyo", country: "Japan", lat: 35.68, lon: 139.69, net: "198.18.21" },
  { code: "syd", city: "Sydney", country: "Australia", lat: -33.87, lon: 151.21, net: "198.18.22" },
  { code: "jnb", city: "Johannesburg", country: "South Africa", lat: -26.2, lon: 28.05, net: "198.18.23" },
];

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLon = (lon2 - lon1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function nearestPop(lat: number, lon: number): { pop: Pop; km: number } {
  let best = POPS[0]!;
  let bestKm = Infinity;
  for (const pop of POPS) {
    const km = distanceKm(lat, lon, pop.lat, pop.lon);
    if (km < bestKm) {
      best = pop;
      bestKm = km;
    }
  }
  return { pop: best, km: bestKm };
}

/** Valid site coordinates (the map skips devices without them, and so does RTT). */
export function validCoordinates(lat: unknown, lon: unknown): boolean {
  return typeof lat === "number" && typeof lon === "number" && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
}

/** The site's UTC offset in whole hours, from its longitude (solar time is what business hours follow). */
export function utcOffsetHours(lon: number): number {
  return Math.round(lon / 15);
}
