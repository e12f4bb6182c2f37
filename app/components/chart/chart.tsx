import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from "react";
import { attachWhenWanted, useClientRender } from "../interactive-layer.ts";
import { staticHtml } from "../static-html.ts";
import { ChartTable } from "./chart-table.tsx";
import { PLOT_H } from "./geometry.ts";
import { Legend } from "./legend.tsx";
import { describe, drawnSeries, hasData, isPrepared, rowsByTime, SVG_MARKUP, shownBands, unpackChart, utcText, type ChartBand, type ChartSeries, type ChartSpec, type PreparedChart } from "./model.ts";
import { ChartSvg } from "./svg.tsx";

/*
 * A chart (README.md): the server's SVG in a <figure> with its legend, caption and 'Show data'
 * table. The SVG reaches the browser as markup that React does not walk (dangerouslySetInnerHTML:
 * hydration keeps the server's DOM as it is). The interactive layer, chart.js on a canvas
 * (canvas.tsx), is imported when the chart is first touched, pointed at or focused
 * (interactive-layer.ts), never during page start-up, and takes the SVG's box at the SVG's height:
 * nothing below moves. With JavaScript the SVG's box takes the focus (a tab stop where the canvas
 * will be): focusing it brings the canvas, which then has the focus, for the keyboard's tooltips. `error`: the call behind the chart failed; its message takes the chart's
 * place and the rest of the page renders. `spec` may be a PreparedChart (the server's
 * prepareChart: only the drawn series reach the page); its 'Show data' is then `data` (e.g.
 * ChartDataLink: the table by URL), since the page does not hold every object's figures.
 */

type CanvasProps = { spec: ChartSpec; drawn: ChartSeries[]; description: string; height: number };
type Canvas = ComponentType<CanvasProps>;

/** The canvas module once loaded: a chart mounted after that (a client navigation) draws it at once. */
let loadedCanvas: Canvas | null = null;
let loadingCanvas: Promise<Canvas> | null = null;
/** chart.js and the kit's canvas: one chunk, loaded once for the page. */
export function loadChartCanvas(): Promise<Canvas> {
  loadingCanvas ??= import("./canvas.tsx").then(
    (m) => (loadedCanvas = m.default),
    (e: unknown) => {
      loadingCanvas = null;
      throw e;
    },
  );
  return loadingCanvas;
}

/** The canvas' height before the server's box is measured (a chart mounted in the browser). */
const CANVAS_H = PLOT_H + 110;

export interface ChartProps {
  spec: ChartSpec | PreparedChart;
  error?: string | null;
  className?: string;
  /** The figure's id (a link may point at it). */
  figureId?: string;
  /** Replaces the default 'Show data' <details> (a prepared chart has none without it). */
  data?: ReactNode;
}

/** The chart as the kit draws it, unpacked (a prepared chart's series only when something draws them). */
function drawing(given: ChartSpec | PreparedChart): { spec: ChartSpec; drawn: ChartSeries[]; description: string } {
  if (isPrepared(given)) {
    const spec = unpackChart(given);
    return { spec, drawn: spec.series, description: given.description };
  }
  const drawn = drawnSeries(given.series);
  return { spec: given, drawn, description: describe(given, drawn) };
}

/** The SVG and legend as markup (static-html.ts: the same elements the server's renderer writes). */
export function chartMarkup(given: ChartSpec | PreparedChart, id: string): string {
  const { spec, drawn, description } = drawing(given);
  return staticHtml(
    <>
      <ChartSvg spec={spec} drawn={drawn} titleId={`${id}-title`} descId={`${id}-desc`} idPrefix={`${id}-m`} description={description} />
      <Legend drawn={drawn} kind={spec.kind} idPrefix={`${id}-m`} />
    </>,
  );
}

export function Chart({ spec: given, error, className = "", figureId, data }: ChartProps) {
  const client = useClientRender();
  const reactId = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const id = figureId ?? reactId;
  // The spec whose drawing is the server's DOM (hydrated, not rendered by the browser): kept as it is.
  const serverDrawn = useRef<ChartSpec | PreparedChart | null>(client ? null : given);
  const [canvas, setCanvas] = useState<{ Canvas: Canvas; height: number } | null>(() => (client && loadedCanvas ? { Canvas: loadedCanvas, height: CANVAS_H } : null));
  const figure = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const prepared = isPrepared(given);
  const state = error ? "error" : (prepared ? !given.empty : hasData(drawnSeries(given.series))) ? "ok" : "empty";
  const live = canvas !== null && state === "ok";

  // The SVG's box had the focus when the canvas came: the canvas takes it.
  const focusCanvas = useRef(false);
  useEffect(() => {
    const el = figure.current;
    if (canvas || state !== "ok" || !el) return;
    // A tab stop only with JavaScript (set here, not rendered: without it the box does nothing).
    if (box.current) box.current.tabIndex = 0;
    let cancelled = false;
    const stop = attachWhenWanted(el, () => {
      void loadChartCanvas().then((Canvas) => {
        if (cancelled) return;
        focusCanvas.current = !!box.current && box.current === document.activeElement;
        // The canvas takes the server's box at its height (legend included): nothing below moves.
        setCanvas({ Canvas, height: box.current?.offsetHeight || CANVAS_H });
      });
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [canvas, state]);
  useEffect(() => {
    if (!canvas || !focusCanvas.current) return;
    focusCanvas.current = false;
    figure.current?.querySelector<HTMLCanvasElement>("canvas")?.focus();
  }, [canvas]);

  const title = given.title;
  const table = data !== undefined ? data : prepared ? null : <ChartTable title={title} unit={given.unit} series={given.series} time={rowsByTime(given)} xLabel={given.xLabel} />;
  const bands: ChartBand[] = state !== "ok" ? [] : prepared ? (given.bands ?? []) : shownBands(given, drawnSeries(given.series));

  let body: ReactNode;
  if (state === "error") body = <p className="chart-error flex h-40 items-center justify-center rounded border border-error/60 p-4 text-center text-sm text-error">{error}</p>;
  else if (state === "empty") body = <p className="chart-empty flex h-40 items-center justify-center rounded border border-base-300 text-sm">No data</p>;
  else if (live) {
    const { spec, drawn, description } = drawing(given);
    body = <canvas.Canvas spec={spec} drawn={drawn} description={description} height={canvas.height} />;
  } else {
    // The server's markup (a prepared chart brings it made; others are written here), or, in the
    // browser, "" for the DOM the server wrote (React leaves a dangerouslySetInnerHTML alone while
    // hydrating and as long as the string is unchanged), or the browser's own for a new spec.
    const html = typeof document === "undefined" ? ((prepared ? given[SVG_MARKUP] : undefined) ?? chartMarkup(given, id)) : serverDrawn.current === given ? "" : chartMarkup(given, id);
    body = <div ref={box} className="chart-server" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
  }
  return (
    <figure ref={figure} id={figureId} className={`chart @container min-w-0 ${className}`.trim()} data-chart-state={state} data-chart-layer={live ? "canvas" : "svg"}>
      <figcaption className="mb-2 font-semibold">{title}</figcaption>
      {body}
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
