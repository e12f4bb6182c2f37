import type { CallBody, PostCallName } from "../../../platform/contract/calls.ts";
import type { DeviceDetail, DeviceKind } from "./kind.ts";

/** The calls whose body is exactly the kind's id and `enabled`: a toggle of that kind. */
type ToggleCall<I extends string> = {
  [N in PostCallName]: [CallBody<N>] extends [Record<I, string> & { enabled: boolean }] ? ([Record<I, string> & { enabled: boolean }] extends [CallBody<N>] ? N : never) : never;
}[PostCallName];

/*
 * The toggle dialogs of both kinds as one table (spec 3 §2.10 "Dialogs with toggles … show an
 * on/off value", §4): the dialog's name, its title (the menu item), the switch's label, the
 * platform call and how the current value is read from the device's detail. One dialog component
 * (toggle-dialogs.tsx) and one intent ("toggle", intents.server.ts) serve every row.
 */

export interface DeviceToggle {
  /** `?dialog=` */
  dialog: string;
  title: string;
  label: string;
  /** The call per kind; a kind without the call has no such dialog. */
  calls: { cpe?: ToggleCall<"cpe_id">; metro?: ToggleCall<"metro_id"> };
  current: (d: DeviceDetail) => boolean;
  hint: string;
}

export const DEVICE_TOGGLES: readonly DeviceToggle[] = [
  {
    dialog: "appflow",
    title: "Edit Appflow",
    label: "Appflow",
    calls: { cpe: "toggle_cpe_appflow", metro: "toggle_metro_netflow" },
    current: (d) => d.netflow_enabled,
    hint: "The device exports its traffic flows (NetFlow) for the dashboards.",
  },
  {
    dialog: "iperf",
    title: "Edit iPerf Server",
    label: "iPerf server",
    calls: { cpe: "toggle_cpe_iperf_server" },
    current: (d) => "iperf_server" in d && d.iperf_server,
    hint: "The device answers iPerf3 tests on port 5201.",
  },
  {
    dialog: "app-visibility",
    title: "Edit App Visibility",
    label: "App visibility",
    calls: { cpe: "toggle_cpe_app_visibility" },
    current: (d) => "app_visibility_enabled" in d && d.app_visibility_enabled,
    hint: "The device reports the applications its traffic belongs to.",
  },
  {
    dialog: "geo",
    title: "Edit Geo Visibility",
    label: "Geo visibility",
    calls: { cpe: "toggle_cpe_geo_visibility", metro: "toggle_metro_geo_visibility" },
    // Spec 3 §3: both the inbound and the outbound flag on means geo visibility is on.
    current: (d) => d.monitor_inbound_pub_ip_enabled && d.monitor_outbound_pub_ip_enabled,
    hint: "The device locates the public addresses of inbound and outbound traffic.",
  },
  {
    dialog: "malicious",
    title: "Edit Block Malicious Sources",
    label: "Block malicious sources",
    calls: { cpe: "toggle_cpe_malicious_ip_block", metro: "toggle_metro_malicious_ip_block" },
    current: (d) => d.malicious_ip_block_enabled,
    hint: "The device drops traffic from addresses known to be malicious.",
  },
];

/** The toggle of this dialog for this kind, if the kind has it. */
export const deviceToggle = (kind: DeviceKind, dialog: string | null) => DEVICE_TOGGLES.find((t) => t.dialog === dialog && t.calls[kind]) ?? null;

/** The DDoS switch's call per kind (the DDoS dialog: the switch and the thresholds). */
export const ddosToggleCall = { cpe: "toggle_cpe_denial_of_service", metro: "toggle_metro_denial_of_service" } as const satisfies { [K in DeviceKind]: ToggleCall<`${K}_id`> };

/** The form a device dialog posts, the key of its constraints (openDialogConstraints): every toggle dialog's is `toggle`. */
export const deviceDialogForm = (kind: DeviceKind, dialog: string | null) => (deviceToggle(kind, dialog) ? "toggle" : dialog);
