import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { toggleSchema } from "../../components/toggle.server.ts";
import { endpointLimits } from "../../../platform/contract/endpoints.ts";
import { createEndpointFields, createEndpointRules, EditEndpointBody, EpIdBody, NodeGroupBody, ProxyingBody, ResizeBody, SetContactBody, SetDescriptionBody, SetNameBody } from "../../../platform/contract/endpoints.shapes.ts";
import { limits, text } from "../../../platform/lib/fields.ts";
import { blankAsMissing, requestForm } from "../../lib/form-fields.server.ts";
import type { CallBody } from "../../../platform/contract/calls.ts";
import { subjectName, type SubjectFields } from "../services-shared/schemas.server.ts";
import { DELETE_PHRASE } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The Endpoints screen's form schemas (spec 1 §5), one per form, used by the route's action.
 * Server-only (zod stays out of the browser). The platform checks the addresses (CIDRs, IPs,
 * ASN ranges) again and its messages are shown beside the fields.
 */

const f = createEndpointFields;
// The form's fields: the request's but the description, which Create does not ask for; a blank
// one missing; the app service keeps the console's 'Choose an app service.' (a select).
const { description: _description, ...createFields } = f;
const CreateEndpointFields = z.object({
  ...createFields,
  app_service_id: text(limits.id, { min: 1, minMessage: "Choose an app service." }),
  ep_node_id: blankAsMissing(f.ep_node_id),
  ep_node_group_id: blankAsMissing(f.ep_node_group_id),
  bgp_local_asn: blankAsMissing(f.bgp_local_asn),
  bgp_peer_asn: blankAsMissing(f.bgp_peer_asn),
  bgp_peer_ip: blankAsMissing(f.bgp_peer_ip),
});

/** The body create-endpoint gets from the form: the location's fields only, blank ones left out, the subnets comma-joined as the call takes them. */
export function createEndpointBody(v: z.output<typeof CreateEndpointFields>): CallBody<"create-endpoint"> {
  const t = (s: string | undefined) => (s ? s : undefined);
  const node = v.deployment === "onprem" || v.deployment === "network" ? { ep_node_group_id: t(v.ep_node_group_id), ep_node_id: t(v.ep_node_id) } : {};
  const cloud = v.deployment === "aws" || v.deployment === "azure" ? { region: t(v.region), consumer_principle: t(v.consumer_principle) } : {};
  const bgp = v.bgp_enabled ? { bgp_local_asn: v.bgp_local_asn, bgp_peer_asn: v.bgp_peer_asn, bgp_peer_ip: t(v.bgp_peer_ip) } : {};
  const network = v.deployment === "network" ? { real_subnets: (v.real_subnets ?? []).join(", "), bgp_enabled: Boolean(v.bgp_enabled), ...bgp } : {};
  return { ep_name: v.ep_name, app_service_id: v.app_service_id, deployment: v.deployment, ...node, ...cloud, ...network };
}

/**
 * Create Endpoint (one form for every location): create-endpoint's fields and rules
 * (platform/contract/endpoints.shapes.ts). Every error at once (issue 27 item 16): the rules run
 * also when a field already failed (`when`), on the body the form would send.
 */
export const CreateEndpointSchema = requestForm(
  CreateEndpointFields.check(z.superRefine((v, ctx) => createEndpointRules({ ...createEndpointBody(v), real_subnets: v.real_subnets }, ctx), { when: () => true })),
);

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

/** Advanced Visibility: configure-endpoint-proxying's request, its switch a checkbox, `current` (the platform's value) refused. */
export const visibilitySchema = (current: boolean) => toggleSchema(current, "enabled", ProxyingBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs). */
export const constraints = formConstraints({ create: CreateEndpointSchema, group: NodeGroupSchema, ...sharedSchemas, agent: AgentDetailsSchema, visibility: visibilitySchema(false) });
