import { z } from "@hono/zod-openapi";
import { measureLatencyCall } from "./measure.ts";
import type { PlatformApp } from "../app.ts";
import { endpointSortable, sizes } from "../contract/endpoints.ts";
import {
  CreateEndpointBody,
  EditEndpointBody,
  EndpointCreated,
  EndpointDetail,
  EndpointNodeGroupCreated,
  EndpointPage,
  EndpointResized,
  EndpointRow,
  EndpointSession,
  epId,
  EpIdBody,
  NetflowRow,
  NodeGroupBody,
  ProxyingBody,
  ResizeBody,
  SetContactBody,
  SetDescriptionBody,
  SetNameBody,
} from "../contract/endpoints.shapes.ts";
import { Contact } from "../contract/contacts.shapes.ts";
import {
  configureProxying,
  contactsOfEndpoint,
  createEndpoint,
  createEndpointNodeGroup,
  editAgentDetails,
  endpointDetail,
  endpointList,
  endpointNetflows,
  endpointSessions,
  exportEndpoints,
  measureEndpointLatency,
  removeEndpoint,
  resetEndpoint,
  resizeEndpoint,
  setEndpointContact,
  setEndpointDescription,
  setEndpointName,
} from "../domain/endpoints.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { checkTimeRange, timeParam } from "../lib/fields.ts";
import { ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";
import { MAX_SPAN } from "../fleet/index.ts";
import { endpointMessages } from "../contract/messages.ts";

/*
 * Endpoints (spec 1 §2 Endpoints screen, §3 Endpoint, §4, §5, §7 Endpoints, §8) and the endpoint
 * node groups the create dialog chooses from or creates (spec 2 §3). Traffic-derived answers
 * (sessions, netflows, latency) come from the fleet (docs/fleet.md) for the endpoints that exist.
 */

// ---------------------------------------------------------------------------------------------
// Schemas (the calls' requests are the contract's: ../contract/endpoints.shapes.ts)

const EpIdQuery = z.object({ ep_id: epId() });

const NetflowQuery = z
  .object({ ep_id: epId(), start_time: timeParam("start_time"), end_time: timeParam("end_time") })
  .superRefine((v, ctx) => checkTimeRange(ctx, { start: v.start_time, end: v.end_time }, { maxDays: MAX_SPAN / 86_400_000 }));

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["Endpoints"];

export const { list: listRoute, export: exportRoute, detail: detailRoute } = defineListCalls({
  tags, sortable: endpointSortable, item: EndpointRow, itemName: "EndpointRow", page: EndpointPage,
  list: { path: "/list-endpoint", summary: "The caller's endpoints", rows: ["endpoint", "newest first"] },
  export: { path: "/export-endpoints", summary: "Every endpoint the search selects, streamed", description: "The rows of list-endpoint with the same q and sort, all of them, as NDJSON (one EndpointRow per line)." },
  detail: { path: "/get-endpoint-detail", summary: "One endpoint, with its user agents", description: "Unknown id, or another account's: 404 'Endpoint not found'.", query: EpIdQuery, response: EndpointDetail },
});

// A change of one endpoint: unknown ids answer 404.
export const createRouteDef = defineChange({
  path: "/create-endpoint",
  tags,
  summary: "Create an endpoint of an app service",
  description:
    "By deployment (spec 1 §5): agent: name and app service; onprem: plus node and node group; aws: region and allowed principal (consumer_principle); azure: region and subscription id (consumer_principle); network: real subnets, node group and node, and with bgp_enabled the local ASN, peer ASN (numbers) and peer IP. Answers 'Endpoint created.' and ep_id.",
  body: CreateEndpointBody,
  response: EndpointCreated,
});

export const removeRoute = defineChange({ path: "/remove-endpoint", tags, summary: "Remove an endpoint", description: "Answers 'Endpoint removed.'.", body: EpIdBody });
export const resetRoute = defineChange({ path: "/reset-endpoint", tags, summary: "Reset an endpoint", description: "Restarts the endpoint's data path: its op state is up again from now. Answers 'Endpoint reset.'.", body: EpIdBody });
export const editRoute = defineChange({ path: "/edit-endpoint", tags, summary: "Edit an agent endpoint's DNS servers and CIDRs", description: "Agent endpoints only (400 otherwise). Answers 'Endpoint updated.'.", body: EditEndpointBody });
export const nameRoute = defineChange({ path: "/set-endpoint-name", tags, summary: "Rename an endpoint", description: "Answers 'Endpoint name updated.'.", body: SetNameBody });
export const descriptionRoute = defineChange({ path: "/set-endpoint-description", tags, summary: "Set an endpoint's description", description: "Answers 'Endpoint description updated.'.", body: SetDescriptionBody });
export const resizeRoute = defineChange({
  path: "/resize-endpoint-throughput",
  tags,
  summary: "Resize an endpoint one step up or down",
  description: `Sizes: ${sizes.join(", ")}. Past either end, or an onprem endpoint: 400. Answers 'Resized Endpoint successfully.' and the new size.`,
  body: ResizeBody,
  response: EndpointResized,
});
export const proxyingRoute = defineChange({ path: "/configure-endpoint-proxying", tags, summary: "Turn advanced visibility (proxying) on or off", description: "Answers 'Configured visibility successfully.'.", body: ProxyingBody });
export const contactRoute = defineChange({
  path: "/set-endpoint-contact",
  tags,
  summary: "Set the business (primary) and technical (secondary) contact",
  description: "Contact ids of the caller's contacts, or '' for none. Answers 'Endpoint contacts updated.'.",
  body: SetContactBody,
});
export const contactByEpRoute = defineCall({
  method: "get",
  path: "/get-contact-by-ep-id",
  tags: ["Contacts", "Endpoints"],
  summary: "The contacts of an endpoint",
  description: "The primary (contact_type business) and secondary (technical) contact, those that are set.",
  query: EpIdQuery,
  response: z.array(Contact),
  errors: [404],
});
// Test Reachability: the one rule of ./measure.ts (every role, nothing stored).
export const latencyRoute = measureLatencyCall({
  path: "/measure-endpoint-latency",
  tags,
  summary: "Measure the endpoint's latency",
  description: "Ten probes from the endpoint's PoP; the result as key/value pairs. Agent endpoints: 400.",
  body: EpIdBody,
});
export const sessionsRoute = defineCall({
  method: "get",
  path: "/get-endpoint-sessions",
  tags,
  summary: "The endpoint's flows open now",
  description: "The last five minutes. Agent endpoints: 400.",
  query: EpIdQuery,
  response: z.array(EndpointSession),
  errors: [404, 400],
});
export const netflowsRoute = defineCall({ method: "get", path: "/get-ep-sessions", tags, summary: "The endpoint's netflows over a time range", description: "At most 400 days.", query: NetflowQuery, response: z.array(NetflowRow), errors: [404] });
// list-endpoint-node-group moved to routes/nodes.ts (issue #28): same path and id, paged with list parameters.
export const createNodeGroupRoute = defineChange({
  path: "/create-endpoint-node-group",
  tags: ["Endpoint node groups"],
  summary: "Create an endpoint node group",
  description:
    "The create-endpoint dialog's panel (spec 1 §2): a group in spec 2 §3's shape, DHCP relay and VRRP off. A name the account already uses: 409. Answers 'Endpoint Node Group created.' and ep_node_group_id.",
  body: NodeGroupBody,
  response: EndpointNodeGroupCreated,
  errors: [409],
});

export function registerEndpointCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => {
    return endpointList.answer(c, caller(c).accountId, c.req.valid("query"));
  });

  app.openapi(exportRoute, async (c) => {
    const who = caller(c);
    const rows = exportEndpoints(c.get("deps").db, who.accountId, c.req.valid("query"));
    return ndjsonResponse(rows, c.req.raw.signal);
  });
  app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q) => endpointDetail(deps, who.accountId, q.ep_id)));
  app.openapi(createRouteDef, answerChange(createRouteDef, (deps, who, b) => createEndpoint(deps, who.accountId, b), (epId) => ({ ep_id: epId, detail: "Endpoint created." })));
  app.openapi(removeRoute, answerDetail(removeRoute, (deps, who, b) => removeEndpoint(deps.db, who.accountId, b.ep_id), "Endpoint removed."));
  app.openapi(resetRoute, answerDetail(resetRoute, (deps, who, b) => resetEndpoint(deps.db, who.accountId, b.ep_id), "Endpoint reset."));
  app.openapi(editRoute, answerDetail(editRoute, (deps, who, b) => editAgentDetails(deps.db, who.accountId, b), "Endpoint updated."));
  app.openapi(nameRoute, answerDetail(nameRoute, (deps, who, b) => setEndpointName(deps.db, who.accountId, b.ep_id, b.ep_name), "Endpoint name updated."));
  app.openapi(descriptionRoute, answerDetail(descriptionRoute, (deps, who, b) => setEndpointDescription(deps.db, who.accountId, b.ep_id, b.description), "Endpoint description updated."));
  app.openapi(resizeRoute, answerChange(resizeRoute, (deps, who, b) => resizeEndpoint(deps.db, who.accountId, b.ep_id, b.direction), (size) => ({ detail: "Resized Endpoint successfully.", size })));
  app.openapi(proxyingRoute, answerDetail(proxyingRoute, (deps, who, b) => configureProxying(deps.db, who.accountId, b.ep_id, b.enabled), endpointMessages.visibilityConfigured));
  app.openapi(contactRoute, answerDetail(contactRoute, (deps, who, b) => setEndpointContact(deps.db, who.accountId, b), "Endpoint contacts updated."));
  app.openapi(contactByEpRoute, answerQuery(contactByEpRoute, (deps, who, q) => contactsOfEndpoint(deps.db, who.accountId, q.ep_id)));
  // Readonly users may measure: not a change.
  app.openapi(latencyRoute, async (c) => c.json(await measureEndpointLatency(c.get("deps"), caller(c).accountId, c.req.valid("json").ep_id), 200));
  app.openapi(sessionsRoute, answerQuery(sessionsRoute, (deps, who, q) => endpointSessions(deps, who.accountId, q.ep_id)));
  app.openapi(netflowsRoute, answerQuery(netflowsRoute, (deps, who, q) => endpointNetflows(deps, who.accountId, q.ep_id, { start: q.start_time.getTime(), end: q.end_time.getTime() })));
  app.openapi(createNodeGroupRoute, answerChange(createNodeGroupRoute, (deps, who, b) => createEndpointNodeGroup(deps.db, who.accountId, b), (created) => ({ detail: endpointMessages.nodeGroupCreated, ...created })));
};
