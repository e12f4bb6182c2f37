import { chartTableHtml } from "../../components/chart/chart-table.tsx";
import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { preparedChartWithMarkup } from "../../components/chart/markup.server.tsx";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { apiGet, detailText } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import type { NodeMetricsSample } from "../../../platform/contract/nodes.ts";
import { NODE_CHARTS, NODE_RANGES, nodeChartSpec, nodeRangeMs, type Monitoring, type NodeChart } from "./node-metrics.ts";

/*
 * The Monitoring tab on the server: get-node-metrics over the range, each chart prepared (its SVG
 * as markup, chart kit README 'Prepared charts') and the one 'Show data' table the URL asks for.
 * The prepared charts of a (session, node, range) are kept in this instance's memory until the
 * newest bucket ends (as /dashboard's, app/routes/dashboard/cache.server.ts): the metrics and the
 * SVGs only change when a new bucket begins. Derived data of one session, bounded, never shared.
 */

interface Entry {
  expires: number;
  charts: NodeChart[];
}
const MAX_ENTRIES = 500;
const cache = new Map<string, Entry>();

function bucketEnd(samples: readonly NodeMetricsSample[]): number {
  const last = Date.parse(samples[samples.length - 1]?.["@timestamp"] ?? "");
  const step = last - Date.parse(samples[samples.length - 2]?.["@timestamp"] ?? "");
  return Number.isFinite(last) && step > 0 ? last + step : 0;
}

function store(key: string, charts: NodeChart[], expires: number, now: number) {
  if (expires <= now) return;
  for (const [k, e] of cache) if (e.expires <= now) cache.delete(k);
  while (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { expires, charts: charts.map((c) => ({ ...c, table: null })) });
}

export async function nodeMonitoring(request: Request, nodeId: string, nodeName: string, now = Date.now()): Promise<Monitoring> {
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, NODE_RANGES);
  const asked = params.get(DATA_PARAM);
  const key = `${(await requireSession(request)).access_token} ${nodeId} ${range} ${nodeName}`;
  const hit = asked ? null : cache.get(key);
  if (hit && hit.expires > now) return { range, charts: hit.charts, error: null };
  const res = await apiGet<NodeMetricsSample[]>(request, "get-node-metrics", {
    id: nodeId,
    start_time: new Date(now - nodeRangeMs[range]).toISOString(),
    end_time: new Date(now).toISOString(),
  });
  const samples = res.ok ? res.data : [];
  const charts = NODE_CHARTS.map((c) => {
    const spec = nodeChartSpec(c, samples, nodeName);
    const table = asked === c.id && res.ok ? chartTableHtml({ title: spec.title, unit: spec.unit, series: spec.series, time: true }) : null;
    return { id: c.id, chart: preparedChartWithMarkup(spec, c.id), table };
  });
  if (res.ok) store(key, charts, bucketEnd(samples), now);
  return { range, charts, error: res.ok ? null : detailText(res.detail) || `Could not load the metrics (${res.status}).` };
}
