import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { approvalStatuses, endpointDeployments, endpointLimits, endpointSortable, sizes, type EndpointRow as Endpoint, type EndpointNodeGroup, type EndpointUserAgent } from "../contract/endpoints.ts";
import {
  configureProxying,
  contactsOfEndpoint,
  createEndpoint,
  createEndpointNodeGroup,
  editAgentDetails,
  endpointDetail,
  listEndpointNodeGroups,
  endpointSessions,
  endpointNetflows,
  exportEndpoints,
  listEndpoints,
  measureEndpointLatency,
  queryEndpoints,
  removeEndpoint,
  resetEndpoint,
  resizeEndpoint,
  setEndpointContact,
  setEndpointDescription,
  setEndpointName,
} from "../domain/endpoints.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { body, idField, limits, line, maxMessage, multiline, requiredName } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, ndjsonResponse, pageSchema, wantsPage } from "../lib/list.ts";
import { asnField, commaList, ipField, isCidr, isIpAddress } from "../lib/net-fields.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";
import { MAX_SPAN } from "../fleet/index.ts";

/*
 * Endpoints (spec 1 §2 Endpoints screen, §3 Endpoint, §4, §5, §7 Endpoints, §8) and the endpoint
 * node groups the create dialog chooses from or creates (spec 2 §3). Traffic-derived answers
 * (sessions, netflows, latency) come from the fleet (docs/fleet.md) for the endpoints that exist.
 */

// ---------------------------------------------------------------------------------------------
// Schemas

const epId = () => idField("Endpoint id");

const UserAgentSchema = z
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
  .openapi("EndpointUserAgent") satisfies z.ZodType<EndpointUserAgent>;

const strings = () => z.array(z.string());

const EndpointSchema = z
  .object({
    ep_id: z.string().openapi({ example: "ep-5q2w8e1r4t6y" }),
    ep_name: z.string(),
    description: z.string(),
    account_id: z.string(),
    fqdn: z.string(),
    ip_addr: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    admin_state: z.string(),
    admin_state_change_at: z.string(),
    op_state: z.string(),
    op_state_change_at: z.string(),
    size: z.string().openapi({ description: `One of ${sizes.join(", ")}` }),
    hosting_id: z.string().nullable(),
    app_service_id: z.string(),
    app_service_name: z.string(),
    region: z.string(),
    consumer_principle: z.string().openapi({ description: "aws: the allowed principal; azure: the subscription id" }),
    deployment: z.enum(endpointDeployments),
    approval_status: z.enum(approvalStatuses),
    ep_node_id: z.string().nullable(),
    ep_node_group_id: z.string().nullable(),
    ep_node_group_name: z.string(),
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
    primary_contact_id: z.string().nullable(),
    secondary_contact_id: z.string().nullable(),
    primary_contact: z.string().nullable(),
    secondary_contact: z.string().nullable(),
  })
  .openapi("Endpoint") satisfies z.ZodType<Endpoint>;

const EndpointDetailSchema = EndpointSchema.extend({ user_agents: z.array(UserAgentSchema) }).openapi("EndpointDetail");

const NodeGroupSchema = z
  .object({
    ep_node_group_id: z.string(),
    ep_node_group_name: z.string(),
    created_at: z.string(),
    dhcp_relay_enabled: z.boolean(),
    dhcp_relay_server_ip: z.string().nullable(),
    vrrp_enabled: z.boolean(),
    vrrp_virtual_ip: z.string().nullable(),
  })
  .openapi("EndpointNodeGroup") satisfies z.ZodType<EndpointNodeGroup>;

const EpIdQuery = z.object({ ep_id: epId() });
const EpIdBody = body({ ep_id: epId() }).strict().openapi("EndpointId");

const EndpointQuery = z.object({ ...listQuery(endpointSortable), ids: idsFilter });

const optionalId = (what: string) => idField(what).optional();

const CreateEndpointBody = body({
  ep_name: requiredName("Endpoint name", endpointLimits.name),
  app_service_id: idField("App service id"),
  deployment: z.enum(endpointDeployments, {
    error: (iss) => (iss.input === undefined ? "Field required" : `Deployment must be one of: ${endpointDeployments.join(", ")}`),
  }),
  description: multiline(limits.description).optional(),
  ep_node_id: optionalId("Node id"),
  ep_node_group_id: optionalId("Node group id"),
  region: line(endpointLimits.text).optional(),
  consumer_principle: line(endpointLimits.text).optional(),
  real_subnets: commaList("Real subnets", "CIDR", isCidr, false).optional(),
  bgp_enabled: z.boolean({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a valid boolean") }).optional(),
  bgp_local_asn: asnField("Local ASN").optional(),
  bgp_peer_asn: asnField("Peer ASN").optional(),
  bgp_peer_ip: ipField("Peer IP").optional(),
})
  .strict()
  .superRefine((v, ctx) => {
    // Spec 1 §5, by deployment.
    const need = (ok: unknown, path: string, message: string) => {
      if (ok === undefined || ok === "" || ok === null || (Array.isArray(ok) && ok.length === 0)) ctx.addIssue({ code: "custom", path: [path], message });
    };
    switch (v.deployment) {
      case "onprem":
        need(v.ep_node_group_id, "ep_node_group_id", "Node group is required");
        need(v.ep_node_id, "ep_node_id", "Node is required");
        break;
      case "aws":
        need(v.region, "region", "Region is required");
        need(v.consumer_principle, "consumer_principle", "Allowed principal is required");
        break;
      case "azure":
        need(v.region, "region", "Region is required");
        need(v.consumer_principle, "consumer_principle", "Subscription id is required");
        break;
      case "network":
        need(v.real_subnets, "real_subnets", "Real subnets is required");
        need(v.ep_node_group_id, "ep_node_group_id", "Node group is required");
        need(v.ep_node_id, "ep_node_id", "Node is required");
        if (v.bgp_enabled) {
          need(v.bgp_local_asn, "bgp_local_asn", "Local ASN is required when BGP is on");
          need(v.bgp_peer_asn, "bgp_peer_asn", "Peer ASN is required when BGP is on");
          need(v.bgp_peer_ip, "bgp_peer_ip", "Peer IP is required when BGP is on");
        }
        break;
      case "agent":
        break;
    }
  })
  .openapi("CreateEndpoint");

const SetNameBody = body({ ep_id: epId(), ep_name: requiredName("Endpoint name", endpointLimits.name) }).strict().openapi("SetEndpointName");
const SetDescriptionBody = body({ ep_id: epId(), description: multiline(limits.description) }).strict().openapi("SetEndpointDescription");

const EditEndpointBody = body({
  ep_id: epId(),
  user_agent_dns_servers: commaList("DNS servers", "IP address", isIpAddress, false),
  user_agent_cidrs: commaList("CIDRs", "CIDR", isCidr, false),
})
  .strict()
  .openapi("EditEndpoint", { description: "Agent endpoints only: comma-separated DNS server addresses and CIDRs, each checked" });

const ResizeBody = body({
  ep_id: epId(),
  direction: z.enum(["up", "down"], { error: (iss) => (iss.input === undefined ? "Field required" : "Direction must be up or down") }),
})
  .strict()
  .openapi("ResizeEndpoint");

const ProxyingBody = body({
  ep_id: epId(),
  enabled: z.boolean({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a valid boolean") }),
})
  .strict()
  .openapi("ConfigureEndpointProxying");

const contactRef = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a valid string") })
    .max(limits.id, maxMessage(limits.id))
    .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), "Contains characters that are not allowed")
    .openapi({ description: `${what} contact id, or '' for none` });

const SetContactBody = body({ ep_id: epId(), primary_contact_id: contactRef("Business"), secondary_contact_id: contactRef("Technical") })
  .strict()
  .openapi("SetEndpointContact");

const isoTime = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a valid string") })
    .max(40, maxMessage(40))
    .refine((s) => !Number.isNaN(Date.parse(s)), `${what} must be an ISO 8601 date-time`)
    .openapi({ format: "date-time" });

const NetflowQuery = z
  .object({ ep_id: epId(), start_time: isoTime("Start time"), end_time: isoTime("End time") })
  .superRefine((v, ctx) => {
    const start = Date.parse(v.start_time);
    const end = Date.parse(v.end_time);
    if (end <= start) ctx.addIssue({ code: "custom", path: ["end_time"], message: "End time must be after the start time" });
    else if (end - start > MAX_SPAN) ctx.addIssue({ code: "custom", path: ["end_time"], message: "The range may span at most 400 days" });
  });

const NodeGroupBody = body({
  ep_node_group_name: requiredName("Node group name", endpointLimits.name),
})
  .strict()
  .openapi("CreateEndpointNodeGroup");

const NetflowRowSchema = z
  .object({
    start_time: z.string(),
    end_time: z.string(),
    src_addr: z.string(),
    dst_addr: z.string(),
    src_port: z.number(),
    dst_port: z.number(),
    proto: z.string(),
    app_name: z.string(),
    tx_bytes: z.number(),
    rx_bytes: z.number(),
  })
  .openapi("EndpointNetflow");

const SessionSchema = z
  .object({
    src_address: z.string(),
    dst_address: z.string(),
    protocol: z.string(),
    ports: z.string(),
    tx_bytes: z.number(),
    rx_bytes: z.number(),
    established: z.string(),
  })
  .openapi("EndpointSession");

const ContactSchema = z.object({
  contact_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  company_name: z.string(),
  contact_type: z.string().openapi({ description: "business (the primary contact) or technical (the secondary)" }),
  entity_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["Endpoints"];

const read = (path: string, summary: string, description: string, query: z.ZodType, response: z.ZodType) =>
  createRoute({ method: "get", path, tags, summary, description, security: bearer, request: { query: query as never }, responses: { ...ok(response), ...errors(401, 404, 422) } });

const write = (path: string, summary: string, description: string, schema: z.ZodType, response: z.ZodType = DetailSchema) =>
  createRoute({ method: "post", path, tags, summary, description, security: bearer, middleware: [writerOnly], request: jsonBody(schema), responses: { ...ok(response), ...writeResponses } });

const listRoute = createRoute({
  method: "get",
  path: "/list-endpoint",
  tags,
  summary: "The caller's endpoints",
  description:
    "Without list parameters: every endpoint, newest first (the spec's array). With any of q, sort, page, size, ids: one page `{items, total}`, searched, sorted and paged in SQL.",
  security: bearer,
  request: { query: EndpointQuery },
  responses: { ...ok(z.union([z.array(EndpointSchema), pageSchema(EndpointSchema, "EndpointPage")])), ...errors(401, 422) },
});

const exportRoute = createRoute({
  method: "get",
  path: "/export-endpoints",
  tags,
  summary: "Every endpoint the search selects, streamed",
  description: "The rows of list-endpoint with the same q and sort, all of them, as NDJSON (one Endpoint per line).",
  security: bearer,
  request: { query: z.object(exportQuery(endpointSortable)) },
  responses: { ...ndjsonOk(EndpointSchema, "One Endpoint (JSON) per line"), ...errors(401, 422) },
});

const detailRoute = read("/get-endpoint-detail", "One endpoint, with its user agents", "Unknown id, or another account's: 404 'Endpoint not found'.", EpIdQuery, EndpointDetailSchema);

const createRouteDef = write(
  "/create-endpoint",
  "Create an endpoint of an app service",
  "By deployment (spec 1 §5): agent: name and app service; onprem: plus node and node group; aws: region and allowed principal (consumer_principle); azure: region and subscription id (consumer_principle); network: real subnets, node group and node, and with bgp_enabled the local ASN, peer ASN (numbers) and peer IP. Answers 'Endpoint created.' and ep_id.",
  CreateEndpointBody,
  z.object({ ep_id: z.string(), detail: z.string() }).openapi("EndpointCreated"),
);

const removeRoute = write("/remove-endpoint", "Remove an endpoint", "Answers 'Endpoint removed.'.", EpIdBody);
const resetRoute = write("/reset-endpoint", "Reset an endpoint", "Restarts the endpoint's data path: its op state is up again from now. Answers 'Endpoint reset.'.", EpIdBody);
const editRoute = write("/edit-endpoint", "Edit an agent endpoint's DNS servers and CIDRs", "Agent endpoints only (400 otherwise). Answers 'Endpoint updated.'.", EditEndpointBody);
const nameRoute = write("/set-endpoint-name", "Rename an endpoint", "Answers 'Endpoint name updated.'.", SetNameBody);
const descriptionRoute = write("/set-endpoint-description", "Set an endpoint's description", "Answers 'Endpoint description updated.'.", SetDescriptionBody);
const resizeRoute = write(
  "/resize-endpoint-throughput",
  "Resize an endpoint one step up or down",
  `Sizes: ${sizes.join(", ")}. Past either end, or an onprem endpoint: 400. Answers 'Resized Endpoint successfully.' and the new size.`,
  ResizeBody,
  z.object({ detail: z.string(), size: z.enum(sizes) }).openapi("EndpointResized"),
);
const proxyingRoute = write("/configure-endpoint-proxying", "Turn advanced visibility (proxying) on or off", "Answers 'Configured visibility successfully.'.", ProxyingBody);
const contactRoute = write(
  "/set-endpoint-contact",
  "Set the business (primary) and technical (secondary) contact",
  "Contact ids of the caller's contacts, or '' for none. Answers 'Endpoint contacts updated.'.",
  SetContactBody,
);
const contactByEpRoute = createRoute({
  method: "get",
  path: "/get-contact-by-ep-id",
  tags: ["Contacts", "Endpoints"],
  summary: "The contacts of an endpoint",
  description: "The primary (contact_type business) and secondary (technical) contact, those that are set.",
  security: bearer,
  request: { query: EpIdQuery },
  responses: { ...ok(z.array(ContactSchema)), ...errors(401, 404, 422) },
});
// A measurement changes nothing: readonly users may run it (no writerOnly).
const latencyRoute = createRoute({
  method: "post",
  path: "/measure-endpoint-latency",
  tags,
  summary: "Measure the endpoint's latency",
  description: "Ten probes from the endpoint's PoP; the result as key/value pairs. Agent endpoints: 400. Readonly users may measure.",
  security: bearer,
  request: jsonBody(EpIdBody),
  responses: { ...ok(z.record(z.string(), z.union([z.string(), z.number(), z.null()])).openapi("EndpointLatency")), ...writeResponses },
});
const sessionsRoute = read("/get-endpoint-sessions", "The endpoint's flows open now", "The last five minutes. Agent endpoints: 400.", EpIdQuery, z.array(SessionSchema));
const netflowsRoute = read("/get-ep-sessions", "The endpoint's netflows over a time range", "At most 400 days.", NetflowQuery, z.array(NetflowRowSchema));
const nodeGroupsRoute = createRoute({
  method: "get",
  path: "/list-endpoint-node-group",
  tags: ["Endpoint node groups"],
  summary: "The caller's endpoint node groups, with their nodes",
  security: bearer,
  responses: { ...ok(z.array(NodeGroupSchema)), ...errors(401) },
});
const createNodeGroupRoute = createRoute({
  method: "post",
  path: "/create-endpoint-node-group",
  tags: ["Endpoint node groups"],
  summary: "Create an endpoint node group",
  description:
    "The create-endpoint dialog's panel (spec 1 §2): a group in spec 2 §3's shape, DHCP relay and VRRP off. A name the account already uses: 409. Answers 'Endpoint Node Group created.' and ep_node_group_id.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(NodeGroupBody),
  responses: { ...ok(z.object({ detail: z.string(), ep_node_group_id: z.string() }).openapi("EndpointNodeGroupCreated")), ...writeResponses },
});

export function registerEndpointCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    const db = c.get("deps").db;
    if (wantsPage(query)) return c.json(await queryEndpoints(db, who.accountId, query), 200);
    return c.json(await listEndpoints(db, who.accountId), 200);
  });

  app.openapi(exportRoute, async (c) => {
    const who = caller(c);
    const rows = exportEndpoints(c.get("deps").db, who.accountId, c.req.valid("query"));
    return (await ndjsonResponse(rows, c.req.raw.signal)) as never;
  });

  app.openapi(detailRoute, async (c) => {
    const who = caller(c);
    const { ep_id } = c.req.valid("query") as { ep_id: string };
    return c.json(await endpointDetail(c.get("deps"), who.accountId, ep_id), 200);
  });

  app.openapi(createRouteDef, async (c) => {
    const who = requireWriter(c);
    const epId = await createEndpoint(c.get("deps"), who.accountId, c.req.valid("json") as z.infer<typeof CreateEndpointBody>);
    return c.json({ ep_id: epId, detail: "Endpoint created." }, 200);
  });

  app.openapi(removeRoute, async (c) => {
    const who = requireWriter(c);
    await removeEndpoint(c.get("deps").db, who.accountId, (c.req.valid("json") as { ep_id: string }).ep_id);
    return c.json({ detail: "Endpoint removed." }, 200);
  });

  app.openapi(resetRoute, async (c) => {
    const who = requireWriter(c);
    await resetEndpoint(c.get("deps").db, who.accountId, (c.req.valid("json") as { ep_id: string }).ep_id);
    return c.json({ detail: "Endpoint reset." }, 200);
  });

  app.openapi(editRoute, async (c) => {
    const who = requireWriter(c);
    await editAgentDetails(c.get("deps").db, who.accountId, c.req.valid("json") as z.infer<typeof EditEndpointBody>);
    return c.json({ detail: "Endpoint updated." }, 200);
  });

  app.openapi(nameRoute, async (c) => {
    const who = requireWriter(c);
    const v = c.req.valid("json") as z.infer<typeof SetNameBody>;
    await setEndpointName(c.get("deps").db, who.accountId, v.ep_id, v.ep_name);
    return c.json({ detail: "Endpoint name updated." }, 200);
  });

  app.openapi(descriptionRoute, async (c) => {
    const who = requireWriter(c);
    const v = c.req.valid("json") as z.infer<typeof SetDescriptionBody>;
    await setEndpointDescription(c.get("deps").db, who.accountId, v.ep_id, v.description);
    return c.json({ detail: "Endpoint description updated." }, 200);
  });

  app.openapi(resizeRoute, async (c) => {
    const who = requireWriter(c);
    const v = c.req.valid("json") as z.infer<typeof ResizeBody>;
    const size = await resizeEndpoint(c.get("deps").db, who.accountId, v.ep_id, v.direction);
    return c.json({ detail: "Resized Endpoint successfully.", size }, 200);
  });

  app.openapi(proxyingRoute, async (c) => {
    const who = requireWriter(c);
    const v = c.req.valid("json") as z.infer<typeof ProxyingBody>;
    await configureProxying(c.get("deps").db, who.accountId, v.ep_id, v.enabled);
    return c.json({ detail: "Configured visibility successfully." }, 200);
  });

  app.openapi(contactRoute, async (c) => {
    const who = requireWriter(c);
    await setEndpointContact(c.get("deps").db, who.accountId, c.req.valid("json") as z.infer<typeof SetContactBody>);
    return c.json({ detail: "Endpoint contacts updated." }, 200);
  });

  app.openapi(contactByEpRoute, async (c) => {
    const who = caller(c);
    return c.json(await contactsOfEndpoint(c.get("deps").db, who.accountId, c.req.valid("query").ep_id), 200);
  });

  app.openapi(latencyRoute, async (c) => {
    const who = caller(c);
    return c.json(await measureEndpointLatency(c.get("deps"), who.accountId, (c.req.valid("json") as { ep_id: string }).ep_id), 200);
  });

  app.openapi(sessionsRoute, async (c) => {
    const who = caller(c);
    return c.json(await endpointSessions(c.get("deps"), who.accountId, (c.req.valid("query") as { ep_id: string }).ep_id), 200);
  });

  app.openapi(netflowsRoute, async (c) => {
    const who = caller(c);
    const q = c.req.valid("query") as z.infer<typeof NetflowQuery>;
    return c.json(await endpointNetflows(c.get("deps"), who.accountId, q.ep_id, { start: Date.parse(q.start_time), end: Date.parse(q.end_time) }), 200);
  });

  app.openapi(nodeGroupsRoute, async (c) => {
    const who = caller(c);
    return c.json(await listEndpointNodeGroups(c.get("deps").db, who.accountId), 200);
  });

  app.openapi(createNodeGroupRoute, async (c) => {
    const who = requireWriter(c);
    const created = await createEndpointNodeGroup(c.get("deps").db, who.accountId, c.req.valid("json"));
    return c.json({ detail: "Endpoint Node Group created.", ...created }, 200);
  });
}

export { ApiError };
