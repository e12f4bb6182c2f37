import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { appServices, contacts, endpointNodeGroups, endpointNodes, endpoints, hostings, userAgentEndpoints, userAgents } from "../db/schema.ts";
import { fleetKinds, sqlKindSource, type FleetObject } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, stepColumn, type ListQuery, listTable } from "../lib/list.ts";
import {
  sizes,
  sizeMbps,
  type EndpointRow as Endpoint,
  type EndpointDeployment,
  type EndpointDetail,
  type EndpointNodeGroup,
  type EndpointSession,
  type EndpointSortColumn,
  type EndpointUserAgent,
  type NetflowRow,
  type Size,
} from "../contract/endpoints.ts";
import { pgErrorCode, type DbOrTx } from "../db/client.ts";
import { contactList } from "./contacts.ts";
import { deleteOwnRow, ownRow, readOwnRow, updateOwnRow } from "../lib/own-rows.ts";
import { endpointMessages } from "../contract/messages.ts";

/*
 * Endpoints of an account (spec 1 §3 Endpoint, §5, §7 Endpoints) and the endpoint node groups the
 * create dialog uses (spec 2 §3). Plain functions taking the account id; every query is scoped to
 * it, so another account's ids answer 404. Traffic-derived answers come from the fleet.
 */

export const endpointNotFound = () => notFound("Endpoint not found");

// The fleet clock lists endpoints as traffic objects (they have no outages of their own) and may
// set their op state with a compare-and-set by time (docs/fleet.md).
fleetKinds.register(
  sqlKindSource({
    kind: "endpoint",
    table: "endpoints",
    id: "ep_id",
    accountId: "account_id",
    opState: "op_state",
    opStateChangeAt: "op_state_change_at",
    contractedMbps: `case size when 'small' then ${sizeMbps.small} when 'medium' then ${sizeMbps.medium} when 'large' then ${sizeMbps.large} when 'xlarge' then ${sizeMbps.xlarge} else ${sizeMbps.small} end`,
  }),
);

const fullName = (first: string | null, last: string | null) => (first === null && last === null ? null : `${first ?? ""} ${last ?? ""}`.trim());

/** The endpoint columns and the names the list shows beside them. */
function endpointSelect() {
  return {
    ep_id: endpoints.epId,
    ep_name: endpoints.epName,
    description: endpoints.description,
    account_id: endpoints.accountId,
    fqdn: endpoints.fqdn,
    ip_addr: endpoints.ipAddr,
    created_at: endpoints.createdAt,
    admin_state: endpoints.adminState,
    admin_state_change_at: endpoints.adminStateChangeAt,
    op_state: endpoints.opState,
    op_state_change_at: endpoints.opStateChangeAt,
    size: endpoints.size,
    hosting_id: endpoints.hostingId,
    app_service_id: endpoints.appServiceId,
    app_service_name: sql<string | null>`(select a.app_service_name from app_services a where a.app_service_id = "endpoints"."app_service_id")`,
    region: endpoints.region,
    consumer_principle: endpoints.consumerPrinciple,
    deployment: endpoints.deployment,
    approval_status: endpoints.approvalStatus,
    ep_node_id: endpoints.epNodeId,
    ep_node_group_id: endpoints.epNodeGroupId,
    ep_node_group_name: sql<string | null>`(select g.ep_node_group_name from endpoint_node_groups g where g.ep_node_group_id = "endpoints"."ep_node_group_id")`,
    network_mode_enabled: endpoints.networkModeEnabled,
    address_translation_enabled: endpoints.addressTranslationEnabled,
    bgp_enabled: endpoints.bgpEnabled,
    bgp_local_asn: endpoints.bgpLocalAsn,
    bgp_peer_asn: endpoints.bgpPeerAsn,
    bgp_local_ip: endpoints.bgpLocalIp,
    bgp_peer_ip: endpoints.bgpPeerIp,
    bgp_advertised_routes: endpoints.bgpAdvertisedRoutes,
    real_subnets: endpoints.realSubnets,
    virtual_subnets: endpoints.virtualSubnets,
    proxying_enabled: endpoints.proxyingEnabled,
    user_agent_dns_servers: endpoints.userAgentDnsServers,
    user_agent_cidrs: endpoints.userAgentCidrs,
    primary_contact_id: endpoints.primaryContactId,
    secondary_contact_id: endpoints.secondaryContactId,
    p_first: sql<string | null>`(select c.first_name from contacts c where c.contact_id = "endpoints"."primary_contact_id")`,
    p_last: sql<string | null>`(select c.last_name from contacts c where c.contact_id = "endpoints"."primary_contact_id")`,
    s_first: sql<string | null>`(select c.first_name from contacts c where c.contact_id = "endpoints"."secondary_contact_id")`,
    s_last: sql<string | null>`(select c.last_name from contacts c where c.contact_id = "endpoints"."secondary_contact_id")`,
  };
}

const endpointColumns = endpointSelect();

function selectEndpoints(db: DbOrTx, where: SQL | undefined) {
  return db.select(endpointColumns).from(endpoints).where(where);
}
type SelectedRow = Awaited<ReturnType<typeof selectEndpoints>>[number];

function toEndpoint(r: SelectedRow): Endpoint {
  const { p_first, p_last, s_first, s_last, ...rest } = r;
  return {
    ...rest,
    app_service_name: rest.app_service_name ?? "",
    ep_node_group_name: rest.ep_node_group_name ?? "",
    created_at: rest.created_at.toISOString(),
    admin_state_change_at: rest.admin_state_change_at.toISOString(),
    op_state_change_at: rest.op_state_change_at.toISOString(),
    bgp_local_asn: rest.bgp_local_asn === null ? null : Number(rest.bgp_local_asn),
    bgp_peer_asn: rest.bgp_peer_asn === null ? null : Number(rest.bgp_peer_asn),
    primary_contact: rest.primary_contact_id ? fullName(p_first, p_last) : null,
    secondary_contact: rest.secondary_contact_id ? fullName(s_first, s_last) : null,
  };
}

/** The endpoints of the account that `where` selects, as the list shows them, oldest first. */
export async function endpointsWhere(db: DbOrTx, accountId: string, where?: SQL): Promise<Endpoint[]> {
  const rows = await selectEndpoints(db, and(eq(endpoints.accountId, accountId), where)).orderBy(asc(endpoints.createdAt), asc(endpoints.epId));
  return rows.map(toEndpoint);
}

/** Every endpoint of the account, newest first (the spec's plain array). */
export async function listEndpoints(db: DbOrTx, accountId: string): Promise<Endpoint[]> {
  const rows = await selectEndpoints(db, eq(endpoints.accountId, accountId)).orderBy(desc(endpoints.createdAt), desc(endpoints.epId));
  return rows.map(toEndpoint);
}

/** The account's endpoints (search_text: name, id, deployment, app service, FQDN, address, region, description); newest first. */
export const endpointList = defineList<Endpoint, EndpointSortColumn>({
  ...listTable("endpoints", "e", "ep_id"),
  search: [sql`e.search_text`],
  sortable: {
    ...columns("text", "e", ["ep_name", "ep_id", "deployment", "app_service_id", "admin_state", "op_state", "approval_status"]),
    ...columns("time", "e", ["created_at"]),
    size: stepColumn(sql`e.size`, sizes),
  },
  defaultSort: "-created_at",
  rows: (db, accountId, ids) => endpointsWhere(db, accountId, inArray(endpoints.epId, ids)),
  idOf: (e) => e.ep_id,
  notFound: endpointNotFound,
  all: (db, accountId) => listEndpoints(db, accountId),
});

export const queryEndpoints = (db: DbOrTx, accountId: string, query: ListQuery) => endpointList.page(db, accountId, query);
export const exportEndpoints = (db: DbOrTx, accountId: string, query: ListQuery) => endpointList.batches(db, accountId, query);

// ---------------------------------------------------------------------------------------------
// One endpoint

const requireEndpoint = (db: DbOrTx, accountId: string, epId: string) =>
  readOwnRow(db, endpoints, endpoints.epId, accountId, epId, { deployment: endpoints.deployment, size: endpoints.size, proxying: endpoints.proxyingEnabled }, endpointNotFound);

/** The fleet's view of an endpoint: its id and contracted speed (its size). */
const fleetObject = (epId: string, size: string): FleetObject => ({ id: epId, kind: "endpoint", contractedMbps: sizeMbps[size as Size] ?? sizeMbps.small });

/** The user agents linked to an endpoint, their state from the fleet at `now`. */
export async function endpointUserAgents(deps: Pick<PlatformDeps, "db" | "fleet" | "config">, accountId: string, epId: string, now = Date.now()): Promise<EndpointUserAgent[]> {
  const rows = await deps.db
    .select({
      user_agent_id: userAgents.userAgentId,
      name: userAgents.name,
      email: userAgents.email,
      description: userAgents.description,
      admin_state: userAgents.adminState,
      created_at: userAgents.createdAt,
    })
    .from(userAgentEndpoints)
    .innerJoin(userAgents, eq(userAgents.userAgentId, userAgentEndpoints.userAgentId))
    .where(and(eq(userAgentEndpoints.epId, epId), eq(userAgents.accountId, accountId)))
    .orderBy(asc(userAgents.createdAt), asc(userAgents.userAgentId));
  const fleet = fleetOf(deps);
  return rows.map((r) => {
    const status = fleet.userAgentStatus({ id: r.user_agent_id, kind: "user_agent" }, now);
    return { ...r, created_at: r.created_at.toISOString(), ...status };
  });
}

export async function endpointDetail(deps: PlatformDeps, accountId: string, epId: string): Promise<EndpointDetail> {
  const endpoint = await endpointList.one(deps.db, accountId, epId);
  return { ...endpoint, user_agents: await endpointUserAgents(deps, accountId, epId) };
}

export interface CreateEndpointInput {
  ep_name: string;
  app_service_id: string;
  deployment: EndpointDeployment;
  description?: string;
  ep_node_id?: string;
  ep_node_group_id?: string;
  region?: string;
  consumer_principle?: string;
  real_subnets?: string[];
  bgp_enabled?: boolean;
  bgp_local_asn?: number;
  bgp_peer_asn?: number;
  bgp_peer_ip?: string;
}

/** Creates an endpoint of the account's app service (its primary hosting), pending approval. */
export async function createEndpoint(deps: PlatformDeps, accountId: string, input: CreateEndpointInput): Promise<string> {
  const epId = newId("ep");
  const db = deps.db;
  const usesNode = input.deployment === "onprem" || input.deployment === "network";
  const cloud = input.deployment === "aws" || input.deployment === "azure";
  await db.transaction(async (tx) => {
    const [service] = await tx
      .select({ id: appServices.appServiceId, fqdn: appServices.fqdn })
      .from(appServices)
      .where(ownRow(appServices, appServices.appServiceId, accountId, input.app_service_id))
      .limit(1);
    if (!service) throw notFound(`App service ${input.app_service_id} not found`);
    if (usesNode) {
      const [group] = await tx
        .select({ id: endpointNodeGroups.epNodeGroupId })
        .from(endpointNodeGroups)
        .where(and(eq(endpointNodeGroups.accountId, accountId), eq(endpointNodeGroups.epNodeGroupId, input.ep_node_group_id!)))
        .limit(1);
      if (!group) throw notFound(`Endpoint node group ${input.ep_node_group_id} not found`);
      // The node must exist in the account and belong to that group (issue 27 item 14: epn-nonexistent was accepted).
      const [node] = await tx
        .select({ group: endpointNodes.epNodeGroupId })
        .from(endpointNodes)
        .where(and(eq(endpointNodes.accountId, accountId), eq(endpointNodes.epNodeId, input.ep_node_id!)))
        .limit(1);
      const nodeIssue = !node ? `Endpoint node ${input.ep_node_id} not found` : node.group !== group.id ? `Endpoint node ${input.ep_node_id} is not in the chosen node group` : null;
      if (nodeIssue) throw new ApiError(422, [{ loc: ["body", "ep_node_id"], msg: nodeIssue, type: "value_error" }]);
    }
    const [hosting] = await tx
      .select({ id: hostings.hostingId })
      .from(hostings)
      .where(and(eq(hostings.appServiceId, service.id), eq(hostings.accountId, accountId)))
      .orderBy(asc(hostings.priorityId))
      .limit(1);
    const network = input.deployment === "network";
    await tx.insert(endpoints).values({
      epId,
      accountId,
      epName: input.ep_name,
      description: input.description ?? "",
      deployment: input.deployment,
      appServiceId: service.id,
      hostingId: hosting?.id ?? null,
      fqdn: service.fqdn,
      // The address the endpoint answers on: one per endpoint in the provider's block (docs/fleet.md).
      ipAddr: endpointAddress(epId),
      size: sizes[0],
      region: cloud ? (input.region ?? "") : "",
      consumerPrinciple: cloud ? (input.consumer_principle ?? "") : "",
      epNodeId: usesNode ? input.ep_node_id! : null,
      epNodeGroupId: usesNode ? input.ep_node_group_id! : null,
      networkModeEnabled: network,
      realSubnets: network ? (input.real_subnets ?? []) : [],
      bgpEnabled: network && Boolean(input.bgp_enabled),
      bgpLocalAsn: network && input.bgp_enabled ? input.bgp_local_asn! : null,
      bgpPeerAsn: network && input.bgp_enabled ? input.bgp_peer_asn! : null,
      bgpPeerIp: network && input.bgp_enabled ? input.bgp_peer_ip! : "",
      opState: "up",
    });
  });
  return epId;
}

/** A stable address for the endpoint in 100.64.0.0/10 (shared address space, never routed on the internet). */
function endpointAddress(epId: string): string {
  let h = 2166136261;
  for (let i = 0; i < epId.length; i++) h = Math.imul(h ^ epId.charCodeAt(i), 16777619) >>> 0;
  return `100.${64 + ((h >>> 16) & 63)}.${(h >>> 8) & 255}.${1 + ((h & 255) % 254)}`;
}

/** Changes the account's endpoint; another account's or an unknown id: 404. */
export const updateEndpoint = (db: DbOrTx, accountId: string, epId: string, set: Partial<typeof endpoints.$inferInsert>) =>
  updateOwnRow(db, endpoints, endpoints.epId, accountId, epId, set, endpointNotFound);

export const setEndpointName = (db: Db, accountId: string, epId: string, name: string) => updateEndpoint(db, accountId, epId, { epName: name });
export const setEndpointDescription = (db: Db, accountId: string, epId: string, description: string) => updateEndpoint(db, accountId, epId, { description });

/** Edit Agent Details: agent endpoints only. */
export async function editAgentDetails(db: Db, accountId: string, input: { ep_id: string; user_agent_dns_servers: string[]; user_agent_cidrs: string[] }) {
  const ep = await requireEndpoint(db, accountId, input.ep_id);
  if (ep.deployment !== "agent") throw badRequest(endpointMessages.agentOnly);
  await updateEndpoint(db, accountId, input.ep_id, { userAgentDnsServers: input.user_agent_dns_servers, userAgentCidrs: input.user_agent_cidrs });
}

/** One step up or down the documented sizes; refused past either end and for onprem. Answers the new size. */
export async function resizeEndpoint(db: Db, accountId: string, epId: string, direction: "up" | "down"): Promise<Size> {
  const ep = await requireEndpoint(db, accountId, epId);
  if (ep.deployment === "onprem") throw badRequest(endpointMessages.onpremResize);
  const i = sizes.indexOf(ep.size);
  const next = sizes[i + (direction === "up" ? 1 : -1)];
  if (i < 0 || next === undefined) {
    throw badRequest(direction === "up" ? `The endpoint is already at the largest size (${ep.size}).` : `The endpoint is already at the smallest size (${ep.size}).`);
  }
  // Compare-and-set on the size read: two resizes at once move one step each, never past an end.
  const updated = await db
    .update(endpoints)
    .set({ size: next })
    .where(and(eq(endpoints.accountId, accountId), eq(endpoints.epId, epId), eq(endpoints.size, ep.size)))
    .returning({ id: endpoints.epId });
  if (updated.length === 0) throw conflict("The endpoint was resized at the same time. Try again.");
  return next;
}

export async function configureProxying(db: Db, accountId: string, epId: string, enabled: boolean) {
  await updateEndpoint(db, accountId, epId, { proxyingEnabled: enabled });
}

/** Reset: the endpoint's data path restarts; it is administratively and operationally up from now. */
export async function resetEndpoint(db: Db, accountId: string, epId: string) {
  await updateEndpoint(db, accountId, epId, { adminState: "up", adminStateChangeAt: sql`now()` as never, opState: "up", opStateChangeAt: sql`now()` as never });
}

export const removeEndpoint = (db: Db, accountId: string, epId: string) => deleteOwnRow(db, endpoints, endpoints.epId, accountId, epId, endpointNotFound);

// ---------------------------------------------------------------------------------------------
// Contacts

export async function setEndpointContact(db: Db, accountId: string, input: { ep_id: string; primary_contact_id: string; secondary_contact_id: string }) {
  const wanted = [input.primary_contact_id, input.secondary_contact_id].filter((id) => id !== "");
  await requireEndpoint(db, accountId, input.ep_id);
  if (wanted.length > 0) {
    const found = await db
      .select({ id: contacts.contactId })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), inArray(contacts.contactId, wanted)));
    const known = new Set(found.map((r) => r.id));
    const missing = wanted.find((id) => !known.has(id));
    if (missing) throw notFound(`Contact ${missing} not found`);
  }
  try {
    await updateEndpoint(db, accountId, input.ep_id, {
      primaryContactId: input.primary_contact_id || null,
      secondaryContactId: input.secondary_contact_id || null,
    });
  } catch (err) {
    if (pgErrorCode(err) === "23503") throw notFound("Contact not found");
    throw err;
  }
}

/** get-contact-by-ep-id: the primary (business) and secondary (technical) contact that are set. */
export async function contactsOfEndpoint(db: DbOrTx, accountId: string, epId: string) {
  const ep = await readOwnRow(db, endpoints, endpoints.epId, accountId, epId, { p: endpoints.primaryContactId, s: endpoints.secondaryContactId }, endpointNotFound);
  const roles = [
    [ep.p, "business"],
    [ep.s, "technical"],
  ] as const;
  const found = await contactList.byIds(db, accountId, roles.flatMap(([id]) => (id ? [id] : [])));
  // As the spec's call answers them: the role on this endpoint as the type, no entity.
  return roles.flatMap(([id, type]) => found.filter((c) => c.contact_id === id).map((c) => ({ ...c, contact_type: type, entity_name: "" })));
}

// ---------------------------------------------------------------------------------------------
// Traffic (platform/fleet)

function notForAgents(deployment: string, what: string) {
  if (deployment === "agent") throw badRequest(`${what} is not available for agent endpoints.`);
}

export async function measureEndpointLatency(deps: PlatformDeps, accountId: string, epId: string): Promise<Record<string, string | number | null>> {
  const ep = await requireEndpoint(deps.db, accountId, epId);
  notForAgents(ep.deployment, "Test Reachability");
  const m = fleetOf(deps).measureLatency(fleetObject(epId, ep.size), Date.now());
  return { ep_id: epId, ...m };
}

export async function endpointSessions(deps: PlatformDeps, accountId: string, epId: string): Promise<EndpointSession[]> {
  const ep = await requireEndpoint(deps.db, accountId, epId);
  notForAgents(ep.deployment, "Show Flows");
  return fleetOf(deps).endpointSessions(fleetObject(epId, ep.size), Date.now());
}

export async function endpointNetflows(deps: PlatformDeps, accountId: string, epId: string, range: { start: number; end: number }): Promise<NetflowRow[]> {
  const ep = await requireEndpoint(deps.db, accountId, epId);
  try {
    return fleetOf(deps).netflows(fleetObject(epId, ep.size), range, Date.now());
  } catch (err) {
    if (err instanceof RangeError) throw new ApiError(422, err.message);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Endpoint node groups (spec 2 §3)

export async function listEndpointNodeGroups(db: DbOrTx, accountId: string): Promise<EndpointNodeGroup[]> {
  const rows = await db
    .select()
    .from(endpointNodeGroups)
    .where(eq(endpointNodeGroups.accountId, accountId))
    .orderBy(asc(endpointNodeGroups.epNodeGroupName), asc(endpointNodeGroups.epNodeGroupId));
  return rows.map((g) => ({
    ep_node_group_id: g.epNodeGroupId,
    ep_node_group_name: g.epNodeGroupName,
    created_at: g.createdAt.toISOString(),
    dhcp_relay_enabled: g.dhcpRelayEnabled,
    dhcp_relay_server_ip: g.dhcpRelayServerIp,
    vrrp_enabled: g.vrrpEnabled,
    vrrp_virtual_ip: g.vrrpVirtualIp,
  }));
}

export async function createEndpointNodeGroup(db: Db, accountId: string, input: { ep_node_group_name: string }): Promise<{ ep_node_group_id: string }> {
  const id = newId("epg");
  try {
    await db.insert(endpointNodeGroups).values({ epNodeGroupId: id, accountId, epNodeGroupName: input.ep_node_group_name });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw conflict(`Endpoint node group ${input.ep_node_group_name} already exists.`);
    throw err;
  }
  return { ep_node_group_id: id };
}
