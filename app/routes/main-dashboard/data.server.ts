import { apiGet, detailText } from "../../lib/api.server.ts";
import type { MapPoint } from "../../components/map/model.ts";
import type { Cpe, ListPage, Metro } from "../../../platform/contract/devices.ts";
import { cpeHref, metroHref } from "./model.ts";

/*
 * The Map View's data: the entity names (the filter's choices) and the account's CPE and metro
 * devices (get_cpe, get_metro; with `entity_name` when one is chosen) as map points. Each call
 * fails on its own: its message takes the map's place and the rest of the page renders.
 */

export type Part<T> = { ok: true; data: T } | { ok: false; error: string };

const PAGE_SIZE = 500;

/** Every row of a list call: a plain array as it is; a page ({items, total}) page by page. */
async function allRows<T>(request: Request, path: string, query: Record<string, string>): Promise<Part<T[]>> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const r = await apiGet<T[] | ListPage<T>>(request, path, page === 1 ? query : { ...query, page: String(page), size: String(PAGE_SIZE) });
    if (!r.ok) return { ok: false, error: detailText(r.detail) || `Could not load (${r.status}).` };
    if (Array.isArray(r.data)) return { ok: true, data: r.data };
    rows.push(...r.data.items);
    if (r.data.items.length === 0 || rows.length >= r.data.total) return { ok: true, data: rows };
  }
}

export async function entityNames(request: Request): Promise<Part<string[]>> {
  const r = await apiGet<string[]>(request, "get_entity_names");
  return r.ok ? { ok: true, data: r.data } : { ok: false, error: detailText(r.detail) || `Could not load (${r.status}).` };
}

export const cpePoint = (c: Cpe): MapPoint => ({
  id: c.cpe_id,
  name: c.cpe_name,
  product: c.prod_code,
  address: c.site_address,
  latitude: c.latitude,
  longitude: c.longitude,
  status: c.op_state,
  href: cpeHref(c.cpe_id),
});

export const metroPoint = (m: Metro): MapPoint => ({
  id: m.metro_id,
  name: m.metro_name,
  product: m.prod_code,
  address: m.site_address,
  latitude: m.latitude,
  longitude: m.longitude,
  status: m.op_state,
  href: metroHref(m.metro_id),
});

/** The CPE then the metro devices (of `entity` when given), as map points. */
export async function devicePoints(request: Request, entity: string | null): Promise<Part<MapPoint[]>> {
  const query: Record<string, string> = entity ? { entity_name: entity } : {};
  const [cpes, metros] = await Promise.all([allRows<Cpe>(request, "get_cpe", query), allRows<Metro>(request, "get_metro", query)]);
  if (!cpes.ok) return cpes;
  if (!metros.ok) return metros;
  return { ok: true, data: [...cpes.data.map(cpePoint), ...metros.data.map(metroPoint)] };
}
