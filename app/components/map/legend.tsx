import { DEVICE_WORDS, statusKey, type MapPoint, type MapStatus, type MapWords } from "./model.ts";
import { mapVar } from "./palette.ts";
import { markerPath } from "./shapes.ts";

/** The legend: each state's shape and colour, its name and how many points are in it. */
export function MapLegend({ points, words = DEVICE_WORDS }: { points: readonly MapPoint[]; words?: MapWords }) {
  const states: { status: MapStatus; label: string }[] = [
    { status: "up", label: words.status.up },
    { status: "down", label: words.status.down },
  ];
  if (points.some((p) => p.status === null)) states.push({ status: null, label: words === DEVICE_WORDS || words.status.unknown === DEVICE_WORDS.status.unknown ? "N/A (not reporting)" : words.status.unknown });
  return (
    <ul className="map-legend mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Legend">
      {states.map(({ status, label }) => (
        <li key={statusKey(status)} className="flex items-center gap-1.5">
          <svg width="18" height="18" viewBox="-9 -9 18 18" aria-hidden="true" focusable="false">
            <path d={markerPath(status)} fill={mapVar(statusKey(status))} stroke={mapVar("edge")} strokeWidth={1.5} />
          </svg>
          <span>
            {label} ({points.filter((p) => p.status === status).length})
          </span>
        </li>
      ))}
    </ul>
  );
}
