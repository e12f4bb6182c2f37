import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { blankAsMissing, hiddenId, requestForm, requiredText } from "../../lib/form-fields.server.ts";
import { formFactorFields, formFactorRules, VpnBody } from "../../../platform/contract/nodes-forms.shapes.ts";
import { nodeLimits } from "../../../platform/contract/nodes.ts";
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

/*
 * The form-factor tabs are their calls' requests (platform/contract/nodes-forms.shapes.ts): each
 * posts its form factor (a hidden input) with the fields it requires (formFactorRequired), each a
 * required input here (the call's fields are optional, required by form factor in its rule).
 */

/** Hardware Device: set-*-form-factor's request with hw and its shipping address. */
export const HardwareSchema = requestForm(
  z.object({ node_id: formFactorFields.node_id, form_factor: z.literal("hw"), shipping_addr: formFactorFields.shipping_addr.unwrap() }).superRefine(formFactorRules),
);

/**
 * Hosted Node: generate-hsn-vpn-config's request (its four hosted fields required), also set-*-
 * form-factor's. A blank peer prefix is one left out ('Peer prefix is required.'), not a NaN.
 */
export const HostedSchema = requestForm(z.object({ ...VpnBody.shape, hosted_peer_prefix: blankAsMissing(VpnBody.shape.hosted_peer_prefix) }));

export const removeNodeSchema = (info: NodeKindInfo) => confirmPhraseSchema(info.deletePhrase, { ...nodeId, group_id: z.string().optional() });

/** The node dialogs' constraints (the loader's `constraints` while one is open). */
export const nodeFormConstraints = (info: NodeKindInfo) => formConstraints({ create: createNodeSchema(info), hw: HardwareSchema, hosted: HostedSchema });
