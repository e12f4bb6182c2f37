import { sharedGridCharts } from "../../components/chart/grid.server.ts";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { apiGetShared, detailText } from "../../lib/api.server.ts";
import type { DeviceMonitoring } from "./model.ts";
import { DEVICE_CHARTS, DEVICE_RANGES, type CpeMonitoring } from "./monitoring.ts";

/*
 * The Monitoring tab on the server: get_device_monitoring over the URL's range (default 1d, the
 * platform's), each chart prepared with its SVG markup (chart kit README 'Prepared charts'; remembered while the
 * samples are the same) and the one 'Show data' table the URL asks for. The answer is shared
 * (lib/shared-answer.server.ts): a view of the same samples again finds its prepared charts
 * beside the answer (sharedGridCharts) and neither parses nor builds the series again.
 */

/** The monitoring call for a device over the URL's range: a loader may start it before it knows the device is on its page. */
export function monitoringAnswer(request: Request, deviceId: string) {
  const range = currentRange(new URL(request.url).searchParams, DEVICE_RANGES);
  return apiGetShared<DeviceMonitoring>(request, "get_device_monitoring", { node_id: deviceId, range });
}

/** The Monitoring tab's data for a device (either kind; `answer`: monitoringAnswer's, if the loader started it already). */
export async function cpeMonitoring(request: Request, cpeId: string, cpeName: string, answer?: ReturnType<typeof monitoringAnswer>): Promise<CpeMonitoring> {
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, DEVICE_RANGES);
  const res = await (answer ?? monitoringAnswer(request, cpeId));
  if (!res.ok) return { range, uptime: null, charts: [], error: detailText(res.detail) || `Could not load the monitoring data (${res.status}).` };
  const charts = sharedGridCharts(params, res.data, cpeName, () =>
    DEVICE_CHARTS.map(({ id, title, unit, yDomain, series }) => ({ id, spec: { title: `${cpeName}: ${title}`, unit, kind: "line" as const, yDomain, series: series(res.data) } })),
  );
  return { range, uptime: res.data.uptime_percent, charts, error: null };
}
