import { apiGet } from "../../lib/api.server.ts";
import { addressToggleIntent } from "./address-toggle.server.ts";
import { DHCP, VRRP } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/* The group dialogs' intents (spec 2 §4, §5): each refuses the group's current value as unchanged. */

export const groupDetail = (request: Request, id: string) => apiGet(request, "get-endpoint-node-group-details", { ep_node_group_id: id });

const group = { idField: "node_group_id", missing: formMessages.nodeGroupMissing, read: groupDetail } as const;

export const dhcp = addressToggleIntent(DHCP, { ...group, call: "configure-dhcp-relay", current: (g) => ({ enabled: g.dhcp_relay_enabled, address: g.dhcp_relay_server_ip ?? "" }) });
export const vrrp = addressToggleIntent(VRRP, { ...group, call: "configure-vrrp", current: (g) => ({ enabled: g.vrrp_enabled, address: g.vrrp_virtual_ip ?? "" }) });
