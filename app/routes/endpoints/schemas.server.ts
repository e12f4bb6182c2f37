import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { endpointDeployments, endpointLimits } from "../../../platform/contract/endpoints.ts";
import { EditEndpointBody, EpIdBody, NodeGroupBody, ResizeBody, SetContactBody, SetDescriptionBody, SetNameBody } from "../../../platform/contract/endpoints.shapes.ts";
import { line, text } from "../../../platform/lib/fields.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { requiredText, subjectName, type SubjectFields } from "../services-shared/schemas.server.ts";
import { DELETE_PHRASE } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The Endpoints screen's form schemas (spec 1 §5), one per form, used by the route's action.
 * Server-only (zod stays out of the browser). The platform checks the addresses (CIDRs, IPs,
 * ASN ranges) again and its messages are shown beside the fields.
 */

const required = (message: string, max: number = endpointLimits.text) => requiredText(message, max);
const optional = (max: number = endpointLimits.text) => line(max).optional();
const asn = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .min(1, `${what} must be between 1 and 4294967295.`)
    .max(4294967295, `${what} must be between 1 and 4294967295.`)
    .optional();

export const CreateEndpointSchema = z
  .object({
    deployment: z.enum(endpointDeployments, { error: formMessages.chooseLocation }),
    ep_name: required("Endpoint name is required.", endpointLimits.name),
    app_service_id: required("Choose an app service."),
    ep_node_group_id: optional(),
    ep_node_id: optional(),
    region: optional(),
    consumer_principle: optional(),
    real_subnets: optional(endpointLimits.description),
    bgp_enabled: z.boolean().optional(),
    bgp_local_asn: asn("Local ASN"),
    bgp_peer_asn: asn("Peer ASN"),
    bgp_peer_ip: optional(),
  })
  // Every error at once (issue 27 item 16): also when a field already failed (`when`).
  .check(z.superRefine((v, ctx) => {
    const need = (value: unknown, path: string, message: string) => {
      if (value === undefined || value === "") ctx.addIssue({ code: "custom", path: [path], message, input: v });
    };
    if (v.deployment === "onprem" || v.deployment === "network") {
      need(v.ep_node_group_id, "ep_node_group_id", "Choose a node group.");
      need(v.ep_node_id, "ep_node_id", "Node is required.");
    }
    if (v.deployment === "aws") {
      need(v.region, "region", formMessages.regionRequired);
      need(v.consumer_principle, "consumer_principle", "Allowed principal is required.");
    }
    if (v.deployment === "azure") {
      need(v.region, "region", formMessages.regionRequired);
      need(v.consumer_principle, "consumer_principle", "Subscription id is required.");
    }
    if (v.deployment === "network") {
      need(v.real_subnets, "real_subnets", formMessages.realSubnetsRequired);
      if (v.bgp_enabled) {
        need(v.bgp_local_asn, "bgp_local_asn", formMessages.localAsnRequired);
        need(v.bgp_peer_asn, "bgp_peer_asn", formMessages.peerAsnRequired);
        need(v.bgp_peer_ip, "bgp_peer_ip", formMessages.peerIpRequired);
      }
    }
  }, { when: () => true }));

export type CreateEndpointValues = z.infer<typeof CreateEndpointSchema>;

/*
 * The dialogs' schemas below are their calls' request schemas (platform/contract/endpoints.shapes.ts,
 * issue 61 item 1), the console's words kept where the platform's differ (no full stop there).
 */

/** Create Node Group (the create dialog's side panel): the create form's draft rides along. */
export const NodeGroupSchema = requestForm(
  z.object({ ...NodeGroupBody.shape, ep_node_group_name: text(endpointLimits.name, { min: 1, minMessage: formMessages.nodeGroupNameRequired }), draft: z.string().max(20000).optional() }),
);

/** The dialogs shared with App Services (../services-shared). Description and contacts: '' clears; a `required` field would refuse it (a select's 'None'). */
export const sharedSchemas = {
  rename: requestForm(z.object({ ...SetNameBody.shape, ep_name: subjectName("Endpoint", endpointLimits.name) })),
  describe: requestForm(z.object({ ...SetDescriptionBody.shape, description: SetDescriptionBody.shape.description.default("") })),
  contacts: requestForm(
    z.object({ ...SetContactBody.shape, primary_contact_id: SetContactBody.shape.primary_contact_id.default(""), secondary_contact_id: SetContactBody.shape.secondary_contact_id.default("") }),
  ),
  resize: requestForm(z.object(ResizeBody.shape)),
};
export const subject: SubjectFields = { noun: "Endpoint", idField: "ep_id", nameField: "ep_name", schemas: sharedSchemas };

/**
 * Agent details: each list's items checked as the platform does (its words); the call takes them
 * comma-joined. An empty list clears it: not `required` (the default only drops that mark; a
 * rendered form always posts the field).
 */
export const AgentDetailsSchema = requestForm(
  z.object({ ...EditEndpointBody.shape, user_agent_dns_servers: EditEndpointBody.shape.user_agent_dns_servers.default([]), user_agent_cidrs: EditEndpointBody.shape.user_agent_cidrs.default([]) }),
);
export const EpIdSchema = requestForm(z.object(EpIdBody.shape));
/** Approve or Reject the selected endpoint (issue 27 item 15). */
export const DecisionSchema = requestForm(z.object({ ...EpIdBody.shape, decision: z.enum(["approve", "reject"]) }));
export const DeleteSchema = confirmPhraseSchema(DELETE_PHRASE, EpIdBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs). */
export const constraints = formConstraints({ create: CreateEndpointSchema, group: NodeGroupSchema, ...sharedSchemas, agent: AgentDetailsSchema });
