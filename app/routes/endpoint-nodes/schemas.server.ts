import { z } from "zod";
import { failureReply, submitForm } from "../../lib/action.server.ts";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { nodeMessages } from "../../../platform/contract/nodes.ts";
import { isIpv4, splitList } from "../../../platform/contract/net.ts";
import { addressToggleIntent } from "../endpoint-node-groups/address-toggle.server.ts";
import { nodeCalls } from "../service-nodes/node-calls.server.ts";
import { LAN, type EndpointNode } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The Endpoint Nodes screen's own forms (spec 2 §4, §5): Add Secondary IPs (comma separated IPv4
 * addresses; the platform also refuses duplicates of what the node holds and its primary, naming
 * them) and Configure LAN Interface (the toggle-dialog rule, an IPv4 address with prefix: an
 * address toggle, ../endpoint-node-groups/address-toggle.server.ts).
 */

const epNodeId = { ep_node_id: hiddenId(formMessages.nodeMissing) };

export const secondaryIpsSchema = (node: Pick<EndpointNode, "primary_ip" | "secondary_ips"> | null) =>
  z.object({
    ...epNodeId,
    secondary_ips: z
      .string({ error: "Enter at least one IP address." })
      .max(2000, "Must be at most 2000 characters.")
      .transform((s, ctx) => {
        const typed = s.split(",").map((x) => x.trim()).filter(Boolean);
        const ips = splitList(s);
        const bad = ips.filter((ip) => !isIpv4(ip));
        const repeated = [...new Set(typed.filter((ip, i) => typed.indexOf(ip) !== i))];
        const primary = node && ips.includes(node.primary_ip) ? [node.primary_ip] : [];
        const held = node ? ips.filter((ip) => node.secondary_ips.includes(ip)) : [];
        if (!ips.length) ctx.addIssue({ code: "custom", message: "Enter at least one IP address." });
        if (bad.length) ctx.addIssue({ code: "custom", message: `Not valid IPv4 addresses: ${bad.join(", ")}` });
        if (repeated.length) ctx.addIssue({ code: "custom", message: `Entered more than once: ${repeated.join(", ")}` });
        if (primary.length) ctx.addIssue({ code: "custom", message: `The node's primary IP cannot be a secondary IP: ${primary.join(", ")}` });
        if (held.length) ctx.addIssue({ code: "custom", message: `Already secondary IPs of the node: ${held.join(", ")}` });
        return ips;
      }),
  });

/** Configure LAN Interface: the toggle-dialog rule against the node's LAN interface now. */
export const lan = addressToggleIntent(LAN, {
  idField: "node_id",
  missing: formMessages.nodeMissing,
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
    body: (v) => ({ ep_node_id: v.ep_node_id, secondary_ips: v.secondary_ips.join(", ") }),
    fields: ["secondary_ips"],
    toast: nodeMessages.secondaryIpsAdded,
  });
}
