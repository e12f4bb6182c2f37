import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { appServices, endpoints, hostings, serviceNodeGroupCertificates, serviceNodeGroups, serviceNodes } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { defineList, type ListQuery } from "../lib/list.ts";
import { certificateWarningDays, type NodeCertificate, type ServiceNode, type ServiceNodeDetail, type ServiceNodeGroupDetail, type ServiceNodeGroupRow, type ServiceNodeSortColumn } from "../contract/nodes.ts";
import { groupForNewNode, identity, nodeList, nodesOfGroup, nodeFields, privateAddressOf, serviceNodeNotFound, sharedNodeColumns, unregistered } from "./nodes-common.ts";

/*
 * Service nodes and their groups (spec 2 §3 Service node, Service node group; §7 'Service nodes').
 * A node serves the app services of its group (theirs or a hosting's service_node_group_id), and
 * through them their endpoints (the App Services and Connected Endpoints tabs).
 */

export const serviceNodeGroupNotFound = () => notFound("Service Node Group not found");

/** App services of the group: by the app service's own group or one of its hostings'. */
const servedBy = (groupCol: SQL) =>
  sql`(a.service_node_group_id = ${groupCol} or exists (select 1 from hostings h where h.app_service_id = a.app_service_id and h.service_node_group_id = ${groupCol}))`;
const group = sql`"service_nodes"."service_node_group_id"`;

const snColumns = {
  ...sharedNodeColumns("service_node"),
  private_ip: serviceNodes.privateIp,
  description: serviceNodes.description,
  app_service_count: sql<number>`(select count(*)::int from app_services a where a.account_id = "service_nodes"."account_id" and ${servedBy(group)})`,
  endpoint_count: sql<number>`(select count(*)::int from endpoints e join app_services a on a.app_service_id = e.app_service_id where a.account_id = "service_nodes"."account_id" and ${servedBy(group)})`,
};

const selectNodes = (db: DbOrTx, where: SQL | undefined) => db.select(snColumns).from(serviceNodes).where(where);
type Selected = Awaited<ReturnType<typeof selectNodes>>[number];

function toNode({ node_id, node_name, group_id, group_name, app_service_count, endpoint_count, ...r }: Selected): ServiceNode {
  return { ...identity("service_node", { node_id, node_name, group_id, group_name }), ...nodeFields(r), app_service_count: Number(app_service_count), endpoint_count: Number(endpoint_count) };
}

export interface ServiceNodeQuery extends ListQuery {
  service_node_group_id?: string;
}

/** list_service_node: search over name, id, group id, form factor, private IP and description; newest first. */
export const serviceNodeList = defineList<ServiceNode, ServiceNodeSortColumn, ServiceNodeQuery>({
  ...nodeList("service_node", ["service_node_name", "service_node_id", "service_node_group_id", "admin_state", "op_state"], {
    load: async (db, where) => (await selectNodes(db, where).orderBy(desc(serviceNodes.createdAt), desc(serviceNodes.serviceNodeId))).map(toNode),
    idOf: (n) => n.service_node_id,
    notFound: serviceNodeNotFound,
  }),
});

/** get_service_node_detail: the node, its group's app services and their endpoints. */
export async function serviceNodeDetail(db: DbOrTx, accountId: string, id: string): Promise<ServiceNodeDetail> {
  const node = await serviceNodeList.one(db, accountId, id);
  const hosted = db.select({ id: hostings.appServiceId }).from(hostings).where(eq(hostings.serviceNodeGroupId, node.service_node_group_id));
  const apps = await db
    .select({
      app_service_id: appServices.appServiceId,
      app_service_name: appServices.appServiceName,
      deployment: appServices.deployment,
      admin_state: appServices.adminState,
      admin_state_change_at: appServices.adminStateChangeAt,
      op_state: appServices.opState,
      fqdn: appServices.fqdn,
      proto: appServices.proto,
      port: appServices.port,
    })
    .from(appServices)
    .where(and(eq(appServices.accountId, accountId), or(eq(appServices.serviceNodeGroupId, node.service_node_group_id), inArray(appServices.appServiceId, hosted))))
    .orderBy(asc(appServices.createdAt), asc(appServices.appServiceId));
  const ids = apps.map((a) => a.app_service_id);
  const eps = ids.length
    ? await db
        .select({
          ep_id: endpoints.epId,
          ep_name: endpoints.epName,
          ep_node_id: endpoints.epNodeId,
          admin_state: endpoints.adminState,
          op_state: endpoints.opState,
          app_service_id: endpoints.appServiceId,
          ip_addr: endpoints.ipAddr,
          created_at: endpoints.createdAt,
          fqdn: sql<string>`(select a.fqdn from app_services a where a.app_service_id = "endpoints"."app_service_id")`,
        })
        .from(endpoints)
        .where(and(eq(endpoints.accountId, accountId), inArray(endpoints.appServiceId, ids)))
        .orderBy(asc(endpoints.createdAt), asc(endpoints.epId))
    : [];
  return {
    ...node,
    app_services: apps.map((a) => ({ ...a, admin_state_change_at: a.admin_state_change_at.toISOString() })),
    endpoints: eps.map((e) => ({ ...e, fqdn: e.fqdn ?? "", created_at: e.created_at.toISOString() })),
  };
}

export type CreateServiceNodeInput = { service_node_name: string; description?: string } & (
  | { new_service_node_group: true; service_node_group_name: string }
  | { new_service_node_group: false; service_node_group_id: string }
);

/** create-service-node: in a new group (by name; a name in use: 409) or an existing one (by id; unknown: 404). */
export async function createServiceNode(db: Db, accountId: string, input: CreateServiceNodeInput, id = newId("sn")) {
  return db.transaction(async (tx) => {
    const groupId = await groupForNewNode(input.new_service_node_group ? { name: input.service_node_group_name } : { id: input.service_node_group_id }, {
      label: "Service node group",
      idPrefix: "sng",
      insert: (serviceNodeGroupId, serviceNodeGroupName) => tx.insert(serviceNodeGroups).values({ serviceNodeGroupId, accountId, serviceNodeGroupName }),
      exists: async (groupId) => (await serviceNodeGroupRows(tx, accountId, eq(serviceNodeGroups.serviceNodeGroupId, groupId))).length > 0,
      notFound: serviceNodeGroupNotFound,
    });
    await tx.insert(serviceNodes).values({
      serviceNodeId: id,
      accountId,
      serviceNodeName: input.service_node_name,
      serviceNodeGroupId: groupId,
      description: input.description ?? "",
      privateIp: privateAddressOf(id),
      opState: unregistered,
    });
    return { service_node_id: id, service_node_group_id: groupId };
  });
}

/** remove_service_node. */
export async function removeServiceNode(db: DbOrTx, accountId: string, id: string) {
  const r = await db
    .delete(serviceNodes)
    .where(and(eq(serviceNodes.accountId, accountId), eq(serviceNodes.serviceNodeId, id)))
    .returning({ id: serviceNodes.serviceNodeId });
  if (!r.length) throw serviceNodeNotFound();
}

// ---------------------------------------------------------------------------------------------
// Groups

const DAY = 86_400_000;

export function certificateOf(c: typeof serviceNodeGroupCertificates.$inferSelect, now = Date.now()): NodeCertificate {
  return {
    subject: c.subject,
    issuer: c.issuer,
    serial_number: c.serialNumber,
    valid_from: c.validFrom.toISOString(),
    valid_to: c.validTo.toISOString(),
    fingerprint_sha256: c.fingerprintSha256,
    expires_within_30_days: c.validTo.getTime() - now <= certificateWarningDays * DAY,
    imported_at: c.importedAt.toISOString(),
  };
}

/**
 * When the first of these certificates' 30-day warning turns on (ms; Infinity when none will):
 * until then an answer holding them stays true (the read cache keeps it no longer).
 */
export function certificateWarningsFreshUntil(certificates: (NodeCertificate | null)[], now: number): number {
  let until = Infinity;
  for (const c of certificates) {
    const warnsFrom = c ? Date.parse(c.valid_to) - certificateWarningDays * DAY : Infinity;
    if (warnsFrom > now && warnsFrom < until) until = warnsFrom;
  }
  return until;
}

/** list_service_node_group / list-service-node-group: the groups with their certificate and node count, oldest first. */
export async function serviceNodeGroupRows(db: DbOrTx, accountId: string, where?: SQL): Promise<ServiceNodeGroupRow[]> {
  const rows = await db
    .select({
      group: serviceNodeGroups,
      certificate: serviceNodeGroupCertificates,
      node_count: sql<number>`(select count(*)::int from service_nodes n where n.service_node_group_id = ${serviceNodeGroups.serviceNodeGroupId})`,
    })
    .from(serviceNodeGroups)
    .leftJoin(serviceNodeGroupCertificates, eq(serviceNodeGroupCertificates.serviceNodeGroupId, serviceNodeGroups.serviceNodeGroupId))
    .where(and(eq(serviceNodeGroups.accountId, accountId), where))
    .orderBy(asc(serviceNodeGroups.createdAt), asc(serviceNodeGroups.serviceNodeGroupId));
  return rows.map((r) => ({
    service_node_group_id: r.group.serviceNodeGroupId,
    service_node_group_name: r.group.serviceNodeGroupName,
    external_certificate: r.group.externalCertificate,
    created_at: r.group.createdAt.toISOString(),
    certificate: r.certificate ? certificateOf(r.certificate) : null,
    node_count: Number(r.node_count),
  }));
}

/** get-service-node-group-details. */
export async function serviceNodeGroupDetail(db: DbOrTx, accountId: string, groupId: string): Promise<ServiceNodeGroupDetail> {
  const [row] = await serviceNodeGroupRows(db, accountId, eq(serviceNodeGroups.serviceNodeGroupId, groupId));
  if (!row) throw serviceNodeGroupNotFound();
  const nodes = await nodesOfGroup(db, "service_node", accountId, groupId);
  return { ...row, service_nodes: nodes.map((n) => ({ service_node_id: n.id, service_node_name: n.name, op_state: n.op_state })) };
}
