/*
 * The chart kit's one contract and the pure steps every chart takes (README.md): rounding, the
 * 'Other' series, the domain. No d3 and no React here, so the server, the canvas and the tests
 * share exactly these figures.
 */

export type ChartKind = "line" | "area" | "bar" | "stacked-bar" | "scatter";

/** One point: `t` a time (ISO 8601 or ms since the epoch) or, for bar charts, a category label. */
export interface ChartPoint {
  t: string | number;
  v: number | null;
}

export interface ChartSeries {
  name: string;
  /** The object's id: written beside its name where another series has the same name ("Analytics VPC (ep-1a2b)"). */
  id?: string;
  points: ChartPoint[];
}

/** What a screen hands the kit. */
export interface ChartSpec {
  title: string;
  /** One sentence for assistive technology (the range, the latest value, the peak…); made from the data when left out. */
  description?: string;
  /** The unit of the values, as written in the axis and the table headers ("bytes/s", "%", "rpm"). */
  unit: string;
  kind: ChartKind;
  /** Fixed y axis (0–100 %, fan 0–5000 rpm); otherwise from 0 to the data's maximum. */
  yDomain?: readonly [number, number];
  series: ChartSeries[];
  /** The x axis' name (default "Time (UTC)" for time charts, "Category" for category charts). */
  xLabel?: string;
  /** Time charts: spans shaded behind the series (announced maintenance…), named under the chart and in its sentence. */
  bands?: ChartBand[];
  /** Time charts: a fixed x axis (the hours of a day); otherwise the drawn times' (one time: an hour either side). */
  xDomain?: readonly [string | number, string | number];
  /** "hour-of-day": each time is an hour of a reference day; labels are the time alone, a point's is its hour ("08:00 to 09:00 UTC"). */
  xAxis?: "hour-of-day";
}

/** A span of time shaded on a time chart, with what it was. */
export interface ChartBand {
  start: string | number;
  end: string | number;
  label: string;
}

/** The bands that fall inside [lo, hi], clipped to it, as ms. */
export function visibleBands(bands: readonly ChartBand[] | undefined, [lo, hi]: readonly [number, number]): { start: number; end: number; label: string }[] {
  return (bands ?? []).flatMap((b) => {
    const start = Math.max(lo, tMs(b.start));
    const end = Math.min(hi, tMs(b.end));
    return end > start ? [{ start, end, label: b.label }] : [];
  });
}

/** The bands that overlap the drawn points' times, as given (the list under the chart and the sentence name these). */
export function shownBands(spec: Pick<ChartSpec, "bands">, drawn: readonly ChartSeries[]): ChartBand[] {
  if (!spec.bands?.length) return [];
  const times = xValues(drawn).map(tMs).filter(Number.isFinite);
  if (!times.length) return [];
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  return spec.bands.filter((b) => tMs(b.end) > lo && tMs(b.start) < hi);
}

/** The bands in words: 'Shaded: Announced maintenance from 2026-11-20 02:00 UTC to 2026-11-20 04:00 UTC.' */
export function bandsSentence(bands: readonly ChartBand[]): string {
  if (!bands.length) return "";
  return ` Shaded: ${bands.map((b) => `${b.label} from ${utcText(b.start)} to ${utcText(b.end)}`).join("; ")}.`;
}

/** How many series are drawn; beyond it, the rest are summed into 'Other'. */
export const MAX_DRAWN = 5;
export const OTHER = "Other";

/** Values are rounded to 3 decimals (spec 2 §9), in the drawing, the canvas and the table alike. */
export function round3(v: number): number {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

export const tMs = (t: string | number): number => (typeof t === "number" ? t : Date.parse(t));

/** Time charts have times in `t`; bar charts may have category labels instead. */
export function isTimeChart(spec: Pick<ChartSpec, "series">): boolean {
  const first = spec.series.find((s) => s.points.length > 0)?.points[0];
  return first !== undefined && (typeof first.t === "number" || /^\d{4}-\d\d-\d\dT/.test(first.t));
}

/** Time charts' tables have a row per time; bar charts' a row per category. */
export const rowsByTime = (spec: Pick<ChartSpec, "kind">) => spec.kind !== "bar" && spec.kind !== "stacked-bar";

const total = (s: ChartSeries) => s.points.reduce((sum, p) => sum + (p.v ?? 0), 0);

/**
 * The series to draw: the five largest over the range (in the order given), the rest summed per
 * `t` into 'Other'. Values rounded to 3 decimals.
 */
export function drawnSeries(series: readonly ChartSeries[]): ChartSeries[] {
  const names = seriesNames(series);
  const rounded = series.map((s, i) => ({ name: names[i]!, points: s.points.map((p) => ({ t: p.t, v: p.v === null ? null : round3(p.v) })) }));
  if (rounded.length <= MAX_DRAWN) return rounded;
  const keep = new Set(
    rounded
      .map((s, i) => ({ i, sum: total(s) }))
      .sort((a, b) => b.sum - a.sum || a.i - b.i)
      .slice(0, MAX_DRAWN)
      .map((x) => x.i),
  );
  const other = new Map<string | number, number | null>();
  rounded.forEach((s, i) => {
    if (keep.has(i)) return;
    for (const p of s.points) {
      const prev = other.get(p.t) ?? null;
      other.set(p.t, p.v === null ? prev : (prev ?? 0) + p.v);
    }
  });
  const otherPoints = [...other].map(([t, v]) => ({ t, v: v === null ? null : round3(v) }));
  return [...rounded.filter((_, i) => keep.has(i)), { name: OTHER, points: otherPoints }];
}

/**
 * Each series' name as the legend, the canvas and the table show it: a name that two series share
 * gets its id beside it ("Analytics VPC (ep-1a2b)"), or its place among them when it has none, so
 * that no two series read the same.
 */
export function seriesNames(series: readonly Pick<ChartSeries, "name" | "id">[]): string[] {
  const count = new Map<string, number>();
  for (const s of series) count.set(s.name, (count.get(s.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return series.map((s) => {
    if (count.get(s.name)! < 2) return s.name;
    const n = (seen.get(s.name) ?? 0) + 1;
    seen.set(s.name, n);
    return `${s.name} (${s.id ?? n})`;
  });
}

/** The x values in order of first appearance (bar categories, or times). */
export function xValues(series: readonly ChartSeries[]): (string | number)[] {
  const seen = new Set<string | number>();
  for (const s of series) for (const p of s.points) seen.add(p.t);
  return [...seen];
}

export const hasData = (series: readonly ChartSeries[]) => series.some((s) => s.points.some((p) => p.v !== null));

/** The y domain: the fixed one, or 0 … the largest value (of the stacks, for a stacked chart). */
export function yExtent(spec: Pick<ChartSpec, "kind" | "yDomain">, drawn: readonly ChartSeries[]): [number, number] {
  if (spec.yDomain) return [spec.yDomain[0], spec.yDomain[1]];
  let max = 0;
  let min = 0;
  if (spec.kind === "stacked-bar") {
    const sums = new Map<string | number, number>();
    for (const s of drawn) for (const p of s.points) sums.set(p.t, (sums.get(p.t) ?? 0) + (p.v ?? 0));
    max = Math.max(0, ...sums.values());
  } else {
    for (const s of drawn)
      for (const p of s.points) {
        if (p.v === null) continue;
        max = Math.max(max, p.v);
        min = Math.min(min, p.v);
      }
  }
  return [min, max > min ? max : min + 1];
}

/** The hour of a point on an hour-of-day axis: '08:00 to 09:00 UTC'. */
export function hourText(t: string | number): string {
  const h = new Date(tMs(t)).getUTCHours();
  const hh = (n: number) => `${String(n % 24).padStart(2, "0")}:00`;
  return `${hh(h)} to ${hh(h + 1)} UTC`;
}

/** A point's x as words: its time ('2026-11-25 14:00 UTC') or, on an hour-of-day axis, its hour. */
export const xText = (spec: Pick<ChartSpec, "xAxis">, t: string | number) => (spec.xAxis === "hour-of-day" ? hourText(t) : utcText(t));

/** '2026-11-25 14:00 UTC': a time nobody can read in another zone. */
export function utcText(t: string | number): string {
  const d = new Date(tMs(t));
  return Number.isNaN(d.getTime()) ? String(t) : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** '1.23 MB/s'-style short numbers for axes and sentences (SI prefixes, 3 significant digits). */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "G"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [n, s] of units) if (a >= n) return `${Number((v / n).toPrecision(3))}${s}`;
  return `${Number(v.toPrecision(3))}`;
}

/** The one-sentence description made from the data when the screen gives none: the latest value and the peak. */
export function describe(spec: ChartSpec, drawn: readonly ChartSeries[]): string {
  return describeSeries(spec, drawn) + bandsSentence(shownBands(spec, drawn));
}

function describeSeries(spec: ChartSpec, drawn: readonly ChartSeries[]): string {
  if (spec.description) return spec.description;
  if (!hasData(drawn)) return `${spec.title}: no data.`;
  let peak = { v: -Infinity, name: "", t: "" as string | number };
  for (const s of drawn) for (const p of s.points) if (p.v !== null && p.v > peak.v) peak = { v: p.v, name: s.name, t: p.t };
  const xs = xValues(drawn);
  const time = isTimeChart(spec);
  const times = time ? xs.map(tMs) : [];
  const [first, last] = [Math.min(...times), Math.max(...times)];
  const span = !time || !times.length || spec.xAxis ? "" : first === last ? ` at ${utcText(first)}` : ` from ${utcText(first)} to ${utcText(last)}`;
  return `${spec.title}${span}, ${drawn.length} series; peak ${shortNumber(peak.v)} ${spec.unit} (${peak.name}${time ? ` at ${xText(spec, peak.t)}` : `, ${peak.t}`}).`;
}

/**
 * A chart as the server prepares it for a page (README 'Prepared charts'): only what is drawn (the
 * five largest series and 'Other', rounded), on one x axis, with its sentence. The raw series of
 * every object stay on the server, so the page's data is small; the SVG and the canvas are both
 * drawn from this (`unpackChart`), so they agree. A value missing from a series is a gap (null).
 * The x axis and the values travel packed as one JSON string (`packed`): the page's data
 * (turbo-stream) writes an array value by value into its index table, a string once, so a
 * 300-point chart costs the server one string instead of some two thousand entries per view.
 */
export interface PreparedChart extends Omit<ChartSpec, "series" | "description"> {
  description: string;
  /** JSON of PackedSeries. */
  packed: string;
  /** No drawn series has a value ('No data'): known without unpacking. */
  empty: boolean;
  /** The server wrote its SVG as markup (markup.server.tsx): the browser keeps that DOM while hydrating. */
  markup?: boolean;
  /** That markup, on the server only: a symbol-keyed property, which the page's data (turbo-stream) leaves out. */
  [SVG_MARKUP]?: string;
}

/** What `packed` holds: times as ms since the epoch (or the categories), and each series' values on them. */
export interface PackedSeries {
  x: (string | number)[];
  series: { name: string; v: (number | null)[] }[];
}

/** The key of a prepared chart's server-only SVG markup. */
export const SVG_MARKUP: unique symbol = Symbol.for("linkwise.chart.svg");

export function prepareChart(spec: ChartSpec): PreparedChart {
  const drawn = drawnSeries(spec.series);
  const x = xValues(drawn);
  const { series: _all, ...rest } = spec;
  const time = isTimeChart(spec);
  const packed: PackedSeries = {
    x: time ? x.map(tMs) : x,
    series: drawn.map((s) => {
      const at = new Map(s.points.map((p) => [p.t, p.v]));
      return { name: s.name, v: x.map((t) => at.get(t) ?? null) };
    }),
  };
  // The bands kept are those over the drawn times (shownBands), so the markup's page needs no unpacking for them.
  const bands = spec.bands ? shownBands(spec, drawn) : undefined;
  return { ...rest, ...(bands ? { bands } : {}), description: describe(spec, drawn), packed: JSON.stringify(packed), empty: !hasData(drawn) };
}

export const isPrepared = (spec: ChartSpec | PreparedChart): spec is PreparedChart => "packed" in spec;

/** The x axis and values of a prepared chart. */
export const packedSeries = (p: PreparedChart): PackedSeries => JSON.parse(p.packed) as PackedSeries;

/** The prepared chart as a spec whose series are the drawn ones. */
export function unpackChart(p: PreparedChart): ChartSpec {
  const { packed: _packed, markup: _markup, empty: _empty, ...rest } = p;
  const { x, series } = packedSeries(p);
  return { ...rest, series: series.map((s) => ({ name: s.name, points: x.map((t, i) => ({ t, v: s.v[i] ?? null })) })) };
}
