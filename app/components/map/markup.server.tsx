import { renderToStaticMarkup } from "react-dom/server";
import { countriesSvgMarkup, project } from "./geometry.server.ts";
import { MapMarkers, type ProjectedMarker } from "./markers.tsx";
import { describeMap, MAP_HEIGHT, MAP_WIDTH, splitPoints, type MapPoint } from "./model.ts";
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

export function mapSvgMarkup(points: readonly MapPoint[], { id, title, description }: { id: string; title: string; description: string }): string {
  const markers = renderToStaticMarkup(<MapMarkers markers={projectMarkers(points)} />);
  return (
    `<svg role="img" aria-labelledby="${id}-title ${id}-desc" width="100%" height="100%" class="map-svg block" xmlns="http://www.w3.org/2000/svg">` +
    renderToStaticMarkup(
      <>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
      </>,
    ) +
    `<svg viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" width="100%" height="100%" preserveAspectRatio="xMidYMid meet">${countriesSvgMarkup()}</svg>` +
    markers +
    `</svg>`
  );
}

/** A map ready for the page: its points, sentence, and the SVG markup (server only). */
export function prepareMap({ id, title, points, noun }: { id: string; title: string; points: MapPoint[]; noun?: { one: string; many: string } }): PreparedMap {
  const description = describeMap(points, noun);
  return { id, title, description, points, [MAP_MARKUP]: mapSvgMarkup(points, { id, title, description }) };
}
