import { BoundedMemo } from "../../lib/bounded-memo.ts";
import { chartMarkup } from "./chart.tsx";
import { prepareChart, SVG_MARKUP, type ChartSpec, type PreparedChart } from "./model.ts";

/*
 * A prepared chart's SVG and legend as markup, made on the server once (a cached chart keeps it):
 * the page then writes a string instead of rendering some thousand SVG elements per view, and the
 * browser gets the same drawing. `id` makes its element ids unique in the page. The markup is
 * under a symbol key, so it is written once (in the HTML) and not again in the page's data; the
 * browser keeps the server's DOM while hydrating and draws from the series after (chart.tsx).
 */
export function withSvgMarkup(chart: PreparedChart, id: string): PreparedChart {
  // The same writer the browser uses for a chart it draws itself (chart.tsx): one markup either way.
  return { ...chart, markup: true, [SVG_MARKUP]: chartMarkup(chart, id) };
}

/*
 * prepareChart + withSvgMarkup, remembered by what they are a pure function of (the id and the
 * spec: specKey): a monitoring view seen again for the same object and window (the same samples)
 * renders no SVG. Rendering a 144-point chart's SVG costs some milliseconds; its key, tens of
 * microseconds. Process-local and bounded (entries and characters), oldest out first; the charts
 * it hands out are frozen, since several requests share them.
 */
const prepared = new BoundedMemo<string, PreparedChart>({
  maxEntries: 64,
  maxSize: 8_000_000,
  sizeOf: (key, chart) => key.length + chart.packed.length + (chart[SVG_MARKUP]?.length ?? 0),
});

/**
 * The memo's key: all of the spec, exactly. The values go in as their 8 bytes each, not as JSON:
 * writing a thousand numbers as text (JSON.stringify) cost more than the rest of the lookup.
 */
function specKey(spec: ChartSpec, id: string): string {
  const { series, ...rest } = spec;
  let count = 0;
  for (const s of series) count += s.points.length;
  const values = new Float64Array(count);
  const text: string[] = [id, JSON.stringify(rest)];
  let i = 0;
  for (const s of series) {
    // Text as JSON (no separator inside it), so that no two specs make one key.
    text.push(JSON.stringify(s.name), JSON.stringify(s.id ?? null), String(s.points.length));
    for (const p of s.points) {
      text.push(typeof p.t === "number" ? String(p.t) : JSON.stringify(p.t), p.v === null ? "null" : "");
      values[i++] = p.v ?? 0;
    }
  }
  return `${text.join("\u0001")}\u0002${Buffer.from(values.buffer).toString("latin1")}`;
}

export function preparedChartWithMarkup(spec: ChartSpec, id: string): PreparedChart {
  return prepared.remember(specKey(spec, id), () => Object.freeze(withSvgMarkup(prepareChart(spec), id)));
}
