import type { MenuItem } from "../../components/row-menu.tsx";
import type { CpeDetail, MetroDetail, NodeToken } from "../../../platform/contract/devices.ts";
import type { GetCallName, PostCallName } from "../../../platform/contract/calls.ts";
import { deviceMessages } from "../../../platform/contract/devices.ts";

/*
 * What the Internet NID (cpe) and Metro Ethernet NID (metro) screens share (spec 3 §2.10, §2.11,
 * §7.1, §7.2): the two kinds differ in their id field and call names, not in their dialogs. One
 * table here; the dialogs, intents and loaders of this folder take the kind.
 */

export type DeviceKind = "cpe" | "metro";
export type DeviceDetail = CpeDetail | MetroDetail;

export interface DeviceKindInfo {
  kind: DeviceKind;
  /** The id field of the kind's calls. */
  idField: "cpe_id" | "metro_id";
  /** The id as the kind's calls take it (in a query or a body): `{ cpe_id }` or `{ metro_id }`. */
  id: (id: string) => { cpe_id: string } | { metro_id: string };
  /** The screen's path (the diagnostics download sits under it). */
  path: "/routers" | "/ethernet-devices";
  calls: { detail: GetCallName; assign: PostCallName; lan: GetCallName; shipping: PostCallName; remove: PostCallName; thresholds: GetCallName; setThresholds: PostCallName; startTest: PostCallName; testReport: GetCallName };
  removed: string;
}

/**
 * Each kind's names as literals (`as const satisfies`): `deviceKinds[kind].calls.assign` is the
 * union of the two kinds' calls, and their bodies and answers are the contract's (platform/
 * contract/calls.ts), each kind's id under its own name.
 */
export const deviceKinds = {
  cpe: {
    kind: "cpe",
    idField: "cpe_id",
    id: (id: string) => ({ cpe_id: id }),
    path: "/routers",
    calls: {
      detail: "get_cpe_detail",
      assign: "cpe_assign_entity",
      lan: "get_cpe_lan_interfaces",
      shipping: "update_cpe_shipping_info",
      remove: "remove_cpe",
      thresholds: "get_cpe_denial_of_service_thresholds",
      setThresholds: "set_cpe_denial_of_service_thresholds",
      startTest: "start_cpe_test",
      testReport: "get_cpe_test_report",
    },
    removed: deviceMessages.cpeRemoved,
  },
  metro: {
    kind: "metro",
    idField: "metro_id",
    id: (id: string) => ({ metro_id: id }),
    path: "/ethernet-devices",
    calls: {
      detail: "get_metro_detail",
      assign: "metro_assign_entity",
      lan: "get_metro_lan_interfaces",
      shipping: "update_metro_shipping_info",
      remove: "remove_metro",
      thresholds: "get_metro_denial_of_service_thresholds",
      setThresholds: "set_metro_denial_of_service_thresholds",
      startTest: "start_metro_test",
      testReport: "get_metro_test_report",
    },
    removed: deviceMessages.metroRemoved,
  },
} as const satisfies Record<DeviceKind, DeviceKindInfo>;

/** The detail tabs of both kinds (spec 3 §2.10, §2.11); BN-CPE-IP has Details only (routers/tabs.tsx). */
export const DEVICE_TABS = [
  { id: "details", label: "Details" },
  { id: "monitoring", label: "Monitoring" },
] as const;
export const DEVICE_TAB_IDS = DEVICE_TABS.map((t) => t.id);

/** A device's id and name, whichever its kind. */
export const deviceIdOf = (d: DeviceDetail) => ("cpe_id" in d ? d.cpe_id : d.metro_id);
export const deviceNameOf = (d: DeviceDetail) => ("cpe_id" in d ? d.cpe_name : d.metro_name);

/** The items common to both menus (spec 3 §2.10 "Items common to all", §2.11), in the spec's order. */
export const COMMON_MENU: readonly MenuItem[] = [
  { label: "Get Diagnostics", dialog: "diagnostics" },
  { label: "Reset LAN Ports", dialog: "reset-lan" },
  { label: "Reset Device", dialog: "reset-device" },
  { label: "Ping and Traceroute", dialog: "ping" },
  { label: "Generate Registration Token", dialog: "token" },
  { label: "Track Shipping", dialog: "shipping" },
  { label: "Announcement", dialog: "announcement" },
  { label: "Delete", dialog: "remove", danger: true },
];

/** The dialogs a readonly user may open (they only show something): the others need a writer. */
export const READABLE_DIALOGS = ["diagnostics", "ping"] as const;

/** The common menu a readonly user sees: what only reads. */
export const READABLE_MENU: readonly MenuItem[] = COMMON_MENU.filter((i) => "dialog" in i && (READABLE_DIALOGS as readonly string[]).includes(i.dialog));

/** What Ping and Traceroute and Generate Registration Token answer in place (no redirect: a token is shown once). */
export interface PingAnswer {
  ping: { tool: "ping" | "traceroute"; ip_address: string; output: string };
}
export interface TokenAnswer {
  token: NodeToken;
}

/** The in-place answer of the ping or token intent in the action's data, if it is one. */
export function pingAnswerOf(actionData: unknown): PingAnswer["ping"] | null {
  return isAnswer<PingAnswer>(actionData, "ping") ? actionData.ping : null;
}
export function tokenAnswerOf(actionData: unknown): NodeToken | null {
  return isAnswer<TokenAnswer>(actionData, "token") ? actionData.token : null;
}
// The action's data is the intent's answer: the key tells which.
const isAnswer = <A extends object>(d: unknown, key: keyof A): d is A => Boolean(d && typeof d === "object" && key in d);
