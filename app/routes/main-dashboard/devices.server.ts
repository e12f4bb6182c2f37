import { apiGetShared, detailText } from "../../lib/api.server.ts";
import { derived } from "../../lib/shared-answer.server.ts";
import { rowsJson, type RowsJson } from "../../lib/table-rows.ts";
import { DEVICE_PARAM, type DashboardDevice } from "./model.ts";

/*
 * The shared header's device picker (tabs 2–6): the account's CPE and metro devices from
 * dashboard_get_device_names, and the one `?device=` names. An id that is not in the list is no
 * choice: the first device is taken (the picker offers only these), so a tab always has one when
 * the account has any.
 *
 * The list travels as one JSON text (table-rows.ts), as a table's rows do: turbo-stream encoded
 * an account's hundred-odd devices value by value, three values each, on every view of every tab
 * (~0.4 ms of the health tab's ~8). The text is made once per platform answer (shared-answer).
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
