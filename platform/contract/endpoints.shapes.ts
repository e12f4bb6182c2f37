import { z } from "@hono/zod-openapi";
import { regionsOf } from "../domain/regions.ts";
import { body, bool, idField, limits, line, maxMessage, multiline, plainText, requiredName, text } from "../lib/fields.ts";
import { asnField, cidrList, ipField, ipList } from "../lib/net-fields.ts";
import { approvalStatuses, createEndpointRequired, endpointDeployments, endpointLimits } from "./endpoints.ts";
import { endpointMessages } from "./messages.ts";
import { sizes } from "./app-services.ts";
import { isoTime, pageOf, serviceContactFields, txRxFields } from "./common.shapes.ts";

const strings = () => z.array(z.string());

/** Spec 1 §3 Endpoint, its stored fields (get-app-service-endpoints). */
export const Endpoint = z
  .object({
    ep_id: z.string().openapi({ example: "ep-5q2w8e1r4t6y" }),
    ep_name: z.string(),
    description: z.string(),
    account_id: z.string(),
    fqdn: z.string(),
    ip_addr: z.string(),
    created_at: isoTime(),
    admin_state: z.string(),
    admin_state_change_at: z.string(),
    op_state: z.string().openapi({ description: "up or down" }),
    op_state_change_at: z.string(),
    size: z.string().openapi({ description: `One of ${sizes.join(", ")}` }),
    hosting_id: z.string().nullable(),
    app_service_id: z.string(),
    region: z.string(),
    consumer_principle: z.string().openapi({ description: "aws: the allowed principal; azure: the subscription id" }),
    deployment: z.enum(endpointDeployments),
    approval_status: z.enum(approvalStatuses),
    ep_node_id: z.string().nullable(),
    ep_node_group_id: z.string().nullable(),
    network_mode_enabled: z.boolean(),
    address_translation_enabled: z.boolean(),
    bgp_enabled: z.boolean(),
    bgp_local_asn: z.number().nullable(),
    bgp_peer_asn: z.number().nullable(),
    bgp_local_ip: z.string(),
    bgp_peer_ip: z.string(),
    bgp_advertised_routes: strings(),
    real_subnets: strings(),
    virtual_subnets: strings(),
    proxying_enabled: z.boolean(),
    user_agent_dns_servers: strings(),
    user_agent_cidrs: strings(),
    ...serviceContactFields,
  })
  .openapi("Endpoint");
export type Endpoint = z.infer<typeof Endpoint>;

/** An endpoint as list-endpoint answers it: the stored fields and the names of what it links to. */
export const EndpointRow = Endpoint.extend({
  app_service_name: z.string().openapi({ description: "The app service's name ('' when it is gone)" }),
  ep_node_group_name: z.string().openapi({ description: "The node group's name ('' when none)" }),
}).openapi("EndpointRow");
export type EndpointRow = z.infer<typeof EndpointRow>;

/** A user agent linked to an endpoint (spec 1 §3 "User agent (shown on an endpoint)"); its state from the fleet. */
export const EndpointUserAgent = z
  .object({
    user_agent_id: z.string(),
    name: z.string(),
    email: z.string(),
    description: z.string(),
    admin_state: z.string(),
    op_state: z.string(),
    op_state_change_at: z.string(),
    last_auth_time: z.string(),
    last_auth_status: z.string(),
    created_at: z.string(),
  })
  .openapi("EndpointUserAgent");
export type EndpointUserAgent = z.infer<typeof EndpointUserAgent>;

/** get-endpoint-detail: the endpoint with the user agents linked to it. */
export const EndpointDetail = EndpointRow.extend({ user_agents: z.array(EndpointUserAgent) }).openapi("EndpointDetail");
export type EndpointDetail = z.infer<typeof EndpointDetail>;

/** Spec 2 §3 Endpoint node group. */
export const EndpointNodeGroup = z
  .object({
    ep_node_group_id: z.string(),
    ep_node_group_name: z.string(),
    created_at: z.string(),
    dhcp_relay_enabled: z.boolean(),
    dhcp_relay_server_ip: z.string().nullable(),
    vrrp_enabled: z.boolean(),
    vrrp_virtual_ip: z.string().nullable(),
  })
  .openapi("EndpointNodeGroup");
export type EndpointNodeGroup = z.infer<typeof EndpointNodeGroup>;

/** Spec 1 §3 Flow/session of an endpoint (get-endpoint-sessions). */
export const EndpointSession = z
  .object({
    src_address: z.string(),
    dst_address: z.string(),
    protocol: z.string(),
    ports: z.string(),
    ...txRxFields,
    established: z.string(),
  })
  .openapi("EndpointSession");
export type EndpointSession = z.infer<typeof EndpointSession>;

/** Spec 1 §3 Netflow row (get-ep-sessions). */
export const NetflowRow = z
  .object({
    start_time: z.string(),
    end_time: z.string(),
    src_addr: z.string(),
    dst_addr: z.string(),
    src_port: z.number(),
    dst_port: z.number(),
    proto: z.string(),
    app_name: z.string(),
    ...txRxFields,
  })
  .openapi("EndpointNetflow");
export type NetflowRow = z.infer<typeof NetflowRow>;

export const EndpointPage = pageOf(EndpointRow, "EndpointPage");
export const EndpointCreated = z.object({ ep_id: z.string(), detail: z.string() }).openapi("EndpointCreated");
export const EndpointResized = z.object({ detail: z.string(), size: z.enum(sizes) }).openapi("EndpointResized");
export const EndpointNodeGroupCreated = z.object({ detail: z.string(), ep_node_group_id: z.string() }).openapi("EndpointNodeGroupCreated");

// The calls' requests: the platform validates with them; the console's Endpoints forms are these
// schemas where converted (app/routes/endpoints/schemas.server.ts, ../services-shared).

export const epId = () => idField("Endpoint id", "ep-2b6n0v4c8x1z");

export const EpIdBody = body({ ep_id: epId() }).strict().openapi("EndpointId");

const optionalId = (what: string) => idField(what).optional();

/** create-endpoint's fields (spec 1 §7); what each location requires is createEndpointRules'. */
export const createEndpointFields = {
  ep_name: text(endpointLimits.name, { min: 1, minMessage: endpointMessages.nameRequired }),
  app_service_id: idField("App Service id"),
  deployment: z.enum(endpointDeployments, {
    error: (iss) => (iss.input === undefined ? "Field required" : `Deployment must be one of: ${endpointDeployments.join(", ")}`),
  }),
  description: multiline(limits.description).optional(),
  ep_node_id: optionalId("Node id"),
  ep_node_group_id: optionalId("Node group id"),
  region: line(endpointLimits.text).optional(),
  consumer_principle: line(endpointLimits.text).optional(),
  real_subnets: cidrList("Real subnets").optional(),
  bgp_enabled: bool().optional(),
  bgp_local_asn: asnField("Local ASN").optional(),
  bgp_peer_asn: asnField("Peer ASN").optional(),
  bgp_peer_ip: ipField("Peer IP").optional(),
};
export type CreateEndpointValues = z.output<z.ZodObject<typeof createEndpointFields>>;

/**
 * create-endpoint's rules by location (spec 1 §5): the platform's body checks them and so does
 * the console's create form (on the body it would send), each missing field at once.
 */
export function createEndpointRules(v: CreateEndpointValues, ctx: z.RefinementCtx): void {
  // The console runs these also when a field failed (every error at once): a broken location has none.
  if (!endpointDeployments.includes(v.deployment)) return;
  for (const [path, message] of createEndpointRequired(v.deployment, v)) {
    const value: unknown = v[path as keyof CreateEndpointValues];
    if (value === undefined || value === "" || value === null || (Array.isArray(value) && value.length === 0)) ctx.addIssue({ code: "custom", path: [path], message });
  }
  // A region of the location's list (list-aws-regions, list-azure-regions), as App Services checks (issue 27 item 14).
  if ((v.deployment === "aws" || v.deployment === "azure") && v.region && !regionsOf[v.deployment].some((r) => r.region === v.region)) {
    ctx.addIssue({ code: "custom", path: ["region"], message: `Choose a region of list-${v.deployment}-regions` });
  }
}

export const CreateEndpointBody = body(createEndpointFields)
  .strict()
  .superRefine(createEndpointRules)
  .openapi("CreateEndpoint");

export const SetNameBody = body({ ep_id: epId(), ep_name: requiredName("Endpoint name", endpointLimits.name) }).strict().openapi("SetEndpointName");
export const SetDescriptionBody = body({ ep_id: epId(), description: multiline(limits.description) }).strict().openapi("SetEndpointDescription");

export const EditEndpointBody = body({
  ep_id: epId(),
  user_agent_dns_servers: ipList("DNS servers"),
  user_agent_cidrs: cidrList("CIDRs"),
})
  .strict()
  .openapi("EditEndpoint", { description: "Agent endpoints only: comma-separated DNS server addresses and CIDRs, each checked" });

export const ResizeBody = body({
  ep_id: epId(),
  // Spec 1: "Resize direction is up or down, default up", as resize-app-service (issue 63 item 33).
  direction: z.enum(["up", "down"], { error: "Direction must be up or down" }).default("up"),
})
  .strict()
  .openapi("ResizeEndpoint");

export const ProxyingBody = body({
  ep_id: epId(),
  enabled: bool(),
})
  .strict()
  .openapi("ConfigureEndpointProxying");

const contactRef = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a valid string") })
    .max(limits.id, maxMessage(limits.id))
    .apply(plainText)
    .openapi({ description: `${what} contact id, or '' for none` });

export const SetContactBody = body({ ep_id: epId(), primary_contact_id: contactRef("Business"), secondary_contact_id: contactRef("Technical") })
  .strict()
  .openapi("SetEndpointContact");

export const NodeGroupBody = body({
  ep_node_group_name: requiredName("Node group name", endpointLimits.name),
})
  .strict()
  .openapi("CreateEndpointNodeGroup");
