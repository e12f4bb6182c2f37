import { DATA_PARAM } from "../components/chart/data-link.tsx";
import { sharedGridCharts } from "../components/chart/grid.server.ts";
import { currentRange } from "../components/chart/range-toggle.tsx";
import { bucketEnd, UntilNextBucket } from "../components/chart/until-next-bucket.server.ts";
// The tab's charts and ranges are the devices' screens' (what their view draws); its loading is here.
import { DEVICE_CHARTS, DEVICE_RANGES, type CpeMonitoring } from "../routes/routers/monitoring.ts";
import { apiGetShared, detailText } from "./api.server.ts";
import { requireSession } from "./session.server.ts";
import { followsChange } from "./toast.server.ts";

/*
 * The devices' Monitoring tab on the server (/routers, /ethernet-devices), below the screens: they
 * call earlyMonitoring and cpeMonitoring and know nothing of what is kept (issue 61 item 4).
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
 * contradicts the row above it. A device that is down is read on every view (its uptime moves). The view that follows a change or Refresh (followsChange), on any
 * instance, drops the session's kept tabs and reads afresh (no screen has to forget them). A view
 * asking for a 'Show data' table reads the platform. Derived data of one session, bounded, never
 * shared.
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

/**
 * The kept tab of `key`, or null. A view that follows a change or Refresh (the action's redirect,
 * on whichever instance it lands) drops all of the session's kept tabs first: a reset device, an
 * announcement or a Refresh is seen at once, not at the bucket's end.
 */
async function keptTab(request: Request, key: string | null) {
  if (followsChange(request)) {
    const token = (await requireSession(request)).access_token;
    kept.deleteWhere((k) => k.startsWith(`${token} `));
    return null;
  }
  return key === null ? null : kept.get(key);
}

function monitoringAnswer(request: Request, deviceId: string) {
  const range = currentRange(new URL(request.url).searchParams, DEVICE_RANGES);
  return apiGetShared(request, "get_device_monitoring", { node_id: deviceId, range });
}

/** A monitoring call started before the loader knows whether its page holds the device (earlyMonitoring). */
export interface EarlyMonitoring {
  deviceId: string;
  answer: ReturnType<typeof monitoringAnswer>;
}

/**
 * The monitoring call for the device the URL selects, started at once, beside the list's (the
 * platform keeps the call to the caller's account), unless the session's tab of that device is
 * kept; null for no device. Hand it to cpeMonitoring, which uses it only for that device.
 */
export async function earlyMonitoring(request: Request, deviceId: string | null): Promise<EarlyMonitoring | null> {
  if (deviceId === null) return null;
  if ((await keptTab(request, await keptKey(request, deviceId))) !== null) return null;
  const answer = monitoringAnswer(request, deviceId);
  answer.catch(() => {}); // awaited only if the page holds the device: never an unhandled rejection
  return { deviceId, answer };
}

/** The Monitoring tab's data for a device (either kind; `early`: earlyMonitoring's, if the loader started one). */
export async function cpeMonitoring(request: Request, cpeId: string, device: MonitoredDevice, early?: EarlyMonitoring | null): Promise<CpeMonitoring> {
  const cpeName = device.name;
  const stamp = deviceStamp(device);
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, DEVICE_RANGES);
  const key = await keptKey(request, cpeId);
  const answer = early?.deviceId === cpeId ? early.answer : undefined;
  const hit = await keptTab(request, key);
  if (hit?.device === stamp) return hit.monitoring;
  const res = await (answer ?? monitoringAnswer(request, cpeId));
  if (!res.ok) return { range, uptime: null, charts: [], error: detailText(res.detail) || `Could not load the monitoring data (${res.status}).` };
  const charts = sharedGridCharts(params, res.data, cpeName, () =>
    DEVICE_CHARTS.map(({ id, title, unit, yDomain, series }) => ({ id, spec: { title: `${cpeName}: ${title}`, unit, kind: "line" as const, yDomain, series: series(res.data) } })),
  );
  const monitoring = { range, uptime: res.data.uptime_percent, charts, error: null };
  // A device that is down is not kept (and what was kept of it goes): its uptime falls by the
  // second, where a kept tab would show the figure of the bucket's start (up to an hour at 1w).
  if (key !== null && device.op_state === "down") kept.delete(key);
  else if (key !== null) kept.set(key, { device: stamp, monitoring }, bucketEnd(res.data.health.slice(-2).map((h) => h.timestamp)));
  return monitoring;
}
