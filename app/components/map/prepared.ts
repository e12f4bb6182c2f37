import { BoundedMemo } from "../../lib/bounded-memo.ts";
import type { MapPoint, MapWords } from "./model.ts";

/** Where a prepared map keeps its server markup (not sent as page data). */
export const MAP_MARKUP = Symbol.for("linkwise.map-markup");

export interface PreparedMap {
  /** Unique in the page: the figure's id; `${id}-table` is the table's. */
  id: string;
  title: string;
  /** describeMap's sentence: the SVG's <desc> and the interactive map's label. */
  description: string;
  /**
   * The points as JSON text (read them with `mapPoints`): the page's data (turbo-stream) writes an
   * array value by value, a string once, and a map of a hundred devices is some thousand values.
   */
  pointsJson: string;
  /** How many points (the skip link says it before the points are read). */
  pointCount: number;
  /** What the map calls its points and their states (model.ts `mapWords`). */
  words: MapWords;
  [MAP_MARKUP]?: string;
}

// The last texts read: a page renders each of its maps a few times (the server, hydration, the
// interactive map), and a page has at most three maps.
const parsed = new BoundedMemo<string, MapPoint[]>({ maxEntries: 8 });

/** A prepared map's points. */
export function mapPoints(map: Pick<PreparedMap, "pointsJson">): MapPoint[] {
  return parsed.remember(map.pointsJson, () => JSON.parse(map.pointsJson) as MapPoint[]);
}
