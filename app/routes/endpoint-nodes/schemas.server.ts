import { z } from "zod";
import { failureReply, submitForm } from "../../lib/action.server.ts";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { AddSecondaryIpsBody, ConfigureLanBody, lanRule } from "../../../platform/contract/nodes-forms.shapes.ts";
import { nodeMessages, secondaryIpConflicts } from "../../../platform/contract/nodes.ts";
import { addressToggleConstraintSchema, addressToggleIntent, type ToggleRequest } from "../endpoint-node-groups/address-toggle.server.ts";
import { nodeCalls } from "../service-nodes/node-calls.server.ts";
import { LAN, type EndpointNode } from "./model.ts";

/*
 * The Endpoint Nodes screen's own forms (spec 2 §4, §5): Add Secondary IPs (comma separated IPv4
 * addresses; the platform also refuses duplicates of what the node holds and its primary, naming
 * them) and Configure LAN Interface (the toggle-dialog rule, an IPv4 address with prefix: an
 * address toggle, ../endpoint-node-groups/address-toggle.server.ts).
 */

/**
 * Add Secondary IPs: add-endpoint-node-secondary-ips's request (its list checked, comma separated),
 * and, against the node as the dialog showed it, the call's refusal of the node's own addresses
 * (secondaryIpConflicts), said beside the field at once.
 */
export const secondaryIpsSchema = (node: Pick<EndpointNode, "primary_ip" | "secondary_ips"> | null) =>
  requestForm(
    z.object({
      ...AddSecondaryIpsBody.shape,
      secondary_ips: AddSecondaryIpsBody.shape.secondary_ips.superRefine((ips, ctx) => {
        for (const message of node ? secondaryIpConflicts(ips, { primary: node.primary_ip, secondary: node.secondary_ips }) : []) ctx.addIssue({ code: "custom", message });
      }),
    }),
  );

/** Configure LAN Interface: the toggle-dialog rule against the node's LAN interface now. */
const lanRequest: ToggleRequest = { shape: ConfigureLanBody.shape, rule: lanRule };
export const lan = addressToggleIntent(LAN, {
  idField: "node_id",
  request: lanRequest,
  read: (request, id) => nodeCalls.endpoint.detail(request, id),
  current: (n) => ({ enabled: n.lan_interface_enabled, address: n.lan_interface_ipaddress }),
  call: "configure-lan-interface",
});

/** Add Secondary IPs: checked against what the node holds now. */
export async function secondaryIps(request: Request, formData: FormData) {
  const current = await nodeCalls.endpoint.detail(request, String(formData.get("ep_node_id") ?? ""));
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: secondaryIpsSchema(current.data),
    call: "add-endpoint-node-secondary-ips",
    // The call takes the list as typed: comma separated.
    body: (v) => ({ ep_node_id: v.ep_node_id, secondary_ips: v.secondary_ips.join(", ") }),
    fields: ["secondary_ips"],
    toast: nodeMessages.secondaryIpsAdded,
  });
}

/** The screen's own forms' constraints (beside the node screens' shared ones). */
export const constraints = formConstraints({ "secondary-ips": secondaryIpsSchema(null), lan: addressToggleConstraintSchema(LAN.address.name, lanRequest) });
