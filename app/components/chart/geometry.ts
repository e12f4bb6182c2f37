import { scaleBand, scaleLinear, scaleUtc, type ScaleTime } from "d3-scale";
import { isTimeChart, shortNumber, tMs, utcText, xValues, yExtent, type ChartSeries, type ChartSpec } from "./model.ts";

/*
 * The axes of a chart, from d3-scale: the SVG draws them and the canvas is given the same
 * domain, ticks and labels, so both show the same chart.
 */

/** The plot's width in the SVG's inner coordinates (stretched to the figure's width). */
export const PLOT_W = 1000;
/** The plot's height in CSS pixels (the SVG is not scaled vertically). */
export const PLOT_H = 190;

export interface Tick {
  value: number;
  label: string;
  /** The widths (indexes into X_TIERS) at which this x label is left out, so that none overlap; empty for y ticks. */
  off: number[];
}

/**
 * The figure widths (px at a 16 px rem) from which the x labels are chosen again: the server's SVG
 * hides the labels not chosen for its width by container queries (app.css `chart-x-off-N`, one
 * per step, in rem), the canvas chooses for its own width (`xTicksAt`). The first step's labels
 * are chosen for a 200 px figure: a 320 px screen's narrowest chart.
 */
export const X_TIERS = [0, 288, 384, 512, 640, 832] as const;
const tierWidth = (i: number) => Math.max(200, X_TIERS[i]!);

/** Room for the y labels left of the plot (the SVG's gutter; the canvas reserves its own). */
export const Y_GUTTER = 40;
/** Space kept between two x labels, px. */
const LABEL_GAP = 12;
/** At most this many x labels, however wide the chart. */
const MAX_X_LABELS = 12;
/**
 * A category label longer than this is cut with '…': long enough for a name with its id ("Analytics
 * VPC (ep-l1zzfwwhjdpe)", where two share a name), which the chooser then labels fewer of.
 */
const MAX_LABEL_CHARS = 32;

/**
 * A label's width in px at the charts' 12 px text, a little over what the system fonts draw
 * (Roboto, Segoe UI, Helvetica: '08:50' 30 px, 'Nov 25' 38 px): capitals and wide letters more
 * than digits and lower case, punctuation and spaces less.
 */
export function labelWidth(label: string): number {
  let w = 0;
  for (const ch of label) w += /[ .,:;'|!ilj()[\]-]/.test(ch) ? 3.8 : /[A-Z@#%&mwMW…]/.test(ch) ? 9.5 : 6.8;
  return w;
}

/** How a label sits on its tick at `x` (px) in a plot `width` px wide: at the edges it is kept inside. */
export const labelAnchor = (x: number, width: number): "start" | "middle" | "end" => (x < width * 0.06 ? "start" : x > width * 0.94 ? "end" : "middle");

/**
 * How far a label may reach past the plot's ends: into the y labels' gutter on the left, into the
 * card's padding (16 px or more wherever a chart stands) on the right.
 */
const OVERHANG = { left: Y_GUTTER / 2, right: 12 };

/** The labels' boxes, left to right, as the SVG anchors them; whether none overlaps the next (with the gap) nor reaches far past the plot. */
export function labelsFit(ticks: readonly { x: number; label: string }[], width: number): boolean {
  let right = -Infinity;
  for (const t of [...ticks].sort((a, b) => a.x - b.x)) {
    const w = labelWidth(t.label);
    const anchor = labelAnchor(t.x, width);
    const left = anchor === "start" ? t.x : anchor === "end" ? t.x - w : t.x - w / 2;
    if (left < -OVERHANG.left || left + w > width + OVERHANG.right || left < right + LABEL_GAP) return false;
    right = left + w;
  }
  return true;
}

/**
 * The x ticks for a plot `width` px wide: the most of d3's nice time ticks (counts from 12 down)
 * whose labels do not overlap; at worst the first alone. Labels never shrink, there are fewer.
 */
export function chooseTimeTicks(scale: ScaleTime<number, number>, width: number, label: (d: Date) => string): Date[] {
  const at = (d: Date) => (scale(d) / PLOT_W) * width;
  for (let count = MAX_X_LABELS; count >= 1; count--) {
    const ticks = scale.ticks(count);
    if (ticks.length && ticks.length <= MAX_X_LABELS && labelsFit(ticks.map((d) => ({ x: at(d), label: label(d) })), width)) return ticks;
  }
  return scale.ticks(1).slice(0, 1);
}

/** The categories to label in a plot `width` px wide: every k-th, k the smallest whose labels do not overlap. */
export function chooseCategoryTicks<T>(items: readonly T[], x: (item: T) => number, width: number, label: (item: T) => string): T[] {
  for (let k = 1; k <= items.length; k++) {
    const shown = items.filter((_, i) => i % k === 0);
    if (labelsFit(shown.map((it) => ({ x: (x(it) / PLOT_W) * width, label: label(it) })), width)) return shown;
  }
  return items.slice(0, 1);
}

export interface Axes {
  time: boolean;
  /** x position in 0…PLOT_W of a point's t (time charts and scatter). */
  x: (t: string | number) => number;
  /** Every x label the chart may show, each with the widths at which it is left out (the SVG). */
  xTicks: Tick[];
  /** The x labels for a plot `width` px wide (the canvas). */
  xTicksAt: (width: number) => Tick[];
  /** Bar charts: the categories, their band and width in 0…PLOT_W. */
  categories: (string | number)[];
  band: (t: string | number) => number;
  bandwidth: number;
  xDomain: [number, number];
  yDomain: [number, number];
  yTicks: Tick[];
  /** y position in the plot, 0 at the top, PLOT_H at the bottom. */
  y: (v: number) => number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A tick's label in UTC, 24-hour: the date at midnight ("Nov 25"), else the time ("14:00"); on an hour-of-day axis always the time. */
function timeLabel(d: Date, hourOfDay: boolean): string {
  const iso = d.toISOString();
  return iso.slice(11, 16) === "00:00" && !hourOfDay ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}` : iso.slice(11, 16);
}
const cut = (label: string) => (label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label);

/** A time axis with one time only is this much either side of it. */
const SINGLE_TIME_PAD = 3_600_000;

/** The x domain of a time chart: the spec's, else the drawn times' (one time: an hour either side). */
function timeDomain(spec: Pick<ChartSpec, "xDomain">, times: number[]): [number, number] {
  if (spec.xDomain) return [tMs(spec.xDomain[0]), tMs(spec.xDomain[1])];
  if (!times.length) return [0, 1];
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  return hi > lo ? [lo, hi] : [lo - SINGLE_TIME_PAD, lo + SINGLE_TIME_PAD];
}

export function axes(spec: Pick<ChartSpec, "kind" | "yDomain" | "series" | "xDomain" | "xAxis">, drawn: readonly ChartSeries[]): Axes {
  const time = spec.kind !== "bar" && spec.kind !== "stacked-bar";
  const timeCategories = !time && isTimeChart({ series: [...drawn] });
  const categories = xValues(drawn);
  const band = scaleBand<string | number>().domain(categories).range([0, PLOT_W]).paddingInner(0.2).paddingOuter(0.1);
  const [y0, y1] = yExtent(spec, drawn);
  const yScale = scaleLinear().domain([y0, y1]);
  if (!spec.yDomain) yScale.nice(5);
  const yTicks = yScale.ticks(5).map((v) => ({ value: v, label: shortNumber(v), off: [] }));
  const ys = yScale.domain() as [number, number];
  const yPx = yScale.copy().range([PLOT_H, 0]);

  const xDomain = timeDomain(spec, categories.map(tMs).filter(Number.isFinite));
  const xTime = scaleUtc().domain(xDomain).range([0, PLOT_W]);
  const hourOfDay = spec.xAxis === "hour-of-day";
  const categoryLabel = (c: string | number) => cut(timeCategories ? utcText(c).slice(5, 16) : String(c));
  const center = (c: string | number) => band(c)! + band.bandwidth() / 2;
  const ticksAt = (width: number): Tick[] =>
    time
      ? chooseTimeTicks(xTime, width, (d) => timeLabel(d, hourOfDay)).map((d) => ({ value: d.getTime(), label: timeLabel(d, hourOfDay), off: [] }))
      : chooseCategoryTicks(categories, center, width, categoryLabel).map((c) => ({ value: center(c), label: categoryLabel(c), off: [] }));
  // Every label some width shows, each with the widths that leave it out.
  const perTier = X_TIERS.map((_, i) => ticksAt(tierWidth(i) - Y_GUTTER));
  const all = new Map(perTier.flat().map((t) => [t.value, t]));
  const shownIn = perTier.map((ticks) => new Set(ticks.map((t) => t.value)));
  const xTicks = [...all.values()].sort((a, b) => a.value - b.value).map((t) => ({ ...t, off: shownIn.flatMap((set, i) => (set.has(t.value) ? [] : [i])) }));
  return {
    time,
    x: (t) => xTime(tMs(t)),
    xTicks,
    xTicksAt: ticksAt,
    categories,
    band: (t) => band(t) ?? 0,
    bandwidth: band.bandwidth(),
    xDomain,
    yDomain: ys,
    yTicks,
    y: (v) => Math.round(yPx(v) * 10) / 10,
  };
}
