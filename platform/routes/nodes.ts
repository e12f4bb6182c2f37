import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { endpointNodeGroupSortable, endpointNodeSortable, nodeLimits, nodeMessages } from "../contract/nodes.ts";
import { EndpointNodeGroup } from "../contract/endpoints.shapes.ts";
import { endpointNodeGroupList } from "../domain/nodes-groups.ts";
import { EndpointNode, EndpointNodeCreated, EndpointNodeDetail, EndpointNodeGroupDetail, EndpointNodeGroupPage, EndpointNodePage, SecondaryIpsAdded } from "../contract/nodes.shapes.ts";
import {
  addSecondaryIps,
  configureDhcpRelay,
  configureLanInterface,
  configureVrrp,
  createEndpointNode,
  endpointNodeDetail,
  endpointNodeGroupDetail,
  endpointNodeList,
  removeEndpointNode,
  type CreateEndpointNodeInput,
} from "../domain/nodes-endpoint.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { body, idField } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineListCalls, DetailSchema } from "../lib/openapi.ts";
import { AddSecondaryIpsBody, ConfigureDhcpBody, ConfigureLanBody, ConfigureVrrpBody, CreateEndpointNodeBody, epNodeId } from "../contract/nodes-forms.shapes.ts";
import { registerNodeFileCalls } from "./nodes-files.ts";
import { registerServiceNodeCalls } from "./nodes-service.ts";

/*
 * Endpoint nodes and endpoint node groups (spec 2 §2 /endpoint-nodes, /endpoint-node-groups; §3;
 * §5; §7 'Endpoint nodes', 'Endpoint node groups'; issue #28). The form-factor, metrics and
 * health calls both node kinds share are in nodes-files.ts, service nodes in nodes-service.ts;
 * registerNodeCalls registers all three.
 */

const tags = ["Endpoint nodes"];
const groupTags = ["Endpoint node groups"];

const ListQuery = z.object({ ...listQuery(endpointNodeSortable), ids: idsFilter, ep_node_group_id: idField("Endpoint node group id").optional() });

const toCreateInput = (b: z.output<typeof CreateEndpointNodeBody>): CreateEndpointNodeInput =>
  b.new_ep_node_group
    ? { ep_node_name: b.ep_node_name, new_ep_node_group: true, ep_node_group_name: b.ep_node_group_name ?? "" }
    : { ep_node_name: b.ep_node_name, new_ep_node_group: false, ep_node_group_id: b.ep_node_group_id ?? "" };

const RemoveBody = body({ ep_node_id: epNodeId(), ep_node_group_id: idField("Endpoint node group id") }).strict().openapi("RemoveEndpointNode");

const write = <const P extends `/${string}`, B extends z.ZodType, R extends z.ZodType>(path: P, t: string[], summary: string, description: string, b: B, response: R, errors: readonly (404 | 409)[] = [404]) =>
  defineCall({ method: "post", path, tags: t, summary, description, only: "writer", body: b, response, errors });

export const calls = {
  list: defineListCalls({ tags, item: EndpointNode, page: EndpointNodePage, list: { path: "/list-endpoint-node", summary: "The caller's endpoint nodes", rows: ["endpoint node", "newest first"], query: ListQuery } }).list,
  export: defineListCalls({
    tags,
    item: EndpointNode,
    itemName: "EndpointNode",
    export: {
      path: "/export-endpoint-nodes",
      summary: "Every endpoint node the search selects, streamed",
      description: "The rows of list-endpoint-node with the same q, sort and ep_node_group_id, all of them, as NDJSON (one EndpointNode per line).",
      query: z.object({ ...exportQuery(endpointNodeSortable), ep_node_group_id: idField("Endpoint node group id").optional() }),
    },
  }).export,
  detail: defineCall({
    method: "get",
    path: "/get-endpoint-node-detail",
    tags,
    summary: "One endpoint node, with the endpoints that use it",
    description: "Unknown id, or another account's: 404 'Endpoint Node not found'.",
    query: z.object({ ep_node_id: epNodeId() }),
    response: EndpointNodeDetail,
    errors: [404],
  }),
  create: write(
    "/create-endpoint-node",
    tags,
    "Create an endpoint node",
    "In a new group (new_ep_node_group true, ep_node_group_name; a name in use: 409) or an existing one (false, ep_node_group_id; unknown: 404). No form factor yet, op state down until it registers. Answers 'Endpoint Node created.', ep_node_id and ep_node_group_id.",
    CreateEndpointNodeBody,
    EndpointNodeCreated,
    [404, 409],
  ),
  remove: write(
    "/remove-endpoint-node",
    tags,
    "Delete an endpoint node",
    "Refused (409) with a list detail naming every endpoint that still uses it. Answers 'Endpoint Node removed.'.",
    RemoveBody,
    DetailSchema,
    [404, 409],
  ),
  lan: write("/configure-lan-interface", tags, "Turn the node's LAN interface on or off", "Answers 'LAN Interface enabled.' or 'LAN Interface disabled.'.", ConfigureLanBody, DetailSchema),
  secondary: defineCall({
    method: "post",
    path: "/add-endpoint-node-secondary-ips",
    tags,
    summary: "Add secondary IPs to an endpoint node",
    description: `At most ${nodeLimits.secondaryIps} a node. Answers 'Secondary IPs added.' and the node's secondary IPs.`,
    only: "writer",
    body: AddSecondaryIpsBody,
    response: SecondaryIpsAdded,
    errors: [404],
  }),
  groups: defineListCalls({
    tags: groupTags,
    item: EndpointNodeGroup,
    page: EndpointNodeGroupPage,
    list: {
      path: "/list-endpoint-node-group",
      summary: "The caller's endpoint node groups",
      rows: ["endpoint node group", "sorted by name"],
      query: z.object({ ...listQuery(endpointNodeGroupSortable), ids: idsFilter }),
    },
  }).list,
  groupDetail: defineCall({
    method: "get",
    path: "/get-endpoint-node-group-details",
    tags: groupTags,
    summary: "One endpoint node group, with its nodes",
    description: "Unknown id, or another account's node: 404.",
    query: z.object({ ep_node_group_id: idField("Endpoint node group id", "epg-5r9t3y7u1i6o") }),
    response: EndpointNodeGroupDetail,
    errors: [404],
  }),
  dhcp: write("/configure-dhcp-relay", groupTags, "Turn DHCP relay on (with the DHCP server's address) or off", "Answers 'DHCP Relay enabled.' or 'DHCP Relay disabled.'.", ConfigureDhcpBody, DetailSchema),
  vrrp: write("/configure-vrrp", groupTags, "Turn VRRP on (with the virtual IP) or off", "Answers 'VRRP enabled.' or 'VRRP disabled.'.", ConfigureVrrpBody, DetailSchema),
};

export function registerNodeCalls(app: PlatformApp) {
  app.openapi(calls.list, async (c) => endpointNodeList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(calls.export, async (c) => ndjsonResponse(endpointNodeList.batches(c.get("deps").db, caller(c).accountId, c.req.valid("query")), c.req.raw.signal));
  app.openapi(calls.detail, answerQuery(calls.detail, (deps, who, q) => endpointNodeDetail(deps.db, who.accountId, q.ep_node_id)));
  app.openapi(
    calls.create,
    answerChange(calls.create, (deps, who, b) => createEndpointNode(deps.db, who.accountId, toCreateInput(b)), (r) => ({ ...r, detail: nodeMessages.endpointNodeCreated })),
  );
  app.openapi(calls.remove, answerDetail(calls.remove, (deps, who, b) => removeEndpointNode(deps.db, who.accountId, b.ep_node_id, b.ep_node_group_id), nodeMessages.endpointNodeRemoved));
  app.openapi(calls.lan, answerDetail(calls.lan, (deps, who, b) => configureLanInterface(deps.db, who.accountId, b), (b) => (b.enabled ? nodeMessages.lanEnabled : nodeMessages.lanDisabled)));
  app.openapi(
    calls.secondary,
    answerChange(calls.secondary, (deps, who, b) => addSecondaryIps(deps.db, who.accountId, b.ep_node_id, b.secondary_ips, nodeLimits.secondaryIps), (ips) => ({ detail: nodeMessages.secondaryIpsAdded, secondary_ips: ips })),
  );
  app.openapi(calls.groups, async (c) => endpointNodeGroupList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(calls.groupDetail, answerQuery(calls.groupDetail, (deps, who, q) => endpointNodeGroupDetail(deps.db, who.accountId, q.ep_node_group_id)));
  app.openapi(calls.dhcp, answerDetail(calls.dhcp, (deps, who, b) => configureDhcpRelay(deps.db, who.accountId, b), (b) => (b.enabled ? nodeMessages.dhcpEnabled : nodeMessages.dhcpDisabled)));
  app.openapi(calls.vrrp, answerDetail(calls.vrrp, (deps, who, b) => configureVrrp(deps.db, who.accountId, b), (b) => (b.enabled ? nodeMessages.vrrpEnabled : nodeMessages.vrrpDisabled)));
  registerServiceNodeCalls(app);
  registerNodeFileCalls(app);
}
