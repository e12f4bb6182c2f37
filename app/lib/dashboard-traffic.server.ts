import { apiGet, detailText } from "./api.server.ts";
import type { CallAnswer, CallQuery, GetCallName } from "../../platform/contract/calls.ts";
import { NET_STATS_MAX_IDS, dashboardRangeMs, type DashboardRange, type NetStats } from "../../platform/contract/dashboard.ts";
import { createHash } from "node:crypto";
import { withSvgMarkup } from "../components/chart/markup.server.tsx";
import { bucketEnd, UntilNextBucket } from "../components/chart/until-next-bucket.server.ts";
// The charts are the dashboard's (what its view draws); their loading and keeping are here.
import { dashboardCharts, type DashboardChart, type Traffic, type TrafficObject } from "../routes/dashboard/model.ts";
import { followsChange } from "./toast.server.ts";

/*
 * /dashboard's data (spec 2 §7), below the screen (issue 61 item 4): the counts, then the objects
 * and their traffic over the range. Each part fails on its own: its error takes its place and the
 * rest of the page renders. The screen calls accountSummary and charts and knows nothing of what
 * is kept.
 *
 * The prepared charts of a (session, range, charted objects) are kept until the traffic's last
 * bucket ends (UntilNextBucket): get-net-stats of every object is the page's one big cost (~0.6 MB
 * of JSON for 54 objects over a day) and its buckets only change when a new one begins. Never
 * shared between sessions (the key holds the session's token); the view after a change or Refresh
 * (the redirect's, followsChange) reads afresh and keeps what it read. A `?data=` view reads afresh
 * (the table needs every object) and stores its charts, so the chart and the table show the same
 * figures.
 */

const kept = new UntilNextBucket<DashboardChart[]>();

export type Part<T> = { ok: true; data: T } | { ok: false; error: string };

const part = async <N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>): Promise<Part<CallAnswer<N>>> => {
  const r = await apiGet(request, name, query);
  return r.ok ? { ok: true, data: r.data } : { ok: false, error: detailText(r.detail) || `Could not load (${r.status}).` };
};

export const accountSummary = (request: Request) => part(request, "get-account-summary");

export interface NamedObject {
  id: string;
  name: string;
  kind: TrafficObject["kind"];
}

/** The charted objects (list-endpoint-dashboard): endpoints, then app services. */
export async function chartedObjects(request: Request): Promise<Part<NamedObject[]>> {
  const objects = await part(request, "list-endpoint-dashboard");
  if (!objects.ok) return objects;
  const named = [
    ...objects.data.endpoints.map((e) => ({ id: e.ep_id, name: e.ep_name, kind: "endpoint" as const })),
    ...objects.data.app_services.map((s) => ({ id: s.app_service_id, name: s.app_service_name, kind: "app_service" as const })),
  ];
  return { ok: true, data: named };
}

/** Every object's tx/rx series on one time axis; get-net-stats is asked 100 ids at a time. */
export async function traffic(request: Request, named: readonly NamedObject[], range: DashboardRange, now = Date.now()): Promise<Part<Traffic>> {
  const window = { start_time: new Date(now - dashboardRangeMs[range]).toISOString(), end_time: new Date(now).toISOString() };
  const chunks: string[][] = [];
  for (let i = 0; i < named.length; i += NET_STATS_MAX_IDS) chunks.push(named.slice(i, i + NET_STATS_MAX_IDS).map((o) => o.id));
  const answers = await Promise.all(chunks.map((ids) => part(request, "get-net-stats", { ids: ids.join(","), ...window })));
  const failed = answers.find((a) => !a.ok);
  if (failed && !failed.ok) return failed;
  const stats: NetStats = Object.assign({}, ...answers.map((a) => (a.ok ? a.data : {})));
  const times = Object.values(stats)[0]?.map((s) => s.timestamp) ?? [];
  const of = (kind: TrafficObject["kind"]): TrafficObject[] =>
    named
      .filter((o) => o.kind === kind && stats[o.id])
      .map((o) => ({ kind, id: o.id, name: o.name, tx: stats[o.id]!.map((s) => s.tx_bytes), rx: stats[o.id]!.map((s) => s.rx_bytes) }));
  return { ok: true, data: { times, endpoints: of("endpoint"), appServices: of("app_service") } };
}

/**
 * The four charts, prepared (the dashboard's model.ts), and the one table `?data=` asks for. The
 * charts are kept (above) while the session, range and objects are the same and the newest bucket
 * has not ended; a `?data=` view reads afresh so its table and charts agree.
 */
export async function charts(request: Request, token: string, range: DashboardRange, dataParam: string | null): Promise<{ charts: DashboardChart[]; error: string | null }> {
  const objects = await chartedObjects(request);
  if (!objects.ok) return { charts: dashboardCharts(null, range, null), error: objects.error };
  const key = `${range} ${createHash("sha256").update(JSON.stringify(objects.data)).digest("base64url")} ${token}`;
  // Refresh's redirect reads afresh on whichever instance it lands (followsChange), not only on the one that dropped its cache.
  const cached = dataParam || followsChange(request) ? null : kept.get(key);
  if (cached) return { charts: cached, error: null };
  const net = await traffic(request, objects.data, range);
  if (!net.ok) return { charts: dashboardCharts(null, range, null), error: net.error };
  // The SVG markup is made here once; cached views write it as it is.
  const prepared = dashboardCharts(net.data, range, dataParam).map((c) => ({ ...c, chart: withSvgMarkup(c.chart, c.id) }));
  // Kept without their table (the next view asks for its own).
  kept.set(key, prepared.map((c) => ({ ...c, table: null })), bucketEnd(net.data.times));
  return { charts: prepared, error: null };
}
