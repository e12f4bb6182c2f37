import { apiGet, apiGetShared, detailText } from "../../lib/api.server.ts";
import type { DeviceTabContext } from "./model.ts";
import type { CallAnswer, CallQuery, GetCallName } from "../../../platform/contract/calls.ts";

/** The insights feeds a device tab reads (their query: the device, the range, a session). */
type FeedCallName = "dashboard_get_app_flows" | "dashboard_get_app_flow_report" | "dashboard_get_app_visibility" | "dashboard_get_ddos";

/*
 * The device tabs' platform reads: each fails on its own (its message takes its part's place and
 * the rest of the tab renders).
 */

export type Part<T> = { ok: true; data: T } | { ok: false; error: string };

/**
 * One platform read as a Part. `shared`: the answer is shared and frozen (lib/shared-answer.server.ts)
 * so that what the tab derives from it (its prepared charts: sharedGridCharts) is remembered beside
 * it; the caller must not change it.
 */
export async function part<N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>, opts: { shared?: boolean } = {}): Promise<Part<CallAnswer<N>>> {
  const r = opts.shared ? await apiGetShared(request, name, query) : await apiGet(request, name, query);
  return r.ok
    ? { ok: true, data: r.data }
    : {
        ok: false,
        error: detailText(r.detail) || `Could not load (${r.status}).`,
      };
}

/** One of the insights feeds (dashboard_get_…) for the tab's device and range; a failure is its message. */
export const deviceFeed = <N extends FeedCallName>(request: Request, name: N, ctx: DeviceTabContext, query: { session_id?: string } = {}, opts: { shared?: boolean } = {}) =>
  // why the cast: every feed's query is the device and the range (and a flow report's session).
  part(request, name, { node_id: ctx.device.id, range: ctx.range, ...query } as CallQuery<N>, opts);

export const errorOf = (p: Part<unknown>) => (p.ok ? null : p.error);
