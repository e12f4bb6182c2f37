import { apiGet, detailText, type ApiResult } from "../../lib/api.server.ts";
import { availabilityRanges, monthOf, type Availability, type AvailabilityRange, type SlaReport } from "../../../platform/contract/availability.ts";

/*
 * The availability figures as the console reads them: the health tab's block (loadAvailability)
 * and the SLA report page and downloads (the scope and month from the URL, loadSlaReport). The
 * platform computes everything; these only read the URL and call it.
 */

export type Loaded<T> = { data: T; error: null } | { data: null; error: string };

const loaded = <T>(r: ApiResult<T>): Loaded<T> => (r.ok ? { data: r.data, error: null } : { data: null, error: detailText(r.detail) });

/** The health tab's uptime block: the device's availability over the tab's range (published in coord.md). */
export async function loadAvailability(request: Request, nodeId: string, range: string): Promise<{ availability: Availability | null; error: string | null }> {
  const r = (availabilityRanges as readonly string[]).includes(range) ? (range as AvailabilityRange) : "1d";
  const res = loaded(await apiGet(request, "get_availability", { node_id: nodeId, range: r }));
  return { availability: res.data, error: res.error };
}

/** What an SLA report is of: a device or an entity, and a month; from the URL (`node_id` | `entity_id`, `month`). */
export interface SlaQuery {
  node_id?: string;
  entity_id?: string;
  month: string;
}

/** The last whole month: what a report is usually asked for. */
export function lastMonth(now = Date.now()): string {
  const d = new Date(now);
  return monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
}

export function slaQueryOf(params: URLSearchParams): SlaQuery | null {
  const node = params.get("node_id")?.trim() || undefined;
  const entity = params.get("entity_id")?.trim() || undefined;
  const month = params.get("month")?.trim() || lastMonth();
  if (!node && !entity) return null;
  return node ? { node_id: node, month } : { entity_id: entity, month };
}

export const slaQueryString = (q: SlaQuery) => new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => Boolean(e[1]))).toString();

export async function loadSlaReport(request: Request, q: SlaQuery): Promise<Loaded<SlaReport> & { status: number }> {
  const r = await apiGet(request, "get_sla_report", { ...q });
  return { ...loaded(r), status: r.status };
}
