import { apiGet, detailText } from "../../lib/api.server.ts";
import type { CallAnswer, CallQuery, GetCallName } from "../../../platform/contract/calls.ts";
import { NET_STATS_MAX_IDS, dashboardRangeMs, type DashboardRange, type NetStats } from "../../../platform/contract/dashboard.ts";
import { createHash } from "node:crypto";
import { withSvgMarkup } from "../../components/chart/markup.server.tsx";
import { bucketEnd, cachedCharts, storeCharts } from "./cache.server.ts";
import { dashboardCharts, type DashboardChart, type Traffic, type TrafficObject } from "./model.ts";
import { followsChange } from "../../lib/toast.server.ts";

/*
 * The dashboard's data (spec 2 §7): the counts, then the objects and their traffic over the
 * range. Each part fails on its own: its error takes its place and the rest of the page renders.
 */

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
 * The four charts, prepared (model.ts), and the one table `?data=` asks for. The charts come from
 * this instance's cache (cache.server.ts) while the session, range and objects are the same and the
 * newest bucket has not ended; a `?data=` view reads afresh so its table and charts agree.
 */
export async function charts(request: Request, token: string, range: DashboardRange, dataParam: string | null): Promise<{ charts: DashboardChart[]; error: string | null }> {
  const objects = await chartedObjects(request);
  if (!objects.ok) return { charts: dashboardCharts(null, range, null), error: objects.error };
  const key = `${range} ${createHash("sha256").update(JSON.stringify(objects.data)).digest("base64url")}`;
  // Refresh's redirect reads afresh on whichever instance it lands (followsChange), not only on the one that dropped its cache.
  const cached = dataParam || followsChange(request) ? null : cachedCharts(token, key);
  if (cached) return { charts: cached, error: null };
  const net = await traffic(request, objects.data, range);
  if (!net.ok) return { charts: dashboardCharts(null, range, null), error: net.error };
  // The SVG markup is made here once; cached views write it as it is.
  const prepared = dashboardCharts(net.data, range, dataParam).map((c) => ({ ...c, chart: withSvgMarkup(c.chart, c.id) }));
  storeCharts(token, key, prepared, bucketEnd(net.data.times));
  return { charts: prepared, error: null };
}
