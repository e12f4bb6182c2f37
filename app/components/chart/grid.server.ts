import { chartTableHtml } from "./chart-table.tsx";
import type { GridChart } from "./chart-grid.tsx";
import { DATA_PARAM } from "./data-link.tsx";
import { preparedChartWithMarkup } from "./markup.server.tsx";
import { rowsByTime, type ChartSpec, type PreparedChart } from "./model.ts";
import { derived } from "../../lib/shared-answer.server.ts";

type ChartSpecs = readonly { id: string; spec: ChartSpec }[];

const askedChart = (request: Request | URLSearchParams) => (request instanceof URLSearchParams ? request : new URL(request.url).searchParams).get(DATA_PARAM);

const tableOf = (spec: ChartSpec) => chartTableHtml({ title: spec.title, unit: spec.unit, series: spec.series, time: rowsByTime(spec), xLabel: spec.xLabel });

/**
 * A loader's charts for ChartGrid: each spec prepared with its SVG as markup (README 'Prepared
 * charts'; remembered while the same spec comes again) under its id, and the full table of the one
 * chart the URL asks for (`?data=<id>`).
 */
export function gridCharts(request: Request | URLSearchParams, charts: ChartSpecs): GridChart[] {
  const asked = askedChart(request);
  return charts.map(({ id, spec }) => ({ id, chart: preparedChartWithMarkup(spec, id), table: asked === id ? tableOf(spec) : null }));
}

const preparedOfAnswer = new WeakMap<object, Map<string, readonly { id: string; chart: PreparedChart }[]>>();

/**
 * gridCharts for charts that are a pure function of a shared platform answer (`apiGetShared`,
 * lib/shared-answer.server.ts) and `key` (whatever else they depend on: a name, a range's bands):
 * the prepared charts are remembered beside the answer, so a view of the same answer again builds
 * no series and no memo key (README 'Prepared charts'). `charts` runs only when they are not
 * remembered, or for the 'Show data' table the URL asks for.
 */
export function sharedGridCharts(request: Request | URLSearchParams, answer: object, key: string, charts: () => ChartSpecs): GridChart[] {
  const asked = askedChart(request);
  const prepared = derived(preparedOfAnswer, answer, key, () => charts().map(({ id, spec }) => ({ id, chart: preparedChartWithMarkup(spec, id) })));
  const table = asked && prepared.some((c) => c.id === asked) ? charts().find((c) => c.id === asked) : undefined;
  return prepared.map(({ id, chart }) => ({ id, chart, table: table?.id === id ? tableOf(table.spec) : null }));
}
