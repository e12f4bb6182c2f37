import { renderToStaticMarkup } from "react-dom/server";
import { Legend } from "./legend.tsx";
import { SVG_MARKUP, unpackChart, type PreparedChart } from "./model.ts";
import { ChartSvg } from "./svg.tsx";

/*
 * A prepared chart's SVG and legend as markup, made on the server once (a cached chart keeps it):
 * the page then writes a string instead of rendering some thousand SVG elements per view, and the
 * browser gets the same drawing. `id` makes its element ids unique in the page. The markup is
 * under a symbol key, so it is written once (in the HTML) and not again in the page's data; the
 * browser keeps the server's DOM while hydrating and draws from the series after (chart.tsx).
 */
export function withSvgMarkup(chart: PreparedChart, id: string): PreparedChart {
  const spec = unpackChart(chart);
  const svg = renderToStaticMarkup(
    <>
      <ChartSvg spec={spec} drawn={spec.series} titleId={`${id}-title`} descId={`${id}-desc`} idPrefix={`${id}-m`} description={chart.description} />
      <Legend drawn={spec.series} kind={spec.kind} idPrefix={`${id}-m`} />
    </>,
  );
  return { ...chart, markup: true, [SVG_MARKUP]: svg };
}
