import { apiGet, detailText } from "../../lib/api.server.ts";

/*
 * The device tabs' platform reads: each fails on its own (its message takes its part's place and
 * the rest of the tab renders).
 */

export type Part<T> = { ok: true; data: T } | { ok: false; error: string };

export async function part<T>(request: Request, path: string, query?: Record<string, string>): Promise<Part<T>> {
  const r = await apiGet<T>(request, path, query);
  return r.ok
    ? { ok: true, data: r.data }
    : {
        ok: false,
        error: detailText(r.detail) || `Could not load (${r.status}).`,
      };
}

export const errorOf = (p: Part<unknown>) => (p.ok ? null : p.error);
