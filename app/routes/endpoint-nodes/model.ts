import { nodeMessages } from "../../../platform/contract/nodes.ts";
import { addressToggle } from "../endpoint-node-groups/model.ts";

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

/** Configure LAN Interface (spec 2 §4, §9: LAN {ip}/24). */
export const LAN = addressToggle("lan", "Configure LAN Interface", "LAN interface", ["primary_ipv4_address", "Primary IPv4 Address", "192.168.1.1/24"], "ipv4-prefix", [nodeMessages.lanEnabled, nodeMessages.lanDisabled]);
