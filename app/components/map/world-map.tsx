import { useEffect, useRef, useState, type ComponentType } from "react";
import { attachWhenWanted, useClientRender } from "../interactive-layer.ts";
import { MapLegend } from "./legend.tsx";
import { MapTable } from "./map-table.tsx";
import type { MapPoint, MapWords } from "./model.ts";
import { MAP_MARKUP, mapPoints, type PreparedMap } from "./prepared.ts";

/*
 * A world map (README.md): the server's SVG (countries, markers, role="img" with the sentence) in
 * a <figure> with a skip link to the table of the same points, the legend and that table. The SVG
 * and the table reach the browser as markup React does not walk. Leaflet (leaflet-map.tsx, a chunk
 * of its own) is imported when the map is first touched, pointed at or focused
 * (interactive-layer.ts), never during page start-up, and takes the SVG's box (the same size):
 * the same countries as its only layer, markers with popups, zoom and pan. Without JavaScript the
 * SVG and the table are the whole map. `isolate`: Leaflet's panes and controls (z-index 400–1000)
 * stay inside the figure, under the sticky top bar.
 */

type Leaflet = ComponentType<{ points: MapPoint[]; label: string; words?: MapWords }>;
let loadedLeaflet: Leaflet | null = null;
let loadingLeaflet: Promise<Leaflet> | null = null;
export function loadLeafletMap(): Promise<Leaflet> {
  loadingLeaflet ??= import("./leaflet-map.tsx").then(
    (m) => (loadedLeaflet = m.default),
    (e: unknown) => {
      loadingLeaflet = null;
      throw e;
    },
  );
  return loadingLeaflet;
}

export function WorldMap({ map, className = "" }: { map: PreparedMap; className?: string }) {
  const client = useClientRender();
  // Drawn by the server (hydrated): its SVG is in the DOM. A map the browser mounts itself has no
  // SVG (the projection stays on the server): it attaches Leaflet at once.
  const fromServer = useRef(!client);
  const [Leaflet, setLeaflet] = useState<Leaflet | null>(() => (client ? loadedLeaflet : null));
  const figure = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = figure.current;
    if (Leaflet || !el) return;
    let cancelled = false;
    const attach = () => void loadLeafletMap().then((L) => !cancelled && setLeaflet(() => L));
    const stop = fromServer.current ? attachWhenWanted(el, attach) : (attach(), () => {});
    return () => {
      cancelled = true;
      stop();
    };
  }, [Leaflet]);
  const points = mapPoints(map);
  const tableId = `${map.id}-table`;
  // The server's markup is written as it is; the browser keeps that DOM ("" while hydrating: React
  // leaves a dangerouslySetInnerHTML alone). Its box is as high as Leaflet's (leaflet-map.tsx: the
  // same aspect, at least min-h-64), so nothing below the map moves when Leaflet takes its place.
  // The SVG keeps its own aspect inside, centred: its markers are placed in per cent of it.
  const svg = (
    <div className="map-server flex min-h-64 w-full items-center">
      <div className="aspect-[960/470] w-full" dangerouslySetInnerHTML={{ __html: map[MAP_MARKUP] ?? "" }} suppressHydrationWarning />
    </div>
  );
  return (
    <figure ref={figure} id={map.id} className={`map isolate min-w-0 ${className}`.trim()} data-map-points={map.pointCount} data-map-layer={Leaflet ? "leaflet" : "svg"}>
      <figcaption className="mb-2 font-semibold">{map.title}</figcaption>
      <a href={`#${tableId}`} className="link map-skip mb-2 inline-block text-sm">
        Skip the map: go to the table of its {map.pointCount} points
      </a>
      {Leaflet ? <Leaflet points={points} label={`${map.title}: ${map.description}`} words={map.words} /> : svg}
      <MapLegend points={points} words={map.words} />
      <p className="mt-1 text-sm" data-testid="map-description">
        {map.description}
      </p>
      <MapTable id={tableId} title={`${map.title}: table`} points={points} interactive={Leaflet !== null} words={map.words} />
    </figure>
  );
}
