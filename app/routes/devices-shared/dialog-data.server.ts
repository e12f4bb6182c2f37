import { apiGet, detailText } from "../../lib/api.server.ts";
import type { LanInterfaceRow } from "../../../platform/contract/devices.ts";
import { deviceDetail } from "./intents.server.ts";
import { deviceKinds, type DeviceDetail, type DeviceKind } from "./kind.ts";

/*
 * What the open shared dialog needs (loader side): the device's detail (its name, current
 * switches, thresholds, tracking number), and only for the dialog that shows them the entity
 * names, the LAN interfaces or the diagnostics. A screen spreads the answer into its loader data.
 */

export interface DeviceDialogData {
  /** The dialog's device; null when the id is unknown (the dialog says it no longer exists). */
  device: DeviceDetail | null;
  entityNames: string[] | null;
  lan: LanInterfaceRow[] | null;
  /** Get Diagnostics: the JSON text ('' when the device does not answer), or the call's error. */
  diagnostics: { text: string; error: string | null } | null;
}

export async function deviceDialogData(request: Request, kind: DeviceKind, dialog: string | null, dialogId: string | null): Promise<DeviceDialogData> {
  const none: DeviceDialogData = { device: null, entityNames: null, lan: null, diagnostics: null };
  if (!dialog || !dialogId) return none;
  const info = deviceKinds[kind];
  const [detail, entityNames, lan, diagnostics] = await Promise.all([
    deviceDetail(request, kind, dialogId),
    dialog === "assign" ? apiGet(request, "get_entity_names") : null,
    dialog === "reset-lan" ? apiGet(request, info.calls.lan, info.id(dialogId)) : null,
    dialog === "diagnostics" ? apiGet(request, "run_health_check", { node_id: dialogId }) : null,
  ]);
  return {
    device: detail.ok ? detail.data : null,
    entityNames: entityNames?.ok ? entityNames.data : entityNames ? [] : null,
    lan: lan?.ok ? lan.data : lan ? [] : null,
    diagnostics: diagnostics ? (diagnostics.ok ? { text: diagnostics.data, error: null } : { text: "", error: detailText(diagnostics.detail) }) : null,
  };
}
