import { nodeMessages } from "../../../platform/contract/nodes.ts";

/*
 * The Endpoint Nodes screen's shapes and words (spec 2 §2 /endpoint-nodes, §3 Endpoint node, §4,
 * §5, §9). The form schemas are in schemas.server.ts (zod stays out of the browser).
 */
export type { EndpointNode, EndpointNodeDetail, EndpointNodeEndpoint } from "../../../platform/contract/nodes.ts";

export const ENDPOINT_NODE_TABS = [
  { id: "details", label: "Details" },
  { id: "endpoints", label: "Endpoints" },
  { id: "monitoring", label: "Monitoring" },
] as const;
export const ENDPOINT_NODE_TAB_IDS = ENDPOINT_NODE_TABS.map((t) => t.id);

/** Configure LAN Interface (spec 2 §4, §9: LAN {ip}/24). */
export const LAN = {
  title: "Configure LAN Interface",
  label: "LAN interface",
  address: { name: "primary_ipv4_address", label: "Primary IPv4 Address", hint: "An IPv4 address with its prefix, e.g. 192.168.1.1/24" },
  required: "An IPv4 address is required when the LAN interface is on.",
  invalid: "Enter an IPv4 address with its prefix, e.g. 192.168.1.1/24.",
  enabled: nodeMessages.lanEnabled,
  disabled: nodeMessages.lanDisabled,
} as const;
