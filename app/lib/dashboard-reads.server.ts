import { apiGet, apiGetShared, detailText } from "./api.server.ts";
import { derived } from "./shared-answer.server.ts";
import { rowsJson, type RowsJson } from "./table-rows.ts";
import type { CallAnswer, CallQuery, GetCallName } from "../../platform/contract/calls.ts";
import { DEVICE_PARAM, type DashboardDevice } from "../routes/main-dashboard/model.ts";

/*
 * The main dashboard's platform reads (spec 3 §2.14), below the screen (issue 61 item 4): the
 * screen reads through `part` and `devicePicker` and knows nothing of what is kept.
 *
 * The device names and the WAN link's health and utilization are read by every view of a device
 * tab, and each view draws the same charts from them: they are shared answers (frozen, one per
 * identical answer text: shared-answer.server.ts), so what a tab draws from one (sharedGridCharts)
 * is remembered beside it. Measured with and without (docs/decisions/2026-12-03-caches-and-patches.md):
 * the health tab costs ×0.82 CPU per view without; the DDoS tab showed no difference, so its
 * answer is read as any other.
 */
const SHARED: ReadonlySet<GetCallName> = new Set<GetCallName>(["dashboard_get_device_names", "dashboard_get_wan_link_health", "dashboard_get_wan_link_utilization"]);

export type Part<T> = { ok: true; data: T } | { ok: false; error: string };

/** One platform read as a Part: each fails on its own (its message takes its part's place and the rest of the tab renders). */
export async function part<N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>): Promise<Part<CallAnswer<N>>> {
  const r = SHARED.has(name) ? await apiGetShared(request, name, query) : await apiGet(request, name, query);
  return r.ok ? { ok: true, data: r.data } : { ok: false, error: detailText(r.detail) || `Could not load (${r.status}).` };
}

/*
 * The shared header's device picker (tabs 2–6): the account's CPE and metro devices from
 * dashboard_get_device_names, and the one `?device=` names. An id that is not in the list is no
 * choice: the first device is taken (the picker offers only these), so a tab always has one when
 * the account has any.
 *
 * The list travels as one JSON text (table-rows.ts), as a table's rows do: turbo-stream encoded
 * an account's hundred-odd devices value by value, three values each, on every view of every tab
 * (~0.4 ms of the health tab's ~8). The text is made once per shared answer.
 */

export interface DevicePicker {
  /** Every device, as JSON text: read it with `tableRows({ rows: devices })`. */
  devices: RowsJson<DashboardDevice>;
  device: DashboardDevice | null;
  error: string | null;
}

const listOfAnswer = new WeakMap<object, Map<string, { list: DashboardDevice[]; json: RowsJson<DashboardDevice> }>>();

export async function devicePicker(request: Request, params: URLSearchParams): Promise<DevicePicker> {
  const r = await apiGetShared(request, "dashboard_get_device_names");
  if (!r.ok)
    return {
      devices: rowsJson<DashboardDevice>([]),
      device: null,
      error: detailText(r.detail) || `Could not load the devices (${r.status}).`,
    };
  const { list, json } = derived(listOfAnswer, r.data, "", () => {
    const list: DashboardDevice[] = [...r.data.cpe.map((d) => ({ ...d, kind: "cpe" as const })), ...r.data.metro.map((d) => ({ ...d, kind: "metro" as const }))];
    return { list, json: rowsJson(list) };
  });
  const asked = params.get(DEVICE_PARAM);
  return {
    devices: json,
    device: list.find((d) => d.id === asked) ?? list[0] ?? null,
    error: null,
  };
}
