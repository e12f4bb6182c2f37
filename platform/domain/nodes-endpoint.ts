import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { endpointNodeGroups, endpointNodes, endpoints } from "../db/schema.ts";
import { ApiError, notFound, type DetailItem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { defineList, type ListQuery } from "../lib/list.ts";
import { secondaryIpConflicts, type EndpointNode, type EndpointNodeDetail, type EndpointNodeGroupDetail, type EndpointNodeSortColumn } from "../contract/nodes.ts";
import { listEndpointNodeGroups } from "./endpoints.ts";
import { endpointNodeNotFound, groupForNewNode, identity, nodeList, nodesOfGroup, nodeFields, privateAddressOf, sharedNodeColumns, unregistered, updateNode } from "./nodes-common.ts";

/*
 * Endpoint nodes and their groups (spec 2 §3 Endpoint node, Endpoint node group; §5; §7 'Endpoint
 * nodes', 'Endpoint node groups'). Every query is scoped to the account: another account's ids
 * answer 404.
 */

const groupNotFound = () => notFound("Endpoint Node Group not found");

const epnColumns = {
  ...sharedNodeColumns("endpoint_node"),
  primary_ip: endpointNodes.primaryIp,
  secondary_ips: endpointNodes.secondaryIps,
  lan_interface_enabled: endpointNodes.lanInterfaceEnabled,
  lan_interface_ipaddress: endpointNodes.lanInterfaceIpaddress,
  endpoint_count: sql<number>`(select count(*)::int from endpoints e where e.account_id = "endpoint_nodes"."account_id" and e.ep_node_id = "endpoint_nodes"."ep_node_id")`,
};

const selectNodes = (db: DbOrTx, where: SQL | undefined) => db.select(epnColumns).from(endpointNodes).where(where);
type Selected = Awaited<ReturnType<typeof selectNodes>>[number];

function toNode({ node_id, node_name, group_id, group_name, endpoint_count, ...r }: Selected): EndpointNode {
  return { ...identity("endpoint_node", { node_id, node_name, group_id, group_name }), ...nodeFields(r), endpoint_count: Number(endpoint_count) };
}

export interface EndpointNodeQuery extends ListQuery {
  ep_node_group_id?: string;
}

/** list-endpoint-node: search over name, id, group id, form factor and primary IP; newest first. */
export const endpointNodeList = defineList<EndpointNode, EndpointNodeSortColumn, EndpointNodeQuery>({
  ...nodeList("endpoint_node", ["ep_node_name", "ep_node_id", "ep_node_group_id", "admin_state", "op_state", "primary_ip"], {
    load: async (db, where) => (await selectNodes(db, where).orderBy(desc(endpointNodes.createdAt), desc(endpointNodes.epNodeId))).map(toNode),
    idOf: (n) => n.ep_node_id,
    notFound: endpointNodeNotFound,
  }),
});

/** get-endpoint-node-detail: the node and the endpoints that use it. */
export async function endpointNodeDetail(db: DbOrTx, accountId: string, epNodeId: string): Promise<EndpointNodeDetail> {
  const node = await endpointNodeList.one(db, accountId, epNodeId);
  const eps = await db
    .select({
      ep_id: endpoints.epId,
      ep_name: endpoints.epName,
      app_service_id: endpoints.appServiceId,
      deployment: endpoints.deployment,
      admin_state: endpoints.adminState,
      op_state: endpoints.opState,
      ip_addr: endpoints.ipAddr,
      created_at: endpoints.createdAt,
    })
    .from(endpoints)
    .where(and(eq(endpoints.accountId, accountId), eq(endpoints.epNodeId, epNodeId)))
    .orderBy(asc(endpoints.createdAt), asc(endpoints.epId));
  return { ...node, endpoints: eps.map((e) => ({ ...e, created_at: e.created_at.toISOString() })) };
}

export type CreateEndpointNodeInput =
  | { ep_node_name: string; new_ep_node_group: true; ep_node_group_name: string }
  | { ep_node_name: string; new_ep_node_group: false; ep_node_group_id: string };

/** create-endpoint-node: in a new group (by name; a name in use: 409) or an existing one (by id; unknown: 404). */
export async function createEndpointNode(db: Db, accountId: string, input: CreateEndpointNodeInput, id = newId("epn")) {
  return db.transaction(async (tx) => {
    const groupId = await groupForNewNode(input.new_ep_node_group ? { name: input.ep_node_group_name } : { id: input.ep_node_group_id }, {
      label: "Endpoint node group",
      idPrefix: "epg",
      insert: (epNodeGroupId, epNodeGroupName) => tx.insert(endpointNodeGroups).values({ epNodeGroupId, accountId, epNodeGroupName }),
      exists: async (groupId) => (await listEndpointNodeGroups(tx, accountId)).some((g) => g.ep_node_group_id === groupId),
      notFound: groupNotFound,
    });
    await tx.insert(endpointNodes).values({ epNodeId: id, accountId, epNodeName: input.ep_node_name, epNodeGroupId: groupId, primaryIp: privateAddressOf(id), opState: unregistered });
    return { ep_node_id: id, ep_node_group_id: groupId };
  });
}

const inUse = (msg: string): DetailItem => ({ loc: ["body", "ep_node_id"], msg, type: "in_use" });

/** remove-endpoint-node: refused (409, a list detail) while endpoints use the node. */
export async function removeEndpointNode(db: Db, accountId: string, epNodeId: string, epNodeGroupId: string) {
  await db.transaction(async (tx) => {
    const [node] = await tx
      .select({ group: endpointNodes.epNodeGroupId })
      .from(endpointNodes)
      .where(and(eq(endpointNodes.accountId, accountId), eq(endpointNodes.epNodeId, epNodeId)))
      .for("update")
      .limit(1);
    if (!node || node.group !== epNodeGroupId) throw endpointNodeNotFound();
    const using = await tx
      .select({ id: endpoints.epId, name: endpoints.epName })
      .from(endpoints)
      .where(and(eq(endpoints.accountId, accountId), eq(endpoints.epNodeId, epNodeId)))
      .orderBy(asc(endpoints.createdAt), asc(endpoints.epId));
    if (using.length) throw new ApiError(409, using.map((e) => inUse(`Endpoint ${e.name} (${e.id}) still uses this Endpoint Node: remove it first.`)));
    await tx.delete(endpointNodes).where(and(eq(endpointNodes.accountId, accountId), eq(endpointNodes.epNodeId, epNodeId)));
  });
}

/** configure-lan-interface: on with an IPv4 address and prefix, or off (the address kept). */
export async function configureLanInterface(db: DbOrTx, accountId: string, input: { node_id: string; enabled: boolean; primary_ipv4_address?: string }) {
  const values = input.enabled ? { lanInterfaceEnabled: true, lanInterfaceIpaddress: input.primary_ipv4_address ?? "" } : { lanInterfaceEnabled: false };
  if (!(await updateNode(db, "endpoint_node", accountId, input.node_id, values))) throw endpointNodeNotFound();
}

const ipItem = (msg: string): DetailItem => ({ loc: ["body", "secondary_ips"], msg, type: "value_error" });

/** add-endpoint-node-secondary-ips: adds the addresses; duplicates (in the list or already held) and the primary refused, named. */
export async function addSecondaryIps(db: Db, accountId: string, epNodeId: string, ips: string[], max: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [node] = await tx
      .select({ primary: endpointNodes.primaryIp, secondary: endpointNodes.secondaryIps })
      .from(endpointNodes)
      .where(and(eq(endpointNodes.accountId, accountId), eq(endpointNodes.epNodeId, epNodeId)))
      .for("update")
      .limit(1);
    if (!node) throw endpointNodeNotFound();
    // Repeats in the list are refused by the request (AddSecondaryIpsBody); the node's own addresses here.
    const seen = new Set(ips);
    const issues: DetailItem[] = secondaryIpConflicts([...seen], node).map(ipItem);
    const next = [...node.secondary, ...[...seen].filter((ip) => ip !== node.primary && !node.secondary.includes(ip))];
    if (next.length > max) issues.push(ipItem(`A node holds at most ${max} secondary IPs`));
    if (issues.length) throw new ApiError(422, issues);
    await tx.update(endpointNodes).set({ secondaryIps: next }).where(eq(endpointNodes.epNodeId, epNodeId));
    return next;
  });
}

// ---------------------------------------------------------------------------------------------
// Groups

/** get-endpoint-node-group-details: the group and its nodes. */
export async function endpointNodeGroupDetail(db: DbOrTx, accountId: string, groupId: string): Promise<EndpointNodeGroupDetail> {
  const groups = await listEndpointNodeGroups(db, accountId);
  const group = groups.find((g) => g.ep_node_group_id === groupId);
  if (!group) throw groupNotFound();
  const nodes = await nodesOfGroup(db, "endpoint_node", accountId, groupId);
  return { ...group, ep_nodes: nodes.map((n) => ({ ep_node_id: n.id, ep_node_name: n.name, op_state: n.op_state })) };
}

async function updateGroup(db: DbOrTx, accountId: string, groupId: string, values: Partial<typeof endpointNodeGroups.$inferInsert>) {
  const r = await db
    .update(endpointNodeGroups)
    .set(values)
    .where(and(eq(endpointNodeGroups.accountId, accountId), eq(endpointNodeGroups.epNodeGroupId, groupId)))
    .returning({ id: endpointNodeGroups.epNodeGroupId });
  if (!r.length) throw groupNotFound();
}

/** configure-dhcp-relay: on with the DHCP server's address, or off (the address kept for next time). */
export const configureDhcpRelay = (db: DbOrTx, accountId: string, b: { node_group_id: string; enabled: boolean; server_ip?: string }) =>
  updateGroup(db, accountId, b.node_group_id, b.enabled ? { dhcpRelayEnabled: true, dhcpRelayServerIp: b.server_ip ?? null } : { dhcpRelayEnabled: false });

/** configure-vrrp: on with the virtual IP, or off. */
export const configureVrrp = (db: DbOrTx, accountId: string, b: { node_group_id: string; enabled: boolean; virtual_ip?: string }) =>
  updateGroup(db, accountId, b.node_group_id, b.enabled ? { vrrpEnabled: true, vrrpVirtualIp: b.virtual_ip ?? null } : { vrrpEnabled: false });
