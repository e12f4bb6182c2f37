import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { isCidr, isIpv4 } from "../../../platform/contract/net.ts";
import { nodeLimits, nodeMessages } from "../../../platform/contract/nodes.ts";
import { deploymentMessages } from "../../../platform/contract/messages.ts";
import { optionalText } from "../../lib/form-fields.server.ts";
import type { NodeKindInfo } from "./node-kind.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The node screens' form schemas (spec 2 §5), one per form, for either node kind. Server-only (zod
 * stays out of the browser); the platform checks again and its messages go beside the fields.
 */

const nodeId = { node_id: hiddenId(formMessages.nodeMissing) };

/** Step 1: a name, and either a new group's name or an existing group's id. */
export function createNodeSchema(info: NodeKindInfo) {
  return z
    .object({
      [info.nameField]: requiredText("Node name is required.", nodeLimits.name),
      group_mode: z.enum(["existing", "new"]).default("existing"),
      [info.groupIdField]: optionalText(nodeLimits.name),
      [info.groupNameField]: optionalText(nodeLimits.name),
    })
    .superRefine((v, ctx) => {
      const value = v as Record<string, unknown>;
      if (v.group_mode === "existing" && !value[info.groupIdField]) ctx.addIssue({ code: "custom", path: [info.groupIdField], message: deploymentMessages.nodeGroupRequired });
      if (v.group_mode === "new" && !value[info.groupNameField]) ctx.addIssue({ code: "custom", path: [info.groupNameField], message: deploymentMessages.nodeGroupNameRequired });
    });
}

export const NodeIdSchema = z.object(nodeId);

export const HardwareSchema = z.object({
  ...nodeId,
  shipping_addr: z.string({ error: nodeMessages.shippingAddressRequired }).trim().min(1, nodeMessages.shippingAddressRequired).max(nodeLimits.shippingAddr, `Must be at most ${nodeLimits.shippingAddr} characters.`),
});

const PEER_PREFIX = { min: 1, max: 32 } as const;
const PEER_PREFIX_REQUIRED = nodeMessages.peerPrefixRequired;
const PEER_PREFIX_RANGE = `Peer prefix must be a whole number from ${PEER_PREFIX.min} to ${PEER_PREFIX.max}.`;

export const HostedSchema = z.object({
  ...nodeId,
  hosted_region: requiredText("Choose a region.", 50),
  hosted_vpc_cidr: z
    .string({ error: nodeMessages.vpcCidrRequired })
    .trim()
    .refine((s) => isCidr(s) && isIpv4(s.split("/")[0] ?? ""), "Enter an IPv4 CIDR, e.g. 10.100.0.0/24."),
  hosted_peer_ip: z.string({ error: nodeMessages.peerIpRequired }).trim().refine(isIpv4, "Enter a valid IPv4 address, e.g. 10.100.0.10."),
  // The platform's range, 1 to 32 (issue 63 item 19: the form allowed 0, and an empty field was
  // coerced to it); a value that is not a number says so rather than "required".
  hosted_peer_prefix: z
    .string({ error: PEER_PREFIX_REQUIRED })
    .trim()
    .min(1, PEER_PREFIX_REQUIRED)
    .refine((s) => /^\d{1,2}$/.test(s) && Number(s) >= PEER_PREFIX.min && Number(s) <= PEER_PREFIX.max, PEER_PREFIX_RANGE),
});

export const removeNodeSchema = (info: NodeKindInfo) => confirmPhraseSchema(info.deletePhrase, { ...nodeId, group_id: z.string().optional() });
