import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartData,
  type ChartOptions,
  type ChartType,
  type Plugin,
  type ScriptableContext,
} from "chart.js";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Chart } from "react-chartjs-2";
import { axes, PLOT_H, type Axes, type Tick } from "./geometry.ts";
import { tMs, visibleBands, xText, type ChartSeries, type ChartSpec } from "./model.ts";
import { DASH_ARRAYS, POINT_STYLES, readPalette, type LivePalette } from "./palette.ts";

/*
 * The interactive chart (tooltips, hover, legend toggles): chart.js, imported only by
 * loadChartCanvas in chart.tsx (when the chart is first touched, pointed at or focused), with only the controllers, elements and scales the kit's kinds use. Same
 * series, order, colours, domains and ticks as the SVG (geometry.ts). Redraws when the theme
 * changes (data-theme on <html>, or the system's scheme when no theme is chosen).
 */

ChartJS.register(LineController, BarController, ScatterController, LineElement, PointElement, BarElement, LinearScale, CategoryScale, Filler, Tooltip, Legend);

const MARKERS_PER_SERIES = 8;

function usePalette(): LivePalette {
  const [palette, setPalette] = useState(() => readPalette());
  useEffect(() => {
    const update = () => setPalette(readPalette());
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", update);
    return () => {
      observer.disconnect();
      media.removeEventListener("change", update);
    };
  }, []);
  return palette;
}

const fixedTicks = (ticks: Tick[]) => ({
  afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
    axis.ticks = ticks.map((t) => ({ value: t.value }));
  },
});
/**
 * The spec's bands, shaded behind the datasets in the text colour (as the SVG does). Bands and
 * colour come through the options (`plugins.linkwiseBands`), which follow the props and the theme.
 */
const bandsPlugin: Plugin = {
  id: "linkwiseBands",
  beforeDatasetsDraw(chart, _args, opts: { bands?: { start: number; end: number }[]; color?: string }) {
    const x = chart.scales.x;
    const area = chart.chartArea;
    if (!x || !opts.bands?.length) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalAlpha = 0.14;
    ctx.fillStyle = opts.color ?? "#808080";
    for (const b of opts.bands) {
      const x0 = x.getPixelForValue(b.start);
      ctx.fillRect(x0, area.top, Math.max(1, x.getPixelForValue(b.end) - x0), area.bottom - area.top);
    }
    ctx.restore();
  },
};

/**
 * The x labels as chart.js drew them (text, left and right edge in CSS px) on the canvas'
 * `data-x-labels`: a canvas's text is pixels, and the end-to-end tests read from this that no two
 * labels overlap at 320 px, as they measure the SVG's text.
 */
const labelBoxesPlugin: Plugin = {
  id: "linkwiseLabelBoxes",
  afterDraw(chart) {
    const x = chart.scales.x;
    if (!x) return;
    const ctx = chart.ctx;
    ctx.save();
    const boxes = x.getLabelItems().flatMap((item) => {
      const text = Array.isArray(item.label) ? item.label.join(" ") : item.label;
      if (!text) return [];
      ctx.font = item.font.string;
      const w = ctx.measureText(text).width;
      const at = item.options.translation?.[0] ?? 0;
      const align = item.options.textAlign;
      const left = align === "left" || align === "start" ? at : align === "right" || align === "end" ? at - w : at - w / 2;
      return [{ text, left: Math.round(left * 10) / 10, right: Math.round((left + w) * 10) / 10 }];
    });
    ctx.restore();
    chart.canvas.dataset.xLabels = JSON.stringify(boxes);
  },
};

/**
 * The x axis' ticks, chosen for the axis' own width each time chart.js lays it out (geometry.ts:
 * the most that do not overlap), and their labels. chart.js's own autoSkip does not thin ticks
 * set by afterBuildTicks, so 12 time labels ran into each other in a half-width chart.
 */
export function xTicksOption(ax: Pick<Axes, "xTicksAt">) {
  const labels = new Map<number, string>();
  return {
    afterBuildTicks: (axis: { width: number; chart: { width: number }; ticks: { value: number }[] }) => {
      const ticks = ax.xTicksAt(axis.width || axis.chart.width);
      labels.clear();
      for (const t of ticks) labels.set(t.value, t.label);
      axis.ticks = ticks.map((t) => ({ value: t.value }));
    },
    label: (value: number | string) => labels.get(Number(value)) ?? "",
  };
}
const labelOf = (ticks: Tick[]) => (value: number | string) => ticks.find((t) => t.value === Number(value))?.label ?? "";

export default function ChartCanvas({ spec, drawn, description, height = PLOT_H + 110 }: { spec: ChartSpec; drawn: ChartSeries[]; description: string; height?: number }) {
  const palette = usePalette();
  const ax = axes(spec, drawn);
  const xTicks = xTicksOption(ax);
  const bars = spec.kind === "bar" || spec.kind === "stacked-bar";
  const stacked = spec.kind === "stacked-bar";
  const color = (i: number) => palette.series[i] ?? palette.series[0]!;
  const font = { size: 12 };
  const step = (s: ChartSeries) => (spec.kind === "scatter" ? 1 : Math.max(1, Math.floor(s.points.length / MARKERS_PER_SERIES)));

  const data: ChartData<ChartType, unknown[]> = bars
    ? {
        labels: ax.categories.map(String),
        datasets: drawn.map((s, i) => ({
          label: s.name,
          data: ax.categories.map((t) => s.points.find((p) => p.t === t)?.v ?? null),
          backgroundColor: color(i),
          borderColor: color(i),
        })),
      }
    : {
        datasets: drawn.map((s, i) => ({
          label: s.name,
          data: s.points.map((p) => ({ x: tMs(p.t), y: p.v })),
          borderColor: color(i),
          backgroundColor: spec.kind === "area" ? `${color(i)}26` : color(i),
          fill: spec.kind === "area" ? "origin" : false,
          borderWidth: 2,
          borderDash: DASH_ARRAYS[i] ?? [],
          pointStyle: POINT_STYLES[i] ?? "circle",
          showLine: spec.kind !== "scatter",
          spanGaps: false,
          // Markers on every n-th point, offset per series, as the SVG draws them.
          pointRadius: (ctx: ScriptableContext<"line">) => (ctx.dataIndex % step(s) === Math.floor((step(s) * i) / 6) % step(s) ? 3.5 : 0),
          pointHoverRadius: 5,
        })),
      };

  const options: ChartOptions = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: bars ? "index" : "nearest", intersect: false },
    plugins: {
      // why: a plugin's own options are not in chart.js' typed plugin map.
      ...({ linkwiseBands: { bands: bars ? [] : visibleBands(spec.bands, ax.xDomain), color: palette.text } } as object),
      legend: { position: "bottom", labels: { color: palette.text, font, usePointStyle: !bars } },
      tooltip: {
        callbacks: {
          title: (items) => (bars || !items[0] ? (items[0]?.label ?? "") : xText(spec, items[0].parsed.x ?? 0)),
          label: (item) => `${item.dataset.label ?? ""}: ${(item.parsed.y ?? 0).toLocaleString("en-US", { maximumFractionDigits: 3 })} ${spec.unit}`,
        },
      },
    },
    scales: {
      x: bars
        ? { type: "category", stacked, ticks: { color: palette.text, font, autoSkip: true, maxRotation: 0 }, grid: { color: palette.grid }, title: { display: Boolean(spec.xLabel), text: spec.xLabel ?? "", color: palette.text, font } }
        : {
            type: "linear",
            min: ax.xDomain[0],
            max: ax.xDomain[1],
            afterBuildTicks: xTicks.afterBuildTicks,
            ticks: { color: palette.text, font, callback: xTicks.label, autoSkip: true, maxRotation: 0 },
            grid: { color: palette.grid },
            title: { display: true, text: spec.xLabel ?? "Time (UTC)", color: palette.text, font },
          },
      y: {
        type: "linear",
        stacked,
        min: ax.yDomain[0],
        max: ax.yDomain[1],
        ...fixedTicks(ax.yTicks),
        ticks: { color: palette.text, font, callback: labelOf(ax.yTicks) },
        grid: { color: palette.grid },
        title: { display: true, text: spec.unit, color: palette.text, font },
      },
    },
  };

  /*
   * Tooltips by keyboard: the canvas takes the focus; the arrow keys (Home, End) step through the
   * x positions (a bar chart's categories, a time chart's times) and show chart.js' own tooltip
   * for every series at that position, Escape hides it. The tooltip's text (its title and lines,
   * the same callbacks as the pointer's) is also said through a polite live region: a canvas'
   * pixels are not read out.
   */
  const chartRef = useRef<ChartJS | null>(null);
  const at = useRef(-1);
  const [said, setSaid] = useState("");
  const hintId = useId();
  const xs = bars ? ax.categories.map((_, i) => i) : [...new Set(drawn.flatMap((s) => s.points.map((p) => tMs(p.t))))].sort((a, b) => a - b);
  const show = (i: number) => {
    const chart = chartRef.current;
    if (!chart || !xs.length) return;
    at.current = Math.max(0, Math.min(xs.length - 1, i));
    const active = bars
      ? drawn.flatMap((_, d) => (chart.isDatasetVisible(d) && chart.data.datasets[d]?.data[at.current] != null ? [{ datasetIndex: d, index: at.current }] : []))
      : drawn.flatMap((s, d) => {
          const k = s.points.findIndex((p) => tMs(p.t) === xs[at.current]);
          return k >= 0 && chart.isDatasetVisible(d) && s.points[k]!.v != null ? [{ datasetIndex: d, index: k }] : [];
        });
    chart.setActiveElements(active);
    chart.tooltip?.setActiveElements(active, { x: 0, y: 0 });
    chart.update();
    const tip = chart.tooltip;
    setSaid(active.length && tip ? [...tip.title, ...tip.body.flatMap((b) => b.lines)].join(". ") : "");
  };
  const hide = () => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setActiveElements([]);
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 });
    chart.update();
    setSaid("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
    if (step !== undefined) show(at.current < 0 ? (step > 0 ? 0 : xs.length - 1) : at.current + step);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(xs.length - 1);
    else if (e.key === "Escape") hide();
    else return;
    e.preventDefault();
  };

  // The canvas is 300 px wide (the HTML default) until chart.js has measured its box: capped at
  // the box, it never makes a 320 px page scroll sideways for that moment. `height`: the server's
  // SVG and legend's, whose place it takes (chart.tsx), so nothing below moves.
  return (
    <div className="chart-canvas relative [&>canvas]:max-w-full [&>canvas:focus-visible]:outline-2 [&>canvas:focus-visible]:outline-offset-2" style={{ height }} data-colors={palette.series.join(",")}>
      <Chart
        ref={chartRef}
        tabIndex={0}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        onBlur={hide}
        type={bars ? "bar" : spec.kind === "scatter" ? "scatter" : "line"}
        data={data}
        options={options}
        plugins={[bandsPlugin, labelBoxesPlugin]}
        role="img"
        aria-label={`${spec.title}. ${description}`}
        fallbackContent={<p>{description}</p>}
      />
      <p id={hintId} className="sr-only">
        Arrow keys: the values at each point.
      </p>
      <p className="sr-only" aria-live="polite" data-chart-tooltip="">
        {said}
      </p>
    </div>
  );
}
