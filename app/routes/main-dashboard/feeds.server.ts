import { part } from "../../lib/dashboard-reads.server.ts";
import type { DeviceTabContext } from "./model.ts";
import type { CallQuery } from "../../../platform/contract/calls.ts";

export { part, type Part } from "../../lib/dashboard-reads.server.ts";

/** The insights feeds a device tab reads (their query: the device, the range, a session). */
type FeedCallName = "dashboard_get_app_flows" | "dashboard_get_app_flow_report" | "dashboard_get_app_visibility" | "dashboard_get_ddos";

/** One of the insights feeds (dashboard_get_…) for the tab's device and range; a failure is its message. */
export const deviceFeed = <N extends FeedCallName>(request: Request, name: N, ctx: DeviceTabContext, query: { session_id?: string } = {}) =>
  // why the cast: every feed's query is the device and the range (and a flow report's session).
  part(request, name, { node_id: ctx.device.id, range: ctx.range, ...query } as CallQuery<N>);

export const errorOf = (p: { ok: true } | { ok: false; error: string }) => (p.ok ? null : p.error);
