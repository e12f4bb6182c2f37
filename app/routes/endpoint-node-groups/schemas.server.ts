import { z } from "zod";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { addressToggleSchema } from "./address-toggle.server.ts";
import { DHCP, VRRP, type EndpointNodeGroup } from "./model.ts";

/* The group dialogs' schemas (spec 2 §4, §5): each refuses the group's current value as unchanged. */

const groupId = { node_group_id: hiddenId("The node group is missing.") };

export const dhcpSchema = (g: EndpointNodeGroup) =>
  addressToggleSchema({ enabled: g.dhcp_relay_enabled, address: g.dhcp_relay_server_ip ?? "" }, DHCP.address.name, { kind: "ipv4", ...DHCP }, groupId);

export const vrrpSchema = (g: EndpointNodeGroup) =>
  addressToggleSchema({ enabled: g.vrrp_enabled, address: g.vrrp_virtual_ip ?? "" }, VRRP.address.name, { kind: "ipv4", ...VRRP }, groupId);

export const GroupIdSchema = z.object(groupId);
