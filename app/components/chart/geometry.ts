import { scaleBand, scaleLinear, scaleUtc } from "d3-scale";
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
  /** Hidden in a narrow chart (fewer ticks, same text size). */
  minor: boolean;
}

export interface Axes {
  time: boolean;
  /** x position in 0…PLOT_W of a point's t (time charts and scatter). */
  x: (t: string | number) => number;
  xTicks: Tick[];
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
/** A tick's label in UTC, 24-hour: the date at midnight ("Nov 25"), else the time ("14:00"). */
function timeLabel(d: Date): string {
  const iso = d.toISOString();
  return iso.slice(11, 16) === "00:00" ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}` : iso.slice(11, 16);
}

const alternate = <T,>(xs: T[]) => xs.map((x, i) => ({ x, minor: xs.length > 4 && i % 2 === 1 }));

export function axes(spec: Pick<ChartSpec, "kind" | "yDomain" | "series">, drawn: readonly ChartSeries[]): Axes {
  const time = spec.kind !== "bar" && spec.kind !== "stacked-bar";
  const timeCategories = !time && isTimeChart({ series: [...drawn] });
  const categories = xValues(drawn);
  const band = scaleBand<string | number>().domain(categories).range([0, PLOT_W]).paddingInner(0.2).paddingOuter(0.1);
  const [y0, y1] = yExtent(spec, drawn);
  const yScale = scaleLinear().domain([y0, y1]);
  if (!spec.yDomain) yScale.nice(5);
  const yTicks = yScale.ticks(5).map((v) => ({ value: v, label: shortNumber(v), minor: false }));
  const ys = yScale.domain() as [number, number];
  const yPx = yScale.copy().range([PLOT_H, 0]);

  const times = categories.map(tMs).filter(Number.isFinite);
  const lo = times.length ? Math.min(...times) : 0;
  const hi = times.length ? Math.max(...times) : 1;
  const xTime = scaleUtc().domain([lo, hi > lo ? hi : lo + 1]).range([0, PLOT_W]);
  const xTicks: Tick[] = time
    ? alternate(xTime.ticks(8)).map(({ x, minor }) => ({ value: x.getTime(), label: timeLabel(x), minor }))
    : alternate(categories).map(({ x, minor }) => ({ value: band(x)! + band.bandwidth() / 2, label: timeCategories ? utcText(x).slice(5, 16) : String(x), minor }));
  return {
    time,
    x: (t) => xTime(tMs(t)),
    xTicks,
    categories,
    band: (t) => band(t) ?? 0,
    bandwidth: band.bandwidth(),
    xDomain: [lo, hi > lo ? hi : lo + 1],
    yDomain: ys,
    yTicks,
    y: (v) => Math.round(yPx(v) * 10) / 10,
  };
}
