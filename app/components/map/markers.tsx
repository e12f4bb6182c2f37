import { DEVICE_WORDS, MAP_HEIGHT, MAP_WIDTH, statusKey, statusLabel, type MapPoint, type MapWords } from "./model.ts";
import { mapVar } from "./palette.ts";
import { markerPath } from "./shapes.ts";

/*
 * The SVG's markers. Each sits at a percentage of the frame (x / MAP_WIDTH, y / MAP_HEIGHT), so it
 * keeps its size in CSS pixels however wide the map is drawn (a phone's map is not a dust of
 * dots), and each has a <title> (a pointer's tooltip). Down markers are drawn last, on top.
 */

export interface ProjectedMarker {
  point: MapPoint;
  x: number;
  y: number;
}

export const markerTitle = (p: MapPoint, words: MapWords = DEVICE_WORDS) => `${p.name} (${p.product}): ${statusLabel(p.status, words)}`;

const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;

const order = { up: 0, unknown: 1, down: 2 } as const;

export function MapMarkers({ markers, words = DEVICE_WORDS }: { markers: readonly ProjectedMarker[]; words?: MapWords }) {
  const sorted = [...markers].sort((a, b) => order[statusKey(a.point.status)] - order[statusKey(b.point.status)]);
  return (
    <g className="map-markers">
      {sorted.map(({ point, x, y }) => {
        const key = statusKey(point.status);
        return (
          <svg key={point.id} x={pct(x, MAP_WIDTH)} y={pct(y, MAP_HEIGHT)} overflow="visible" className={`map-marker map-marker-${key}`} data-status={key} data-id={point.id}>
            <title>{markerTitle(point, words)}</title>
            <path d={markerPath(point.status)} fill={mapVar(key)} stroke={mapVar("edge")} strokeWidth={1.5} />
          </svg>
        );
      })}
    </g>
  );
}
