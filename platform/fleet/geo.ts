/*
 * Bundled geography: real cities (for DDoS source and destination geolocation, and for objects
 * without site coordinates) and the provider's points of presence (for RTT: a site's RTT grows
 * with its distance to the nearest PoP). Coordinates are the cities' centres, rounded. The
 * tables are data: ./geo.json.
 */
import geo from "./geo.json";

export interface City {
  city: string;
  country: string;
  lat: number;
  lon: number;
}

export const CITIES: readonly City[] = geo.cities;

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
export const POPS: readonly Pop[] = geo.pops;

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
