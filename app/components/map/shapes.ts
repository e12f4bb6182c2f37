import type { MapPoint } from "./model.ts";
import { statusKey } from "./model.ts";

/*
 * Marker shapes, centred on (0, 0), in CSS pixels: a circle when up, a triangle when down, a
 * diamond when not reporting. The server's SVG and Leaflet's markers draw the same paths, so shape
 * tells the states apart as well as colour, with JavaScript or without.
 */
export const MARKER_PATHS = {
  up: "M-6,0a6,6 0 1,0 12,0a6,6 0 1,0 -12,0Z",
  down: "M0,-8L7.5,5.5L-7.5,5.5Z",
  unknown: "M0,-7L7,0L0,7L-7,0Z",
} as const;
export type MarkerKey = keyof typeof MARKER_PATHS;

export const markerPath = (status: MapPoint["status"]) => MARKER_PATHS[statusKey(status)];
