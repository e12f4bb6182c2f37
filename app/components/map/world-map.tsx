import { lazy, Suspense } from "react";
import { useHydrated } from "../hooks.ts";
import { MapLegend } from "./legend.tsx";
import { MapTable } from "./map-table.tsx";
import { MAP_MARKUP, mapPoints, type PreparedMap } from "./prepared.ts";

/*
 * A world map (README.md): the server's SVG (countries, markers, role="img" with the sentence) in
 * a <figure> with a skip link to the table of the same points, the legend and that table. Once
 * hydrated, Leaflet (leaflet-map.tsx, a lazy chunk: only pages with a map load it) takes the SVG's
 * place: the same countries as its only layer, markers with popups, zoom and pan. Without
 * JavaScript the SVG and the table are the whole map. `isolate`: Leaflet's panes and controls
 * (z-index 400–1000) stay inside the figure, under the sticky top bar.
 */

const LeafletMap = lazy(() => import("./leaflet-map.tsx"));

export function WorldMap({ map, className = "" }: { map: PreparedMap; className?: string }) {
  const hydrated = useHydrated();
  const points = mapPoints(map);
  const tableId = `${map.id}-table`;
  // The server's markup is written as it is; the browser keeps that DOM while hydrating. Its box
  // is as high as Leaflet's (leaflet-map.tsx: the same aspect, at least min-h-64), so nothing below
  // the map moves when Leaflet takes its place (at 320 px the SVG alone was 125 px high, Leaflet
  // 256). The SVG keeps its own aspect inside, centred: its markers are placed in per cent of it.
  const svg = (
    <div className="map-server flex min-h-64 w-full items-center">
      <div className="aspect-[960/470] w-full" dangerouslySetInnerHTML={{ __html: map[MAP_MARKUP] ?? "" }} suppressHydrationWarning />
    </div>
  );
  return (
    <figure id={map.id} className={`map isolate min-w-0 ${className}`.trim()} data-map-points={map.pointCount}>
      <figcaption className="mb-2 font-semibold">{map.title}</figcaption>
      <a href={`#${tableId}`} className="link map-skip mb-2 inline-block text-sm">
        Skip the map: go to the table of its {map.pointCount} points
      </a>
      {hydrated ? (
        <Suspense fallback={svg}>
          <LeafletMap points={points} label={`${map.title}: ${map.description}`} words={map.words} />
        </Suspense>
      ) : (
        svg
      )}
      <MapLegend points={points} words={map.words} />
      <p className="mt-1 text-sm" data-testid="map-description">
        {map.description}
      </p>
      <MapTable id={tableId} title={`${map.title}: table`} points={points} interactive={hydrated} words={map.words} />
    </figure>
  );
}
