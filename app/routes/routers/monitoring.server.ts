import { chartTableHtml } from "../../components/chart/chart-table.tsx";
import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { preparedChartWithMarkup } from "../../components/chart/markup.server.tsx";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { apiGet, detailText } from "../../lib/api.server.ts";
import type { DeviceMonitoring } from "./model.ts";
import { DEVICE_CHARTS, DEVICE_RANGES, type CpeMonitoring } from "./monitoring.ts";

/*
 * The Monitoring tab on the server: get_device_monitoring over the URL's range (default 1d, the
 * platform's), each chart prepared with its SVG markup (chart kit README 'Prepared charts'; remembered while the
 * samples are the same) and the one 'Show data' table the URL asks for.
 */

export async function cpeMonitoring(request: Request, cpeId: string, cpeName: string): Promise<CpeMonitoring> {
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, DEVICE_RANGES);
  const asked = params.get(DATA_PARAM);
  const res = await apiGet<DeviceMonitoring>(request, "get_device_monitoring", { node_id: cpeId, range });
  if (!res.ok) return { range, uptime: null, charts: [], error: detailText(res.detail) || `Could not load the monitoring data (${res.status}).` };
  const charts = DEVICE_CHARTS.map(({ id, title, unit, yDomain, series }) => {
    const spec = { title: `${cpeName}: ${title}`, unit, kind: "line" as const, yDomain, series: series(res.data) };
    return { id, chart: preparedChartWithMarkup(spec, id), table: asked === id ? chartTableHtml({ ...spec, time: true }) : null };
  });
  return { range, uptime: res.data.uptime_percent, charts, error: null };
}
