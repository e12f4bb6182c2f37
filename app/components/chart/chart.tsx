import { lazy, Suspense, useId, type ReactNode } from "react";
import { useHydrated } from "../hooks.ts";
import { ChartTable } from "./chart-table.tsx";
import { Legend } from "./legend.tsx";
import { describe, drawnSeries, hasData, isPrepared, rowsByTime, SVG_MARKUP, shownBands, unpackChart, utcText, type ChartBand, type ChartSeries, type ChartSpec, type PreparedChart } from "./model.ts";
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

function drawing(given: ChartSpec | PreparedChart, hydrated: boolean): { spec: ChartSpec; drawn: ChartSeries[] | null; description: string } {
  if (isPrepared(given)) {
    // Until hydrated, a chart with the server's markup shows that markup: its series need no
    // unpacking (a point object per value) for it, only its title, bands and whether it has data.
    if (given.markup && !hydrated) {
      const { packed: _packed, markup: _markup, empty: _empty, ...rest } = given;
      return { spec: { ...rest, series: [] }, drawn: null, description: given.description };
    }
    const spec = unpackChart(given);
    return { spec, drawn: spec.series, description: given.description };
  }
  const drawn = drawnSeries(given.series);
  return { spec: given, drawn, description: describe(given, drawn) };
}

export function Chart({ spec: given, error, className = "", figureId, data }: ChartProps) {
  const hydrated = useHydrated();
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const { spec, drawn, description } = drawing(given, hydrated);
  const table = data !== undefined ? data : isPrepared(given) ? null : <ChartTable title={spec.title} unit={spec.unit} series={spec.series} time={rowsByTime(spec)} xLabel={spec.xLabel} />;
  const state = error ? "error" : (drawn ? hasData(drawn) : isPrepared(given) && !given.empty) ? "ok" : "empty";
  const bands = drawn ? shownBands(spec, drawn) : (spec.bands ?? []);
  const drawnSvg = (
    <div className="chart-server">
      <ChartSvg spec={spec} drawn={drawn ?? []} titleId={`${id}-title`} descId={`${id}-desc`} idPrefix={`${id}-m`} description={description} />
      <Legend drawn={drawn ?? []} kind={spec.kind} idPrefix={`${id}-m`} />
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
          <ChartCanvas spec={spec} drawn={drawn ?? []} description={description} />
        </Suspense>
      ) : (
        svg
      )}
      {state === "ok" && bands.length ? <BandList bands={bands} /> : null}
      {state === "ok" ? table : null}
    </figure>
  );
}

/** The shaded spans in words under the chart (the same with and without JavaScript). */
function BandList({ bands }: { bands: ChartBand[] }) {
  return (
    <ul className="chart-band-list mt-1 text-sm" aria-label="Shaded on the chart">
      {bands.map((b) => (
        <li key={`${String(b.start)}-${String(b.end)}`} className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-4 shrink-0 rounded-sm bg-base-content/15" />
          <span>
            {b.label}: <time dateTime={new Date(typeof b.start === "number" ? b.start : Date.parse(b.start)).toISOString()}>{utcText(b.start)}</time> to{" "}
            <time dateTime={new Date(typeof b.end === "number" ? b.end : Date.parse(b.end)).toISOString()}>{utcText(b.end)}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
