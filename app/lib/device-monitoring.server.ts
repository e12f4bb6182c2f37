import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { sharedGridCharts } from "../../components/chart/grid.server.ts";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { bucketEnd, UntilNextBucket } from "../../components/chart/until-next-bucket.server.ts";
import { apiGetShared, detailText } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { followsChange } from "../../lib/toast.server.ts";
import { DEVICE_CHARTS, DEVICE_RANGES, type CpeMonitoring } from "./monitoring.ts";

/*
 * The Monitoring tab on the server: get_device_monitoring over the URL's range (default 1d, the
 * platform's), each chart prepared with its SVG markup (chart kit README 'Prepared charts'; remembered while the
 * samples are the same) and the one 'Show data' table the URL asks for. The answer is shared
 * (lib/shared-answer.server.ts): a view of the same samples again finds its prepared charts
 * beside the answer (sharedGridCharts) and neither parses nor builds the series again.
 *
 * The tab of a (session, device, range) is kept in this instance's memory until the newest bucket
 * ends (UntilNextBucket, as the nodes' Monitoring tab and /dashboard keep theirs): the samples only
 * change when a new bucket begins, so a view within the bucket asks the platform nothing (it
 * computed the series and wrote ~30 KB of JSON on every view: a third of /routers' platform time).
 * Kept with the device's name (the charts' titles) and its op and admin state as the list shows
 * them: a renamed device's tab is made anew, and so is the tab of a device that went down or came
 * up (by itself, or through a change on another instance of the console), so that the tab never
 * contradicts the row above it. The view that follows a change or Refresh (followsChange) reads
 * afresh on any instance, and the instance that made it also drops the session's
 * (forgetKeptMonitoring). A view asking for a 'Show data' table reads the platform. Derived data
 * of one session, bounded, never shared.
 */

const kept = new UntilNextBucket<{ device: string; monitoring: CpeMonitoring }>();

/** What a kept tab depends on beyond its samples: the device's name and its op and admin state (the row's). */
export interface MonitoredDevice {
  name: string;
  op_state?: string | null;
  admin_state?: string | null;
}
const deviceStamp = (d: MonitoredDevice) => `${d.name}\n${d.op_state ?? ""}\n${d.admin_state ?? ""}`;

/** The key of a kept tab, or null when the URL asks for a 'Show data' table (never kept). */
async function keptKey(request: Request, deviceId: string): Promise<string | null> {
  const params = new URL(request.url).searchParams;
  if (params.get(DATA_PARAM)) return null;
  return `${(await requireSession(request)).access_token} ${deviceId} ${currentRange(params, DEVICE_RANGES)}`;
}

/** Whether this device's tab over the URL's range is kept (a loader then starts no monitoring call early). */
export async function monitoringKept(request: Request, deviceId: string): Promise<boolean> {
  const key = await keptKey(request, deviceId);
  return key !== null && !followsChange(request) && kept.get(key) !== null;
}

/**
 * Every change or Refresh on the devices' screens (their action's guard) drops the session's kept
 * tabs: a reset device, an announcement or a Refresh is seen at once, not at the bucket's end.
 */
export async function forgetKeptMonitoring(request: Request): Promise<void> {
  const token = (await requireSession(request)).access_token;
  kept.deleteWhere((key) => key.startsWith(`${token} `));
}

/** The monitoring call for a device over the URL's range: a loader may start it before it knows the device is on its page. */
export function monitoringAnswer(request: Request, deviceId: string) {
  const range = currentRange(new URL(request.url).searchParams, DEVICE_RANGES);
  return apiGetShared(request, "get_device_monitoring", { node_id: deviceId, range });
}

/** The Monitoring tab's data for a device (either kind; `answer`: monitoringAnswer's, if the loader started it already). */
export async function cpeMonitoring(request: Request, cpeId: string, device: MonitoredDevice, answer?: ReturnType<typeof monitoringAnswer>): Promise<CpeMonitoring> {
  const cpeName = device.name;
  const stamp = deviceStamp(device);
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, DEVICE_RANGES);
  const key = await keptKey(request, cpeId);
  // The view after a change or Refresh reads afresh, whichever instance made the change.
  const hit = key === null || followsChange(request) ? null : kept.get(key);
  if (hit?.device === stamp) {
    answer?.catch(() => {});
    return hit.monitoring;
  }
  const res = await (answer ?? monitoringAnswer(request, cpeId));
  if (!res.ok) return { range, uptime: null, charts: [], error: detailText(res.detail) || `Could not load the monitoring data (${res.status}).` };
  const charts = sharedGridCharts(params, res.data, cpeName, () =>
    DEVICE_CHARTS.map(({ id, title, unit, yDomain, series }) => ({ id, spec: { title: `${cpeName}: ${title}`, unit, kind: "line" as const, yDomain, series: series(res.data) } })),
  );
  const monitoring = { range, uptime: res.data.uptime_percent, charts, error: null };
  if (key !== null) kept.set(key, { device: stamp, monitoring }, bucketEnd(res.data.health.slice(-2).map((h) => h.timestamp)));
  return monitoring;
}
