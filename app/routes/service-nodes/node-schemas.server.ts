import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { blankAsMissing, hiddenId, requestForm } from "../../lib/form-fields.server.ts";
import { formFactorFields, formFactorRules, nodeGroupId, nodeGroupName, nodeGroupRule, nodeName, VpnBody } from "../../../platform/contract/nodes-forms.shapes.ts";
import type { NodeKindInfo } from "./node-kind.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The node screens' form schemas (spec 2 §5), one per form, for either node kind. Server-only (zod
 * stays out of the browser); the platform checks again and its messages go beside the fields.
 */

const nodeId = { node_id: hiddenId(formMessages.nodeMissing) };

/**
 * Step 1: create-*-node's request (its name, its group's name or id, the same fields for either
 * kind, named by the kind) and its rule; the form says new or existing group by a radio
 * (`group_mode`) where the call takes new_*_node_group. The unchosen group field is left out.
 */
export function createNodeSchema(info: NodeKindInfo) {
  const rule = nodeGroupRule({ name: info.groupNameField, id: info.groupIdField });
  return requestForm(
    z
      .object({
        [info.nameField]: nodeName(),
        group_mode: z.enum(["existing", "new"]).default("existing"),
        [info.groupIdField]: blankAsMissing(nodeGroupId().optional()),
        [info.groupNameField]: blankAsMissing(nodeGroupName().optional()),
      })
      .superRefine((v, ctx) => rule(v.group_mode === "new", v, ctx)),
  );
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
