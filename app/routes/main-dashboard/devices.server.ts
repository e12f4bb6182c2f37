import { apiGet, detailText } from "../../lib/api.server.ts";
import type { DeviceNames } from "../../../platform/contract/support.shapes.ts";
import { DEVICE_PARAM, type DashboardDevice } from "./model.ts";

/*
 * The shared header's device picker (tabs 2–6): the account's CPE and metro devices from
 * dashboard_get_device_names, and the one `?device=` names. An id that is not in the list is no
 * choice: the first device is taken (the picker offers only these), so a tab always has one when
 * the account has any.
 */

export interface DevicePicker {
  devices: DashboardDevice[];
  device: DashboardDevice | null;
  error: string | null;
}

export async function devicePicker(request: Request, params: URLSearchParams): Promise<DevicePicker> {
  const r = await apiGet<DeviceNames>(request, "dashboard_get_device_names");
  if (!r.ok)
    return {
      devices: [],
      device: null,
      error: detailText(r.detail) || `Could not load the devices (${r.status}).`,
    };
  const devices: DashboardDevice[] = [...r.data.cpe.map((d) => ({ ...d, kind: "cpe" as const })), ...r.data.metro.map((d) => ({ ...d, kind: "metro" as const }))];
  const asked = params.get(DEVICE_PARAM);
  return {
    devices,
    device: devices.find((d) => d.id === asked) ?? devices[0] ?? null,
    error: null,
  };
}
