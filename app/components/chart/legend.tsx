import type { ChartSeries } from "./model.ts";
import { DASHES, POINT_STYLES, seriesColorVar } from "./palette.ts";

/** The legend of the server's chart: each series' colour, dash and marker, with its name. */
export function Legend({ drawn, kind, idPrefix }: { drawn: ChartSeries[]; kind: string; idPrefix: string }) {
  const lines = kind === "line" || kind === "area" || kind === "scatter";
  return (
    <ul className="chart-legend mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {drawn.map((s, i) => (
        <li key={`${i}-${s.name}`} className="flex min-w-0 items-center gap-1.5">
          <svg width="28" height="12" aria-hidden="true" className="shrink-0 overflow-visible">
            {lines ? (
              <>
                {kind !== "scatter" ? <line x1="0" x2="28" y1="6" y2="6" style={{ stroke: seriesColorVar(i) }} strokeWidth={2} strokeDasharray={DASHES[i] || undefined} /> : null}
                <use href={`#${idPrefix}-${POINT_STYLES[i]}`} x="14" y="6" style={{ fill: i >= 4 ? "none" : seriesColorVar(i), stroke: seriesColorVar(i) }} />
              </>
            ) : (
              <rect x="6" y="0" width="16" height="12" style={{ fill: seriesColorVar(i) }} />
            )}
          </svg>
          <span className="break-all">{s.name}</span>
        </li>
      ))}
    </ul>
  );
}
