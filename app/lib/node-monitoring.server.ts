import { chartTableHtml } from "../components/chart/chart-table.tsx";
import { DATA_PARAM } from "../components/chart/data-link.tsx";
import { preparedChartWithMarkup } from "../components/chart/markup.server.tsx";
import { currentRange } from "../components/chart/range-toggle.tsx";
import { bucketEnd, UntilNextBucket } from "../components/chart/until-next-bucket.server.ts";
import { apiGet, detailText } from "./api.server.ts";
import { requireSession } from "./session.server.ts";
import { followsChange } from "./toast.server.ts";
// The tab's charts and ranges are the nodes' screens' (what their view draws); its loading is here.
import { NODE_CHARTS, NODE_RANGES, nodeChartSpec, nodeRangeMs, type Monitoring, type NodeChart } from "../routes/service-nodes/node-metrics.ts";

/*
 * The nodes' Monitoring tab on the server (service and endpoint nodes), below the screens: they
 * call nodeMonitoring and know nothing of what is kept (issue 61 item 4).
 * The Monitoring tab on the server: get-node-metrics over the range, each chart prepared (its SVG
 * as markup, chart kit README 'Prepared charts') and the one 'Show data' table the URL asks for.
 * The prepared charts of a (session, node, range) are kept in this instance's memory until the
 * newest bucket ends (UntilNextBucket, as /dashboard's): the metrics and the SVGs only change
 * when a new bucket begins. Derived data of one session, bounded, never shared.
 */

const cache = new UntilNextBucket<NodeChart[]>();

export async function nodeMonitoring(request: Request, nodeId: string, nodeName: string, now = Date.now()): Promise<Monitoring> {
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, NODE_RANGES);
  const asked = params.get(DATA_PARAM);
  const key = `${(await requireSession(request)).access_token} ${nodeId} ${range} ${nodeName}`;
  // The view after a change or Refresh (followsChange) reads afresh.
  const hit = asked || followsChange(request) ? null : cache.get(key, now);
  if (hit) return { range, charts: hit, error: null };
  const res = await apiGet(request, "get-node-metrics", {
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
  const times = samples.slice(-2).map((s) => s["@timestamp"]);
  if (res.ok) cache.set(key, charts.map((c) => ({ ...c, table: null })), bucketEnd(times), now);
  return { range, charts, error: res.ok ? null : detailText(res.detail) || `Could not load the metrics (${res.status}).` };
}
