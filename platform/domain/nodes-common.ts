import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { pgErrorCode, type DbOrTx } from "../db/client.ts";
import { endpointNodes, serviceNodes } from "../db/schema.ts";
import type { Fleet } from "../fleet/index.ts";
import { type ApiError, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, listTable, numberColumn, textColumn } from "../lib/list.ts";
import type { FormFactor } from "../contract/nodes.ts";

/*
 * What both node kinds share (issue #28): finding a node of the account by id (node_id of
 * run-health-check, get-node-metrics, the form-factor calls), its form-factor fields as the
 * answers show them, and setting a form factor (which starts the registration clock once).
 */

export type NodeKind = "service_node" | "endpoint_node";

/** The op state of a node that has not registered yet (shown red, as anything but up). */
export const unregistered = "unregistered";

export const nodeNotFound = () => notFound("Node not found");
export const endpointNodeNotFound = () => notFound("Endpoint Node not found");
export const serviceNodeNotFound = () => notFound("Service Node not found");

/** A node of either kind, with what the form-factor and fleet calls need. */
export interface NodeRef {
  kind: NodeKind;
  id: string;
  name: string;
  groupId: string;
  formFactor: FormFactor | null;
  registeredAt: Date | null;
  registersAt: Date | null;
  opState: string;
  createdAt: Date;
  hostedVpcCidr: string;
}

/** Each kind's table and its id, name and group columns. */
const nodeTables = {
  service_node: { table: serviceNodes, id: serviceNodes.serviceNodeId, name: serviceNodes.serviceNodeName, groupId: serviceNodes.serviceNodeGroupId, sql: ["service_nodes", "service_node_id", "service_node_group_id", "service_node_groups", "service_node_group_name"] },
  endpoint_node: { table: endpointNodes, id: endpointNodes.epNodeId, name: endpointNodes.epNodeName, groupId: endpointNodes.epNodeGroupId, sql: ["endpoint_nodes", "ep_node_id", "ep_node_group_id", "endpoint_node_groups", "ep_node_group_name"] },
} as const;

/** The node `nodeId` of the account, of either kind (or of `only`); 404 otherwise. */
export async function findNode(db: DbOrTx, accountId: string, nodeId: string, only?: NodeKind): Promise<NodeRef> {
  for (const kind of ["service_node", "endpoint_node"] as const) {
    if (only && only !== kind) continue;
    const t = nodeTables[kind];
    const { formFactor, registeredAt, registersAt, opState, createdAt, hostedVpcCidr } = t.table;
    const [n] = await db
      .select({ id: t.id, name: t.name, groupId: t.groupId, formFactor, registeredAt, registersAt, opState, createdAt, hostedVpcCidr })
      .from(t.table)
      .where(and(eq(t.table.accountId, accountId), eq(t.id, nodeId)))
      .limit(1);
    if (n) return { kind, ...n };
  }
  throw only === "service_node" ? serviceNodeNotFound() : only === "endpoint_node" ? endpointNodeNotFound() : nodeNotFound();
}

type NodeTable = typeof serviceNodes | typeof endpointNodes;

/**
 * The columns both node tables share, selected under the names the answers (and formFactorFields)
 * read; the node's id, name, group id and group name as node_id, node_name, group_id, group_name
 * (the answers name them after the kind: `identity`).
 */
export function sharedNodeColumns(kind: NodeKind) {
  const { table: t, sql: names } = nodeTables[kind];
  const [table, , group, groups, groupName] = names;
  return {
    node_id: nodeTables[kind].id,
    node_name: nodeTables[kind].name,
    group_id: nodeTables[kind].groupId,
    // The code's own table and column names (never input): raw SQL is safe.
    group_name: sql<string | null>`(select g.${sql.raw(groupName)} from ${sql.raw(groups)} g where g.${sql.raw(group)} = ${sql.raw(`"${table}"."${group}"`)})`,
    ...stateColumns(t),
  };
}

const stateColumns = <T extends NodeTable>(t: T) => ({
  admin_state: t.adminState,
  admin_state_change_at: t.adminStateChangeAt,
  op_state: t.opState,
  op_state_change_at: t.opStateChangeAt,
  registered_at: t.registeredAt,
  account_id: t.accountId,
  created_at: t.createdAt,
  formFactor: t.formFactor,
  shippingAddr: t.shippingAddr,
  hostedRegion: t.hostedRegion,
  hostedVpcCidr: t.hostedVpcCidr,
  hostedPeerIp: t.hostedPeerIp,
  hostedPeerPrefix: t.hostedPeerPrefix,
  ovaFile: t.ovaFile,
  vpnConfigFile: t.vpnConfigFile,
});

/** The kind's names of the node's id, name, group id and group name in its answers. */
const identityNames = {
  service_node: ["service_node_id", "service_node_name", "service_node_group_id", "service_node_group_name"],
  endpoint_node: ["ep_node_id", "ep_node_name", "ep_node_group_id", "ep_node_group_name"],
} as const;

type IdentityOf<K extends NodeKind> = { [I in 0 | 1 | 2 | 3 as (typeof identityNames)[K][I]]: string };

/** The node's id, name, group id and group name (sharedNodeColumns' generic names) under the kind's own. */
export function identity<K extends NodeKind>(kind: K, r: { node_id: string; node_name: string; group_id: string; group_name: string | null }): IdentityOf<K> {
  const [id, name, groupId, groupName] = identityNames[kind];
  // why: the four keys are the kind's names of identityNames, which IdentityOf<K> spells out.
  return { [id]: r.node_id, [name]: r.node_name, [groupId]: r.group_id, [groupName]: r.group_name ?? "" } as IdentityOf<K>;
}

/** What sharedNodeColumns selects. */
type SharedNodeRow = { admin_state_change_at: Date; op_state_change_at: Date; registered_at: Date | null; created_at: Date } & FormFactorColumns;

/** An answer (EndpointNode, ServiceNode) from its selected row: the kind's own fields as selected, times as ISO text, the form-factor fields. */
export function nodeFields<R extends SharedNodeRow>(r: R) {
  const { admin_state_change_at, op_state_change_at, registered_at, created_at, formFactor: _f, shippingAddr: _s, hostedRegion: _r, hostedVpcCidr: _v, hostedPeerIp: _i, hostedPeerPrefix: _p, ovaFile: _o, vpnConfigFile: _c, ...own } = r;
  return {
    ...own,
    admin_state_change_at: admin_state_change_at.toISOString(),
    op_state_change_at: op_state_change_at.toISOString(),
    registered_at: registered_at?.toISOString() ?? null,
    created_at: created_at.toISOString(),
    ...formFactorFields(r),
  };
}

type GroupKey<K extends NodeKind> = (typeof nodeTables)[K]["sql"][2];

/**
 * A node list (alias n) of kind K: search text; the kind's `text` columns, form factor,
 * registration and creation sortable; newest first; its group id query parameter filters.
 * `load` reads the kind's answers under a condition (account and ids, or account and group).
 */
export function nodeList<K extends NodeKind, Row, const T extends string>(
  kind: K,
  text: readonly T[],
  o: { load: (db: DbOrTx, where: SQL | undefined) => Promise<Row[]>; idOf: (row: Row) => string; notFound: () => ApiError },
) {
  const t = nodeTables[kind];
  const [table, id, group] = t.sql as readonly [string, string, GroupKey<K>, string, string];
  const where = (accountId: string, cond?: SQL) => and(eq(t.table.accountId, accountId), cond);
  return {
    ...listTable(table, "n", id),
    search: [sql`n.search_text`],
    sortable: {
      ...columns("text", "n", text),
      ...columns("time", "n", ["created_at"]),
      form_factor: textColumn(sql`coalesce(n.form_factor, '')`),
      registered_at: numberColumn(sql`extract(epoch from n.registered_at)`),
    },
    defaultSort: "-created_at" as const,
    // `group` is the code's own column name (never input).
    filter: (_db: DbOrTx, _accountId: string, q: Partial<Record<GroupKey<K>, string>>) => (q[group] ? { where: [sql`${sql.raw(`n.${group}`)} = ${q[group]}`] } : {}),
    rows: (db: DbOrTx, accountId: string, ids: string[]) => o.load(db, where(accountId, inArray(t.id, ids))),
    all: (db: DbOrTx, accountId: string, q: Partial<Record<GroupKey<K>, string>>) => o.load(db, where(accountId, q[group] ? eq(t.groupId, q[group]) : undefined)),
    idOf: o.idOf,
    notFound: o.notFound,
  };
}

/** A node group's nodes (id, name, op state), oldest first. */
export function nodesOfGroup(db: DbOrTx, kind: NodeKind, accountId: string, groupId: string) {
  const t = nodeTables[kind];
  return db
    .select({ id: t.id, name: t.name, op_state: t.table.opState })
    .from(t.table)
    .where(and(eq(t.table.accountId, accountId), eq(t.groupId, groupId)))
    .orderBy(asc(t.table.createdAt), asc(t.id));
}

/** The group a new node goes in: a new one by `name` (a name in use: 409), or the account's group `id` (unknown: `notFound`). */
export async function groupForNewNode(
  group: { name: string } | { id: string },
  o: { label: string; idPrefix: string; insert: (id: string, name: string) => Promise<unknown>; exists: (id: string) => Promise<boolean>; notFound: () => ApiError },
): Promise<string> {
  if ("id" in group) {
    if (!(await o.exists(group.id))) throw o.notFound();
    return group.id;
  }
  const id = newId(o.idPrefix);
  try {
    await o.insert(id, group.name);
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw conflict(`${o.label} ${group.name} already exists.`);
    throw err;
  }
  return id;
}

/** The stored form-factor columns (both tables name them alike). */
export interface FormFactorColumns {
  formFactor: FormFactor | null;
  shippingAddr: string;
  hostedRegion: string;
  hostedVpcCidr: string;
  hostedPeerIp: string;
  hostedPeerPrefix: number | null;
  ovaFile: string | null;
  vpnConfigFile: string | null;
}

export const ovaPath = (fileName: string) => `/api/v1/download-node-ova/${encodeURIComponent(fileName)}`;
export const vpnPath = (fileName: string) => `/api/v1/download-hsn-vpn-config/${encodeURIComponent(fileName)}`;

/** The form-factor fields of an answer (EndpointNode, ServiceNode). */
export function formFactorFields(r: FormFactorColumns) {
  return {
    form_factor: r.formFactor,
    shipping_addr: r.shippingAddr,
    hosted_region: r.hostedRegion,
    hosted_vpc_cidr: r.hostedVpcCidr,
    hosted_peer_ip: r.hostedPeerIp,
    hosted_peer_prefix: r.hostedPeerPrefix,
    ova_prepared: r.ovaFile !== null,
    node_url: r.ovaFile === null ? null : ovaPath(r.ovaFile),
    vpn_config_file: r.vpnConfigFile,
  };
}

/** set-*-form-factor's values: the fields of its form factor, the others cleared. */
export interface FormFactorInput {
  form_factor: FormFactor;
  shipping_addr?: string;
  hosted_region?: string;
  hosted_vpc_cidr?: string;
  hosted_peer_ip?: string;
  hosted_peer_prefix?: number;
}

type NodeUpdate = Partial<typeof serviceNodes.$inferInsert & typeof endpointNodes.$inferInsert>;

/** Update one node of the account; false when there is none. */
export async function updateNode(db: DbOrTx, kind: NodeKind, accountId: string, id: string, values: NodeUpdate): Promise<boolean> {
  const t = nodeTables[kind];
  const r = await db
    .update(t.table)
    .set(values)
    .where(and(eq(t.table.accountId, accountId), eq(t.id, id)))
    .returning({ id: t.id });
  return r.length > 0;
}

/**
 * Set a node's form factor (and only its fields). The first form factor starts registration: the
 * fleet clock registers the node at `registers_at`, a short deterministic while after (docs/fleet.md
 * registrationEffect).
 */
export async function setFormFactor(db: DbOrTx, fleet: Fleet, accountId: string, node: NodeRef, input: FormFactorInput, now = new Date()) {
  const registersAt = new Date(fleet.registrationEffect({ id: node.id, kind: node.kind }, now).registered_at);
  const ok = await updateNode(db, node.kind, accountId, node.id, {
    formFactor: input.form_factor,
    formFactorSetAt: now,
    shippingAddr: input.form_factor === "hw" ? (input.shipping_addr ?? "") : "",
    hostedRegion: input.form_factor === "hosted_aws" ? (input.hosted_region ?? "") : "",
    hostedVpcCidr: input.form_factor === "hosted_aws" ? (input.hosted_vpc_cidr ?? "") : "",
    hostedPeerIp: input.form_factor === "hosted_aws" ? (input.hosted_peer_ip ?? "") : "",
    hostedPeerPrefix: input.form_factor === "hosted_aws" ? (input.hosted_peer_prefix ?? null) : null,
    // The first form factor's registration time stays.
    registersAt: node.registersAt ?? registersAt,
  });
  if (!ok) throw node.kind === "service_node" ? serviceNodeNotFound() : endpointNodeNotFound();
}

/** A private address for a new node, from its id: 10.x.y.z (x, y, z from the id's characters). */
export function privateAddressOf(id: string): string {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return `10.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1 === 255 ? 254 : (h & 0xfe) + 1}`;
}
