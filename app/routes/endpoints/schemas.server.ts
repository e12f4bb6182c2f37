import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { endpointDeployments, endpointLimits } from "../../../platform/contract/endpoints.ts";
import { line } from "../../../platform/lib/fields.ts";
import { requiredText, subjectSchemas, type SubjectFields } from "../services-shared/schemas.server.ts";
import { DELETE_PHRASE } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The Endpoints screen's form schemas (spec 1 §5), one per form, used by the route's action.
 * Server-only (zod stays out of the browser). The platform checks the addresses (CIDRs, IPs,
 * ASN ranges) again and its messages are shown beside the fields.
 */

const epId = z.string({ error: "The endpoint is missing." });
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

export const NodeGroupSchema = z.object({
  ep_node_group_name: required(formMessages.nodeGroupNameRequired, endpointLimits.name),
  draft: z.string().max(20000).optional(),
});

/** The dialogs shared with App Services (../services-shared/schemas.server.ts). */
export const subject: SubjectFields = { noun: "Endpoint", idField: "ep_id", nameField: "ep_name", limits: endpointLimits };
export const sharedSchemas = subjectSchemas(subject);

export const AgentDetailsSchema = z.object({
  ep_id: epId,
  user_agent_dns_servers: optional(endpointLimits.description),
  user_agent_cidrs: optional(endpointLimits.description),
});
export const EpIdSchema = z.object({ ep_id: epId });
/** Approve or Reject the selected endpoint (issue 27 item 15). */
export const DecisionSchema = z.object({ ep_id: epId, decision: z.enum(["approve", "reject"]) });
export const DeleteSchema = confirmPhraseSchema(DELETE_PHRASE, { ep_id: epId });
