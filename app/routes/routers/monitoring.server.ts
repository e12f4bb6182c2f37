import { chartTableHtml } from "../../components/chart/chart-table.tsx";
import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { preparedChartWithMarkup } from "../../components/chart/markup.server.tsx";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { apiGetShared, detailText } from "../../lib/api.server.ts";
import { derived } from "../../lib/shared-answer.server.ts";
import type { DeviceMonitoring } from "./model.ts";
import { DEVICE_CHARTS, DEVICE_RANGES, type CpeMonitoring, type DeviceChart } from "./monitoring.ts";

/*
 * The Monitoring tab on the server: get_device_monitoring over the URL's range (default 1d, the
 * platform's), each chart prepared with its SVG markup (chart kit README 'Prepared charts'; remembered while the
 * samples are the same) and the one 'Show data' table the URL asks for. The answer is shared
 * (lib/shared-answer.server.ts): a view of the same samples again finds its prepared charts
 * beside the answer and neither parses nor builds the series again.
 */

const chartsOfAnswer = new WeakMap<DeviceMonitoring, Map<string, DeviceChart["chart"][]>>();

/** The monitoring call for a device over the URL's range: a loader may start it before it knows the device is on its page. */
export function monitoringAnswer(request: Request, deviceId: string) {
  const range = currentRange(new URL(request.url).searchParams, DEVICE_RANGES);
  return apiGetShared<DeviceMonitoring>(request, "get_device_monitoring", { node_id: deviceId, range });
}

/** The Monitoring tab's data for a device (either kind; `answer`: monitoringAnswer's, if the loader started it already). */
export async function cpeMonitoring(request: Request, cpeId: string, cpeName: string, answer?: ReturnType<typeof monitoringAnswer>): Promise<CpeMonitoring> {
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, DEVICE_RANGES);
  const asked = params.get(DATA_PARAM);
  const res = await (answer ?? monitoringAnswer(request, cpeId));
  if (!res.ok) return { range, uptime: null, charts: [], error: detailText(res.detail) || `Could not load the monitoring data (${res.status}).` };
  const specs = () => DEVICE_CHARTS.map(({ id, title, unit, yDomain, series }) => ({ id, spec: { title: `${cpeName}: ${title}`, unit, kind: "line" as const, yDomain, series: series(res.data) } }));
  const prepared = derived(chartsOfAnswer, res.data, cpeName, () => specs().map(({ id, spec }) => preparedChartWithMarkup(spec, id)));
  // The 'Show data' table: only when asked for (rare), from the specs again.
  const table = asked ? specs().find((c) => c.id === asked) : undefined;
  const charts: DeviceChart[] = DEVICE_CHARTS.map(({ id }, i) => ({ id, chart: prepared[i]!, table: table?.id === id ? chartTableHtml({ ...table.spec, time: true }) : null }));
  return { range, uptime: res.data.uptime_percent, charts, error: null };
}
