import { renderToStaticMarkup } from "react-dom/server";
import { BoundedMemo } from "../../lib/bounded-memo.ts";
import { project } from "./geometry.server.ts";
import { MapMarkers, type ProjectedMarker } from "./markers.tsx";
import { describeMap, MAP_HEIGHT, MAP_WIDTH, mapWords, splitPoints, WORLD_SVG_ID, WORLD_SVG_URL, type MapPoint, type MapWords } from "./model.ts";
import { MAP_MARKUP, type PreparedMap } from "./prepared.ts";

/*
 * The map as the server draws it (README.md): the cached countries, this view's markers, the
 * title and the sentence. The markup travels under a symbol key, so it is written once into the
 * HTML and kept out of the page's data (like the chart kit's withSvgMarkup).
 */

export function projectMarkers(points: readonly MapPoint[]): ProjectedMarker[] {
  const out: ProjectedMarker[] = [];
  for (const point of splitPoints(points).shown) {
    const xy = project(point.longitude, point.latitude);
    if (xy) out.push({ point, x: xy[0], y: xy[1] });
  }
  return out;
}

export function mapSvgMarkup(points: readonly MapPoint[], { id, title, description, words }: { id: string; title: string; description: string; words?: MapWords }): string {
  const markers = renderToStaticMarkup(<MapMarkers markers={projectMarkers(points)} words={words} />);
  return (
    `<svg role="img" aria-labelledby="${id}-title ${id}-desc" width="100%" height="100%" class="map-svg block" xmlns="http://www.w3.org/2000/svg">` +
    renderToStaticMarkup(
      <>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
      </>,
    ) +
    `<svg viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" width="100%" height="100%" preserveAspectRatio="xMidYMid meet"><use href="${WORLD_SVG_URL}#${WORLD_SVG_ID}"/></svg>` +
    markers +
    `</svg>`
  );
}

/*
 * Prepared maps, remembered by what they are a pure function of (id, title, points, words: as
 * JSON, which the page sends anyway): a view of the same devices draws no markers. Process-local,
 * bounded (entries and characters), oldest out first; the maps are frozen, several requests share them.
 */
const prepared = new BoundedMemo<string, PreparedMap>({ maxEntries: 32, maxSize: 4_000_000, sizeOf: (key, map) => key.length + (map[MAP_MARKUP]?.length ?? 0) });

/** A map ready for the page: its points, sentence, and the SVG markup (server only). */
export function prepareMap({ id, title, points, noun, words: given }: { id: string; title: string; points: MapPoint[]; noun?: MapWords["noun"]; words?: Partial<MapWords> }): PreparedMap {
  const words = mapWords({ ...given, ...(noun ? { noun } : {}) });
  const pointsJson = JSON.stringify(points);
  const key = JSON.stringify([id, title, words]) + pointsJson;
  return prepared.remember(key, () => {
    const description = describeMap(points, words);
    return Object.freeze({ id, title, description, pointsJson, pointCount: points.length, words, [MAP_MARKUP]: mapSvgMarkup(points, { id, title, description, words }) });
  });
}
