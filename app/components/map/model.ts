/*
 * The map kit's contract (README.md): the points a screen hands the map, which of them can be
 * drawn, the sentence that describes them, and the fixed frame the server projects into.
 * Browser-safe (no d3-geo, no world data): the browser only needs the points.
 */

export type MapStatus = "up" | "down" | null;

/** One device (or any located object) on the map. */
export interface MapPoint {
  id: string;
  name: string;
  /** Product code (e.g. BN-CPE-IP). */
  product: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  /** up, down, or null (not reported yet: shown N/A). */
  status: MapStatus;
  /** The object's page (the popup's and the table's link); none: the name is plain text. */
  href?: string;
}

/**
 * What a map calls its points and their states (legend, table headers and Status, marker titles,
 * popups, the sentence). Devices by default; a map of other things (the DDoS tab's source cities:
 * "Malicious" / "Benign", "Country", "IPs") names its own.
 */
export interface MapWords {
  status: { up: string; down: string; unknown: string };
  /** The table's headers and the popup's labels for `product`, `id` and `address`. */
  columns: { product: string; id: string; address: string };
  noun: { one: string; many: string };
  /** The sentence's count of down points: '42 devices, 3 down'. */
  downWord: string;
  /**
   * Whether the `id` column holds a list that must wrap (the DDoS cities' 'IPs (score)') rather
   * than one id, drawn unbroken as every id is (simple-table.tsx IdText).
   */
  idIsList: boolean;
}

export const DEVICE_WORDS: MapWords = {
  status: { up: "Up", down: "Down", unknown: "N/A" },
  columns: { product: "Product", id: "Id", address: "Address" },
  noun: { one: "device", many: "devices" },
  downWord: "down",
  idIsList: false,
};

/** A map's words: the device words with whatever the screen names itself. */
export const mapWords = (w: Partial<MapWords> = {}): MapWords => ({
  ...DEVICE_WORDS,
  ...w,
  status: { ...DEVICE_WORDS.status, ...w.status },
  columns: { ...DEVICE_WORDS.columns, ...w.columns },
});

/** The frame the server's SVG is projected into (viewBox units); the SVG scales to its box. */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 470;
export const MAP_PADDING = 4;

/** The world as served from our own origin (the world-atlas package's countries-110m TopoJSON). */
export const WORLD_ATLAS_VERSION = "2.0.2";
export const WORLD_URL = `/map/countries-110m.json?v=${WORLD_ATLAS_VERSION}`;
/**
 * The countries as an SVG document of our own origin (app/routes/map/world-svg.ts), which every
 * server-drawn map shows with `<use>`: a browser fetches and caches it once, instead of each map
 * of each page carrying ~100 KB of country outlines. The fill colours are CSS variables, which the
 * `<use>` element's theme passes on.
 */
export const WORLD_SVG_URL = `/map/world.svg?v=${WORLD_ATLAS_VERSION}-1`;
export const WORLD_SVG_ID = "world";

/** The event a table's 'Show on map' button sends (bubbling to the figure): Leaflet opens that point's popup. */
export const MAP_OPEN_EVENT = "map:open";

export const statusKey = (s: MapStatus) => (s === null ? "unknown" : s);
export const statusLabel = (s: MapStatus, words: MapWords = DEVICE_WORDS) => words.status[statusKey(s)];

/** Marker shapes: colour is never the only cue (WCAG 1.4.1). */
export const MARKER_SHAPES = { up: "circle", down: "triangle", unknown: "diamond" } as const;

/** A latitude/longitude pair a map can draw: both finite numbers within the globe's ranges. */
export function hasValidCoordinates(p: Pick<MapPoint, "latitude" | "longitude">): p is { latitude: number; longitude: number } {
  const { latitude: lat, longitude: lon } = p;
  return typeof lat === "number" && typeof lon === "number" && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

export type LocatedPoint = MapPoint & { latitude: number; longitude: number };

/** The points split into those drawn and those skipped (missing or invalid coordinates). */
export function splitPoints(points: readonly MapPoint[]): { shown: LocatedPoint[]; skipped: MapPoint[] } {
  const shown: LocatedPoint[] = [];
  const skipped: MapPoint[] = [];
  for (const p of points) {
    if (hasValidCoordinates(p)) shown.push(p as LocatedPoint);
    else skipped.push(p);
  }
  return { shown, skipped };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The map's text alternative: '42 devices, 3 down', then those not reported yet and those left
 * off the map, e.g. '42 devices, 3 down, 1 not reporting; 2 not on the map (missing or invalid
 * coordinates).'
 */
export function describeMap(points: readonly MapPoint[], words: MapWords = DEVICE_WORDS): string {
  const noun = words.noun;
  const { skipped } = splitPoints(points);
  const down = points.filter((p) => p.status === "down").length;
  const unknown = points.filter((p) => p.status === null).length;
  let text = `${plural(points.length, noun.one, noun.many)}, ${down} ${words.downWord}`;
  if (unknown) text += `, ${unknown} not reporting`;
  if (skipped.length) text += `; ${skipped.length} not on the map (missing or invalid coordinates)`;
  return `${text}.`;
}

/** A coordinate as the table shows it: 5 decimals, or why it is not on the map. */
export function coordinateText(v: number | null, limit: number): string {
  if (v === null || v === undefined) return "Missing";
  if (!Number.isFinite(v) || Math.abs(v) > limit) return `Invalid (${String(v)})`;
  return v.toFixed(5).replace(/\.?0+$/, "");
}
