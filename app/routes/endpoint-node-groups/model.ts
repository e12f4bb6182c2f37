import { nodeMessages } from "../../../platform/contract/nodes.ts";

/* The Manage Endpoint Node Groups screen's shapes and words (spec 2 §2, §3 Endpoint node group, §4, §8, §9). */

export type { EndpointNodeGroup, EndpointNodeGroupDetail } from "../../../platform/contract/nodes.ts";

/** The two row actions' dialogs: their switch, their address (spec 2 §7 configure-dhcp-relay, configure-vrrp). */
export const DHCP = {
  title: "Setup DHCP Relay",
  label: "DHCP relay",
  address: { name: "server_ip", label: "DHCP Server IP", hint: "An IPv4 address, e.g. 10.0.0.2" },
  required: "DHCP server IP is required when DHCP relay is on.",
  invalid: "Enter a valid IPv4 address, e.g. 10.0.0.2.",
  enabled: nodeMessages.dhcpEnabled,
  disabled: nodeMessages.dhcpDisabled,
} as const;

export const VRRP = {
  title: "Setup VRRP",
  label: "VRRP",
  address: { name: "virtual_ip", label: "Virtual IP", hint: "An IPv4 address, e.g. 10.0.0.1" },
  required: "Virtual IP is required when VRRP is on.",
  invalid: "Enter a valid IPv4 address, e.g. 10.0.0.1.",
  enabled: nodeMessages.vrrpEnabled,
  disabled: nodeMessages.vrrpDisabled,
} as const;
