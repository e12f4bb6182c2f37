import { formatNumber } from "../../lib/format.ts";
import { escapeHtml } from "../static-html.ts";
import { round3, seriesNames, tMs, xValues, type ChartSeries } from "./model.ts";

/*
 * The chart's figures as a table behind 'Show data' (<details>: opens without JavaScript): one
 * row per time (or category), one column per object — every object, not only the five drawn —
 * units in the headers, values rounded to 3 decimals, times in UTC.
 *
 * It wears SimpleTable's markup and classes (kit-table, data-label: stacked cards below 640 px,
 * a focusable vertical scroll region) but is written as one HTML string: a week of 13 objects is
 * ~2,400 cells, which React's renderer made the dashboard's single largest cost
 * (docs/decisions/2026-11-23-table-rows-as-markup.md). The string is deterministic, so the
 * browser's render equals the server's and hydration keeps it.
 */

// formatNumber: one formatter, made on first use (a new Intl.NumberFormat per call was the cost).
const number = (v: number | null | undefined) => (v === null || v === undefined ? "" : formatNumber(round3(v)));

/** `<time>` of a UTC time; the platform's ISO strings are used as they are (no Date per row). */
function timeCell(t: string | number): string {
  const iso = typeof t === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(t) ? t : new Date(tMs(t)).toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

export function chartTableHtml({ title, unit, series, time, xLabel }: { title: string; unit: string; series: readonly ChartSeries[]; time: boolean; xLabel?: string }): string {
  const index = series.map((s) => new Map(s.points.map((p) => [p.t, p.v])));
  let xs = xValues(series);
  if (time) xs = xs.sort((a, b) => tMs(a) - tMs(b));
  const xHeader = escapeHtml(xLabel ?? (time ? "Time (UTC)" : "Category"));
  const labels = seriesNames(series).map((name) => escapeHtml(`${name} (${unit})`));
  const out: string[] = [`<caption class="sr-only">${escapeHtml(`${title}: the data`)}</caption><thead><tr><th scope="col" class="sm:whitespace-nowrap">${xHeader}</th>`];
  for (const l of labels) out.push(`<th scope="col">${l}</th>`);
  out.push("</tr></thead><tbody>");
  for (const t of xs) {
    const x = time ? timeCell(t) : escapeHtml(String(t));
    out.push(`<tr><td class="kit-cell-name sm:whitespace-nowrap">${x}</td>`);
    for (let i = 0; i < index.length; i++) out.push(`<td data-label="${labels[i]}">${number(index[i]!.get(t))}</td>`);
    out.push("</tr>");
  }
  out.push("</tbody>");
  return out.join("");
}

export function ChartTable(props: { title: string; unit: string; series: readonly ChartSeries[]; time: boolean; xLabel?: string }) {
  return (
    <details className="chart-data mt-2">
      <summary className="w-fit cursor-pointer text-sm underline">Show data</summary>
      {/* A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable). */}
      <div className="kit-table-wrap max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label={`${props.title}: the data`}>
        <table className="kit-table table table-sm mt-2 tabular-nums" dangerouslySetInnerHTML={{ __html: chartTableHtml(props) }} />
      </div>
    </details>
  );
}
