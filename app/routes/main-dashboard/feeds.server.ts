import { apiGet, apiGetShared, detailText } from "../../lib/api.server.ts";
import type { DeviceTabContext } from "./model.ts";

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
export async function part<T>(request: Request, path: string, query?: Record<string, string>, opts: { shared?: boolean } = {}): Promise<Part<T>> {
  const r = await (opts.shared ? apiGetShared<T> : apiGet<T>)(request, path, query);
  return r.ok
    ? { ok: true, data: r.data }
    : {
        ok: false,
        error: detailText(r.detail) || `Could not load (${r.status}).`,
      };
}

/** One of the insights feeds (dashboard_get_…) for the tab's device and range; a failure is its message. */
export const deviceFeed = <T>(request: Request, call: string, ctx: DeviceTabContext, query: Record<string, string> = {}, opts: { shared?: boolean } = {}) =>
  part<T>(request, call, { node_id: ctx.device.id, range: ctx.range, ...query }, opts);

export const errorOf = (p: Part<unknown>) => (p.ok ? null : p.error);
