import { chartTableHtml } from "./chart-table.tsx";
import type { GridChart } from "./chart-grid.tsx";
import { DATA_PARAM } from "./data-link.tsx";
import { preparedChartWithMarkup } from "./markup.server.tsx";
import { rowsByTime, type ChartSpec } from "./model.ts";

/**
 * A loader's charts for ChartGrid: each spec prepared with its SVG as markup (README 'Prepared
 * charts'; remembered while the same spec comes again) under its id, and the full table of the one
 * chart the URL asks for (`?data=<id>`).
 */
export function gridCharts(request: Request | URLSearchParams, charts: readonly { id: string; spec: ChartSpec }[]): GridChart[] {
  const asked = (request instanceof URLSearchParams ? request : new URL(request.url).searchParams).get(DATA_PARAM);
  return charts.map(({ id, spec }) => ({
    id,
    chart: preparedChartWithMarkup(spec, id),
    table: asked === id ? chartTableHtml({ title: spec.title, unit: spec.unit, series: spec.series, time: rowsByTime(spec), xLabel: spec.xLabel }) : null,
  }));
}
