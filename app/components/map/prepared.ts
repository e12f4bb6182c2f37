import type { MapPoint, MapWords } from "./model.ts";

/** Where a prepared map keeps its server markup (not sent as page data). */
export const MAP_MARKUP = Symbol.for("linkwise.map-markup");

export interface PreparedMap {
  /** Unique in the page: the figure's id; `${id}-table` is the table's. */
  id: string;
  title: string;
  /** describeMap's sentence: the SVG's <desc> and the interactive map's label. */
  description: string;
  points: MapPoint[];
  /** What the map calls its points and their states (model.ts `mapWords`). */
  words: MapWords;
  [MAP_MARKUP]?: string;
}
