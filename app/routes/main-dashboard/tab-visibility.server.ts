import { gridCharts } from "../../components/chart/grid.server.ts";
import type { ChartSpec } from "../../components/chart/model.ts";
import { deviceFeed } from "./feeds.server.ts";
import { pageRows, parseTableQuery } from "../../lib/table.server.ts";
import type { AppSession } from "../../../platform/contract/monitoring-insights.ts";
import { appSortable } from "./tab-visibility.tsx";
import type { DeviceTabContext } from "./model.ts";

/*
 * Application Visibility's part of the loader: dashboard_get_app_visibility for the device and
 * range; the 'Applications View' table is its sessions (one per application, at most 40: bounded)
 * searched, sorted and paged here by the URL (`q`, `sort`, `page`, `size`).
 */

/** A top-apps bar chart: one series, a bar per application. */
const topChart = (title: string, unit: string, name: string, points: { app_name: string; v: number }[]): ChartSpec => ({
  title,
  unit,
  kind: "bar",
  xLabel: "Application",
  series: [{ name, points: points.map((p) => ({ t: p.app_name, v: p.v })) }],
});

export async function load(request: Request, ctx: DeviceTabContext) {
  const feed = await deviceFeed(request, "dashboard_get_app_visibility", ctx);
  if (!feed.ok) return { error: feed.error, visibility: null, table: null, charts: [] };
  const { sessions, top_app_by_hits, top_app_by_bytes, ...visibility } = feed.data;
  const charts = gridCharts(request, [
    {
      id: "top-apps-hits",
      spec: topChart(
        "Top Apps by Hits",
        "hits",
        "Hits",
        top_app_by_hits.map((a) => ({ app_name: a.app_name, v: a.hits })),
      ),
    },
    {
      id: "top-apps-bytes",
      spec: topChart(
        "Top Apps by Bytes",
        "bytes",
        "Bytes",
        top_app_by_bytes.map((a) => ({ app_name: a.app_name, v: a.bytes })),
      ),
    },
  ]);
  const { state } = parseTableQuery(request, { sortable: appSortable });
  const table = pageRows<AppSession>(sessions, state, {
    getRowId: (s) => s.app_name,
    search: (s) => `${s.app_name} ${s.description} ${s.protocol} ${s.port} ${s.performance}`,
  });
  return { error: null, visibility, table, charts };
}
