import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { nodeMessages, serviceNodeGroupSortable, serviceNodeSortable } from "../contract/nodes.ts";
import {
  CertificateBody,
  GroupBody,
  ServiceNode,
  ServiceNodeCreated,
  ServiceNodeDetail,
  ServiceNodeGroupDetail,
  serviceNodeGroupId,
  ServiceNodeGroupPage,
  ServiceNodeGroupRow,
  ServiceNodePage,
} from "../contract/nodes.shapes.ts";
import { CreateServiceNodeBody } from "../contract/nodes-forms.shapes.ts";
import { disableExternalCertificate, enableExternalCertificate } from "../domain/certificates.ts";
import {
  createServiceNode,
  removeServiceNode,
  serviceNodeDetail,
  serviceNodeGroupDetail,
  serviceNodeList,
  type CreateServiceNodeInput,
} from "../domain/nodes-service.ts";
import { serviceNodeGroupList } from "../domain/nodes-groups.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { body, idField } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineListCalls, DetailSchema } from "../lib/openapi.ts";

/*
 * Service nodes and service node groups (spec 2 §2 /service-nodes, /service-node-groups; §3; §5;
 * §7 'Service nodes', with the spec's underscore spellings; issue #28). The group list moved here
 * from app-services (same paths and operation ids) to carry the certificate.
 */

const tags = ["Service nodes"];
const groupTags = ["Service node groups"];
const snId = () => idField("Service node id", "sn-2p6a0s4d8f3g");

const ListQuery = z.object({ ...listQuery(serviceNodeSortable), ids: idsFilter, service_node_group_id: serviceNodeGroupId().optional() });

const toCreateInput = (b: z.output<typeof CreateServiceNodeBody>): CreateServiceNodeInput =>
  b.new_service_node_group
    ? { service_node_name: b.service_node_name, description: b.description, new_service_node_group: true, service_node_group_name: b.service_node_group_name ?? "" }
    : { service_node_name: b.service_node_name, description: b.description, new_service_node_group: false, service_node_group_id: b.service_node_group_id ?? "" };


export const calls = {
  list: defineListCalls({ tags, item: ServiceNode, page: ServiceNodePage, list: { path: "/list_service_node", summary: "The caller's service nodes", rows: ["service node", "newest first"], query: ListQuery } }).list,
  export: defineListCalls({
    tags,
    item: ServiceNode,
    itemName: "ServiceNode",
    export: {
      path: "/export-service-nodes",
      summary: "Every service node the search selects, streamed",
      description: "The rows of list_service_node with the same q, sort and service_node_group_id, all of them, as NDJSON (one ServiceNode per line).",
      query: z.object({ ...exportQuery(serviceNodeSortable), service_node_group_id: serviceNodeGroupId().optional() }),
    },
  }).export,
  detail: defineCall({
    method: "get",
    path: "/get_service_node_detail",
    tags,
    summary: "One service node, with its app services and connected endpoints",
    description: "The app services its group serves (theirs or a hosting's group) and their endpoints. Unknown id, or another account's: 404 'Service Node not found'.",
    query: z.object({ service_node_id: snId() }),
    response: ServiceNodeDetail,
    errors: [404],
  }),
  create: defineCall({
    method: "post",
    path: "/create-service-node",
    tags,
    summary: "Create a service node",
    description: "In a new group (a name in use: 409) or an existing one (unknown: 404). Answers 'Service Node created.', service_node_id and service_node_group_id.",
    only: "writer",
    body: CreateServiceNodeBody,
    response: ServiceNodeCreated,
    errors: [404, 409],
  }),
  remove: defineCall({
    method: "post",
    path: "/remove_service_node",
    tags,
    summary: "Delete a service node",
    description: "Answers 'Service Node removed.'.",
    only: "writer",
    body: body({ service_node_id: snId() }).strict().openapi("ServiceNodeId"),
    response: DetailSchema,
    errors: [404],
  }),
  groupDetail: defineCall({
    method: "get",
    path: "/get-service-node-group-details",
    tags: groupTags,
    summary: "One service node group, with its certificate and nodes",
    description: "The certificate's subject, issuer, serial, validity and a warning within 30 days of its expiry (never its key). Unknown id, or another account's: 404.",
    query: z.object({ service_node_group_id: serviceNodeGroupId() }),
    response: ServiceNodeGroupDetail,
    errors: [404],
  }),
  enable: defineCall({
    method: "post",
    path: "/enable_external_certificate",
    tags: groupTags,
    summary: "Import a group's external certificate",
    description:
      "Checked as a TLS server loads it: PEM; an unencrypted private key matching the certificate; a certificate valid now; a CA chain that verifies it up to a self-signed root. Each failure its own 422 message. A group that has one: 409. Answers 'External Certificate imported.'.",
    only: "writer",
    body: CertificateBody,
    response: DetailSchema,
    errors: [404, 409],
  }),
  disable: defineCall({
    method: "post",
    path: "/disable_external_certificate",
    tags: groupTags,
    summary: "Disable a group's external root CA",
    description: "Deletes the certificate and its key. A group without one: 409. Answers 'External Root CA disabled'.",
    only: "writer",
    body: GroupBody,
    response: DetailSchema,
    errors: [404, 409],
  }),
};

// Spec 1 spells it list-service-node-group, spec 2 list_service_node_group: the same call.
const GroupListQuery = z.object({ ...listQuery(serviceNodeGroupSortable), ids: idsFilter });
export const groupLists = (["/list-service-node-group", "/list_service_node_group"] as const).map((path) =>
  defineListCalls({
    tags: groupTags,
    item: ServiceNodeGroupRow,
    page: ServiceNodeGroupPage,
    list: {
      path,
      summary: "The caller's service node groups, each with its external certificate (or null) and node count",
      rows: ["service node group", "oldest first"],
      query: GroupListQuery,
    },
  }).list,
);

export function registerServiceNodeCalls(app: PlatformApp) {
  app.openapi(calls.list, async (c) => serviceNodeList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(calls.export, async (c) => ndjsonResponse(serviceNodeList.batches(c.get("deps").db, caller(c).accountId, c.req.valid("query")), c.req.raw.signal));
  app.openapi(calls.detail, answerQuery(calls.detail, (deps, who, q, remember) => remember(() => serviceNodeDetail(deps.db, who.accountId, q.service_node_id))));
  app.openapi(calls.create, answerChange(calls.create, (deps, who, b) => createServiceNode(deps.db, who.accountId, toCreateInput(b)), (r) => ({ ...r, detail: nodeMessages.serviceNodeCreated })));
  app.openapi(calls.remove, answerDetail(calls.remove, (deps, who, b) => removeServiceNode(deps.db, who.accountId, b.service_node_id), nodeMessages.serviceNodeRemoved));
  app.openapi(calls.groupDetail, answerQuery(calls.groupDetail, (deps, who, q) => serviceNodeGroupDetail(deps.db, who.accountId, q.service_node_group_id)));
  app.openapi(calls.enable, answerDetail(calls.enable, (deps, who, b) => enableExternalCertificate(deps, who.accountId, b.service_node_group_id, b), nodeMessages.certificateEnabled));
  app.openapi(calls.disable, answerDetail(calls.disable, (deps, who, b) => disableExternalCertificate(deps.db, who.accountId, b.service_node_group_id), nodeMessages.certificateDisabled));
  for (const call of groupLists) app.openapi(call, async (c) => serviceNodeGroupList.answer(c, caller(c).accountId, c.req.valid("query")));
}
