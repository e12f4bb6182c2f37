import { formConstraints } from "../../components/constraints.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { ConfigureDhcpBody, ConfigureVrrpBody, dhcpRule, vrrpRule } from "../../../platform/contract/nodes-forms.shapes.ts";
import { addressToggleConstraintSchema, addressToggleIntent, type ToggleRequest } from "./address-toggle.server.ts";
import { DHCP, VRRP } from "./model.ts";

/* The group dialogs' intents (spec 2 §4, §5): their calls' requests, each refusing the group's current value as unchanged. */

export const groupDetail = (request: Request, id: string) => apiGet(request, "get-endpoint-node-group-details", { ep_node_group_id: id });

const dhcpRequest: ToggleRequest = { shape: ConfigureDhcpBody.shape, rule: dhcpRule };
const vrrpRequest: ToggleRequest = { shape: ConfigureVrrpBody.shape, rule: vrrpRule };
const group = { idField: "node_group_id", read: groupDetail } as const;

export const dhcp = addressToggleIntent(DHCP, { ...group, call: "configure-dhcp-relay", request: dhcpRequest, current: (g) => ({ enabled: g.dhcp_relay_enabled, address: g.dhcp_relay_server_ip ?? "" }) });
export const vrrp = addressToggleIntent(VRRP, { ...group, call: "configure-vrrp", request: vrrpRequest, current: (g) => ({ enabled: g.vrrp_enabled, address: g.vrrp_virtual_ip ?? "" }) });

/** The dialogs' constraints (the loader's while one is open). */
export const constraints = formConstraints({ dhcp: addressToggleConstraintSchema(DHCP.address.name, dhcpRequest), vrrp: addressToggleConstraintSchema(VRRP.address.name, vrrpRequest) });
