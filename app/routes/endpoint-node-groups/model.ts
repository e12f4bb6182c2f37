import { nodeMessages } from "../../../platform/contract/nodes.ts";

/* The Manage Endpoint Node Groups screen's shapes and words (spec 2 §2, §3 Endpoint node group, §4, §8, §9). */

export type { EndpointNodeGroup, EndpointNodeGroupDetail } from "../../../platform/contract/nodes.ts";

/** What the platform has now: the switch and the address. */
export interface ToggleState {
  enabled: boolean;
  address: string;
}

/** An address toggle dialog's words (./address-toggle.tsx): its title, switch, address field and toasts (its refusals are its call's: platform/contract/nodes-forms.shapes.ts). */
export interface AddressToggleTexts {
  /** The dialog's name, intent and row-menu link (`?dialog=`). */
  name: string;
  title: string;
  /** The switch's label ("DHCP relay"). */
  label: string;
  /** An IPv4 address, or one with its prefix ({ip}/24). */
  kind: "ipv4" | "ipv4-prefix";
  /** The field: its name (the platform's field too), label and hint. */
  address: { name: string; label: string; hint: string };
  enabled: string;
  disabled: string;
}

/** The words of one address toggle: the hint says what the address looks like, with `example`. */
export function addressToggle(name: string, title: string, label: string, field: [name: string, label: string, example: string], kind: AddressToggleTexts["kind"], done: [string, string]): AddressToggleTexts {
  const [fieldName, fieldLabel, example] = field;
  const hint = kind === "ipv4" ? "An IPv4 address" : "An IPv4 address with its prefix";
  return {
    name,
    title,
    label,
    kind,
    address: { name: fieldName, label: fieldLabel, hint: `${hint}, e.g. ${example}` },
    enabled: done[0],
    disabled: done[1],
  };
}

/** The two row actions' dialogs: their switch, their address (spec 2 §7 configure-dhcp-relay, configure-vrrp). */
export const DHCP = addressToggle("dhcp", "Setup DHCP Relay", "DHCP relay", ["server_ip", "DHCP Server IP", "10.0.0.2"], "ipv4", [nodeMessages.dhcpEnabled, nodeMessages.dhcpDisabled]);
export const VRRP = addressToggle("vrrp", "Setup VRRP", "VRRP", ["virtual_ip", "Virtual IP", "10.0.0.1"], "ipv4", [nodeMessages.vrrpEnabled, nodeMessages.vrrpDisabled]);
