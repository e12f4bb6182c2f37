import { z } from "zod";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { isIpv4, splitList } from "../../../platform/contract/net.ts";
import { addressToggleSchema } from "../endpoint-node-groups/address-toggle.server.ts";
import { LAN, type EndpointNode } from "./model.ts";

/*
 * The Endpoint Nodes screen's own forms (spec 2 §4, §5): Add Secondary IPs (comma separated IPv4
 * addresses; the platform also refuses duplicates of what the node holds and its primary, naming
 * them) and Configure LAN Interface (the toggle-dialog rule, an IPv4 address with prefix).
 */

const epNodeId = { ep_node_id: hiddenId("The node is missing.") };

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

export const lanSchema = (node: EndpointNode) =>
  addressToggleSchema({ enabled: node.lan_interface_enabled, address: node.lan_interface_ipaddress }, LAN.address.name, { kind: "ipv4-prefix", ...LAN }, { node_id: hiddenId("The node is missing.") });
