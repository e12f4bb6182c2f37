import { lazy, Suspense, useId, type ReactNode } from "react";
import { useHydrated } from "../hooks.ts";
import { ChartTable } from "./chart-table.tsx";
import { Legend } from "./legend.tsx";
import { describe, drawnSeries, hasData, isPrepared, rowsByTime, SVG_MARKUP, unpackChart, type ChartSeries, type ChartSpec, type PreparedChart } from "./model.ts";
import { ChartSvg } from "./svg.tsx";

/*
 * A chart (README.md): the server's SVG in a <figure> with its legend, caption and 'Show data'
 * table; once hydrated, chart.js draws the same series on a canvas (canvas.tsx, loaded lazily so
 * only pages with a chart load chart.js). `error`: the call behind the chart failed; its message
 * takes the chart's place and the rest of the page renders. `spec` may be a PreparedChart (the
 * server's prepareChart: only the drawn series reach the page); its 'Show data' is then `data`
 * (e.g. ChartDataLink: the table by URL), since the page does not hold every object's figures.
 */

const ChartCanvas = lazy(() => import("./canvas.tsx"));

export interface ChartProps {
  spec: ChartSpec | PreparedChart;
  error?: string | null;
  className?: string;
  /** The figure's id (a link may point at it). */
  figureId?: string;
  /** Replaces the default 'Show data' <details> (a prepared chart has none without it). */
  data?: ReactNode;
}

function drawing(given: ChartSpec | PreparedChart): { spec: ChartSpec; drawn: ChartSeries[]; description: string } {
  if (isPrepared(given)) {
    const spec = unpackChart(given);
    return { spec, drawn: spec.series, description: given.description };
  }
  const drawn = drawnSeries(given.series);
  return { spec: given, drawn, description: describe(given, drawn) };
}

export function Chart({ spec: given, error, className = "", figureId, data }: ChartProps) {
  const hydrated = useHydrated();
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const { spec, drawn, description } = drawing(given);
  const table = data !== undefined ? data : isPrepared(given) ? null : <ChartTable title={spec.title} unit={spec.unit} series={spec.series} time={rowsByTime(spec)} xLabel={spec.xLabel} />;
  const state = error ? "error" : hasData(drawn) ? "ok" : "empty";
  const drawnSvg = (
    <div className="chart-server">
      <ChartSvg spec={spec} drawn={drawn} titleId={`${id}-title`} descId={`${id}-desc`} idPrefix={`${id}-m`} description={description} />
      <Legend drawn={drawn} kind={spec.kind} idPrefix={`${id}-m`} />
    </div>
  );
  // Server markup (markup.server.tsx): written as it is; in the browser the hydrated DOM is kept as
  // the server wrote it (React leaves a dangerouslySetInnerHTML alone while hydrating).
  const svg =
    isPrepared(given) && given.markup ? (
      <div className="chart-server" dangerouslySetInnerHTML={{ __html: given[SVG_MARKUP] ?? "" }} suppressHydrationWarning />
    ) : (
      drawnSvg
    );
  return (
    <figure id={figureId} className={`chart @container min-w-0 ${className}`.trim()} data-chart-state={state}>
      <figcaption className="mb-2 font-semibold">{spec.title}</figcaption>
      {state === "error" ? (
        <p className="chart-error flex h-40 items-center justify-center rounded border border-error/60 p-4 text-center text-sm text-error">{error}</p>
      ) : state === "empty" ? (
        <p className="chart-empty flex h-40 items-center justify-center rounded border border-base-300 text-sm">No data</p>
      ) : hydrated ? (
        <Suspense fallback={drawnSvg}>
          <ChartCanvas spec={spec} drawn={drawn} description={description} />
        </Suspense>
      ) : (
        svg
      )}
      {state === "ok" ? table : null}
    </figure>
  );
}
