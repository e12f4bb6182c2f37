import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { appServices, contacts, endpoints, hostings, serviceNodeGroups } from "../db/schema.ts";
import {
  appServiceProtocols,
  sizeMbps,
  sizes,
  type AppService,
  type AppServiceDeployment,
  type AppServiceSortColumn,
  type Hosting,
  type ResizeDirection,
  type ServiceNodeGroup,
  type Size,
  type TopTalker,
} from "../contract/app-services.ts";
import type { Endpoint } from "../contract/endpoints.ts";
import { fleetKinds, sqlKindSource } from "../fleet/kinds.ts";
import type { Fleet } from "../fleet/index.ts";
import type { FleetObject } from "../fleet/model.ts";
import { ApiError, notFound, type DetailItem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, jsonRows, stepColumn, type ListQuery, listTable } from "../lib/list.ts";
import { pgErrorCode, type DbOrTx } from "../db/client.ts";
import { endpointsWhere, updateEndpoint } from "./endpoints.ts";
import { regionSite } from "./regions.ts";
import { ownRow, readOwnRow, updateOwnRow } from "../lib/own-rows.ts";
import { appServiceMessages, deploymentMessages } from "../contract/messages.ts";

/*
 * App services of an account (spec 1 §3 AppService, Hosting), their hostings, the service node
 * groups they are placed on, and what the endpoints that consume them do (platform/fleet).
 * Every function takes the caller's account id: another account's ids answer 404.
 */

export const appServiceNotFound = () => notFound("App Service not found");
export const hostingNotFound = () => notFound("Hosting not found");
export const serviceNodeGroupNotFound = () => notFound("Service Node Group not found");

// The clock keeps op_state with a compare-and-set (docs/fleet.md); app services have no outages of
// their own, so this only settles rows whose stored state differs from the simulation's.
fleetKinds.register(
  sqlKindSource({
    kind: "app_service",
    table: "app_services",
    id: "app_service_id",
    accountId: "account_id",
    opState: "op_state",
    opStateChangeAt: "op_state_change_at",
    contractedMbps: "case size when 'small' then 100 when 'medium' then 500 when 'large' then 1000 when 'xlarge' then 5000 else 100 end",
  }),
);

// ---------------------------------------------------------------------------------------------
// Reading

const primary = alias(contacts, "primary_contact");
const secondary = alias(contacts, "secondary_contact");
const contactName = (c: typeof primary | typeof secondary) =>
  sql<string | null>`case when ${c.contactId} is null then null else trim(${c.firstName} || ' ' || ${c.lastName}) end`;

const appServiceColumns = {
  app_service_id: appServices.appServiceId,
  app_service_name: appServices.appServiceName,
  account_id: appServices.accountId,
  description: appServices.description,
  deployment: appServices.deployment,
  fqdn: appServices.fqdn,
  proto: appServices.proto,
  port: appServices.port,
  region: appServices.region,
  cloud_endpoint_service_name: appServices.cloudEndpointServiceName,
  service_node_group_id: appServices.serviceNodeGroupId,
  admin_state: appServices.adminState,
  op_state: appServices.opState,
  size: appServices.size,
  health: appServices.health,
  created_at: appServices.createdAt,
  admin_state_change_at: appServices.adminStateChangeAt,
  op_state_change_at: appServices.opStateChangeAt,
  open_ai_private_link: appServices.openAiPrivateLink,
  private_endpoint_ip_address: appServices.privateEndpointIpAddress,
  azure_user_email: appServices.azureUserEmail,
  local_vnet_resource_id: appServices.localVnetResourceId,
  remote_vnet_resource_id: appServices.remoteVnetResourceId,
  network_mode_enabled: appServices.networkModeEnabled,
  bgp_enabled: appServices.bgpEnabled,
  address_translation_enabled: appServices.addressTranslationEnabled,
  bgp_local_asn: appServices.bgpLocalAsn,
  bgp_peer_asn: appServices.bgpPeerAsn,
  bgp_local_ip: appServices.bgpLocalIp,
  bgp_peer_ip: appServices.bgpPeerIp,
  virtual_subnet_pools: appServices.virtualSubnetPools,
  real_subnets: appServices.realSubnets,
  virtual_subnets: appServices.virtualSubnets,
  primary_contact_id: appServices.primaryContactId,
  primary_contact: contactName(primary),
  secondary_contact_id: appServices.secondaryContactId,
  secondary_contact: contactName(secondary),
};

// Each column under its key, so the rows come back as JSON objects (jsonRows).
const appServiceJsonColumns = Object.fromEntries(Object.entries(appServiceColumns).map(([key, column]) => [key, sql`${column}`.as(key)]));

const iso = (t: string) => new Date(t).toISOString();

/** A row as json_agg wrote it: timestamps in Postgres's text form, made ISO here. */
function toAppService(r: AppService): AppService {
  return {
    ...r,
    port: r.port === null ? null : Number(r.port),
    health: r.health === null ? null : Number(r.health),
    bgp_local_asn: r.bgp_local_asn === null ? null : Number(r.bgp_local_asn),
    bgp_peer_asn: r.bgp_peer_asn === null ? null : Number(r.bgp_peer_asn),
    created_at: iso(r.created_at),
    admin_state_change_at: iso(r.admin_state_change_at),
    op_state_change_at: iso(r.op_state_change_at),
  };
}

async function appServicesWhere(db: DbOrTx, where: SQL | undefined) {
  const query = db
    .select(appServiceJsonColumns)
    .from(appServices)
    .leftJoin(primary, eq(primary.contactId, appServices.primaryContactId))
    .leftJoin(secondary, eq(secondary.contactId, appServices.secondaryContactId))
    .where(where);
  const rows = await jsonRows<AppService>(db, query, sql`x.created_at, x.app_service_id`);
  return rows.map(toAppService);
}

/** Every app service of the account, oldest first (the spec's array). */
export function listAppServices(db: DbOrTx, accountId: string): Promise<AppService[]> {
  return appServicesWhere(db, eq(appServices.accountId, accountId));
}

export const appServiceDetail = (db: DbOrTx, accountId: string, appServiceId: string): Promise<AppService> => appServiceList.one(db, accountId, appServiceId);

const requireAppService = (db: DbOrTx, accountId: string, appServiceId: string) =>
  readOwnRow(db, appServices, appServices.appServiceId, accountId, appServiceId, { id: appServices.appServiceId, deployment: appServices.deployment, size: appServices.size, region: appServices.region }, appServiceNotFound);

/** The account's app services: search in name, id, deployment, protocol, FQDN, region, description. */
export const appServiceList = defineList<AppService, AppServiceSortColumn>({
  ...listTable("app_services", "a", "app_service_id"),
  search: [sql`a.search_text`],
  sortable: {
    ...columns("text", "a", ["app_service_name", "app_service_id", "deployment", "admin_state", "op_state", "proto"]),
    ...columns("number", "a", ["health", "port"]),
    ...columns("time", "a", ["created_at"]),
    size: stepColumn(sql`a.size`, sizes),
  },
  defaultSort: "created_at",
  rows: (db, accountId, ids) => appServicesWhere(db, and(eq(appServices.accountId, accountId), inArray(appServices.appServiceId, ids))),
  idOf: (a) => a.app_service_id,
  notFound: appServiceNotFound,
  all: (db, accountId) => listAppServices(db, accountId),
});

/** One page of the account's app services, searched and sorted in SQL. */
export const queryAppServices = (db: DbOrTx, accountId: string, query: ListQuery) => appServiceList.page(db, accountId, query);

/** Every app service the search selects, in the list's order, in batches (CSV export). */
export const exportAppServices = (db: DbOrTx, accountId: string, query: ListQuery) => appServiceList.batches(db, accountId, query);

// ---------------------------------------------------------------------------------------------
// Service node groups (spec 2 §3); the nodes issue adds nodes and certificates.

export async function listServiceNodeGroups(db: DbOrTx, accountId: string): Promise<ServiceNodeGroup[]> {
  const rows = await db
    .select({
      service_node_group_id: serviceNodeGroups.serviceNodeGroupId,
      service_node_group_name: serviceNodeGroups.serviceNodeGroupName,
      external_certificate: serviceNodeGroups.externalCertificate,
      created_at: serviceNodeGroups.createdAt,
    })
    .from(serviceNodeGroups)
    .where(eq(serviceNodeGroups.accountId, accountId))
    .orderBy(asc(serviceNodeGroups.createdAt), asc(serviceNodeGroups.serviceNodeGroupId));
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

export async function createServiceNodeGroup(db: DbOrTx, accountId: string, name: string): Promise<string> {
  const id = newId("sng");
  try {
    await db.insert(serviceNodeGroups).values({ serviceNodeGroupId: id, accountId, serviceNodeGroupName: name });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw new ApiError(409, `A Service Node Group named ${name} already exists.`);
    throw err;
  }
  return id;
}

async function requireServiceNodeGroup(db: DbOrTx, accountId: string, id: string, field: string) {
  const [row] = await db
    .select({ id: serviceNodeGroups.serviceNodeGroupId })
    .from(serviceNodeGroups)
    .where(ownRow(serviceNodeGroups, serviceNodeGroups.serviceNodeGroupId, accountId, id))
    .limit(1);
  if (!row) throw new ApiError(404, [{ loc: ["body", field], msg: "Service Node Group not found", type: "not_found" }]);
}

// ---------------------------------------------------------------------------------------------
// Create and edit

/** A create-app-service body after the route's validation (spec 1 §5). */
export interface CreateAppServiceInput {
  app_service_name: string;
  description?: string;
  location: AppServiceDeployment;
  region?: string;
  cloud_endpoint_service_name?: string;
  proto?: string;
  port?: number;
  fqdn?: string;
  service_node_group_id?: string;
  real_subnets?: string[];
  network_mode_enabled?: boolean;
  address_translation_enabled?: boolean;
  virtual_subnet_pools?: string[];
  bgp_enabled?: boolean;
  bgp_local_asn?: number;
  bgp_peer_asn?: number;
  bgp_peer_ip?: string;
  open_ai_private_link?: boolean;
  private_endpoint_ip_address?: string;
  azure_user_email?: string;
  remote_vnet_resource_id?: string;
}

/** Virtual subnets handed out from the pools, one per real subnet of the same prefix length (address translation). */
export function virtualSubnetsFor(realSubnets: string[], pools: string[]): string[] {
  const out: string[] = [];
  const pool = pools[0];
  if (!pool) return out;
  const [base, bits] = pool.split("/");
  const parts = (base ?? "").split(".").map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n))) return out;
  let next = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  const poolEnd = next + 2 ** (32 - Number(bits)) - 1;
  for (const real of realSubnets) {
    const prefix = Number(real.split("/")[1]);
    if (!real.includes(".") || !(prefix >= Number(bits) && prefix <= 32)) continue;
    const blockSize = 2 ** (32 - prefix);
    next = Math.ceil(next / blockSize) * blockSize;
    if (next + blockSize - 1 > poolEnd) break;
    out.push(`${[next >>> 24, (next >>> 16) & 255, (next >>> 8) & 255, next & 255].join(".")}/${prefix}`);
    next += blockSize;
  }
  return out;
}

export async function createAppService(db: Db, fleet: Fleet, accountId: string, input: CreateAppServiceInput): Promise<string> {
  const d = input.location;
  if (input.service_node_group_id && (d === "onprem" || d === "network")) await requireServiceNodeGroup(db, accountId, input.service_node_group_id, "service_node_group_id");
  const appServiceId = newId("as");
  const isNetwork = d === "network";
  const translation = isNetwork && !!input.address_translation_enabled;
  const bgp = isNetwork && !!input.bgp_enabled;
  const realSubnets = isNetwork ? (input.real_subnets ?? []) : [];
  const pools = translation ? (input.virtual_subnet_pools ?? []) : [];
  const values = {
    appServiceId,
    accountId,
    appServiceName: input.app_service_name,
    description: input.description ?? "",
    deployment: d,
    fqdn: d === "onprem" ? (input.fqdn ?? "") : "",
    proto: d === "aws" ? "tcp" : d === "network" ? "" : (input.proto ?? ""),
    port: d === "network" ? null : (input.port ?? null),
    region: d === "aws" || d === "azure" ? (input.region ?? "") : "",
    cloudEndpointServiceName: d === "aws" || (d === "azure" && !input.open_ai_private_link) ? (input.cloud_endpoint_service_name ?? "") : "",
    serviceNodeGroupId: d === "onprem" || d === "network" ? (input.service_node_group_id ?? null) : null,
    openAiPrivateLink: d === "azure" && !!input.open_ai_private_link,
    privateEndpointIpAddress: d === "azure" && input.open_ai_private_link ? (input.private_endpoint_ip_address ?? "") : "",
    azureUserEmail: d === "azure" && input.open_ai_private_link ? (input.azure_user_email ?? "") : "",
    remoteVnetResourceId: d === "azure" && input.open_ai_private_link ? (input.remote_vnet_resource_id ?? "") : "",
    networkModeEnabled: isNetwork,
    addressTranslationEnabled: translation,
    bgpEnabled: bgp,
    bgpLocalAsn: bgp ? (input.bgp_local_asn ?? null) : null,
    bgpPeerAsn: bgp ? (input.bgp_peer_asn ?? null) : null,
    bgpPeerIp: bgp ? (input.bgp_peer_ip ?? "") : "",
    realSubnets,
    virtualSubnetPools: pools,
    virtualSubnets: translation ? virtualSubnetsFor(realSubnets, pools) : [],
    size: "small" as Size,
  };
  const provider = d === "aws" || d === "azure" ? d : "onprem";
  const health = healthNow(fleet, { id: appServiceId, kind: "app_service", ...site(provider, values.region), contractedMbps: sizeMbps.small });
  try {
    await db.transaction(async (tx) => {
      await tx.insert(appServices).values({ ...values, health });
      await tx.insert(hostings).values({
        hostingId: newId("hst"),
        appServiceId,
        accountId,
        priorityId: 1,
        hostingType: provider === "onprem" ? "onprem" : "cloud",
        serviceProvider: provider,
        region: values.region,
        cloudEndpointServiceName: values.cloudEndpointServiceName,
        fqdn: values.fqdn,
        serviceNodeGroupId: values.serviceNodeGroupId,
        size: "small",
        health,
      });
    });
  } catch (err) {
    if (pgErrorCode(err) === "23503") throw serviceNodeGroupNotFound();
    throw err;
  }
  return appServiceId;
}

/** Changes the account's app service; another account's or an unknown id: 404. */
const updateAppService = (db: DbOrTx, accountId: string, appServiceId: string, set: Partial<typeof appServices.$inferInsert>) =>
  updateOwnRow(db, appServices, appServices.appServiceId, accountId, appServiceId, set, appServiceNotFound);

export const setAppServiceName = (db: DbOrTx, accountId: string, appServiceId: string, name: string) => updateAppService(db, accountId, appServiceId, { appServiceName: name });
export const setAppServiceDescription = (db: DbOrTx, accountId: string, appServiceId: string, description: string) =>
  updateAppService(db, accountId, appServiceId, { description });

const field = (name: string, msg: string, type = "value_error"): DetailItem => ({ loc: ["body", name], msg, type });

/** edit-app-service: protocol, port and FQDN, as the deployment allows (aws is TCP only; network has none). */
export async function editAppService(db: DbOrTx, accountId: string, input: { app_service_id: string; proto?: string; port?: number; fqdn?: string }) {
  const as = await requireAppService(db, accountId, input.app_service_id);
  const d = as.deployment;
  const issues: DetailItem[] = [];
  const allowed: readonly string[] = appServiceProtocols[d];
  if (d === "network") issues.push(field("proto", "A network App Service has no protocol, port or FQDN to edit."));
  else if (input.proto !== undefined && !allowed.includes(input.proto)) issues.push(field("proto", `Protocol must be one of: ${allowed.join(", ")}`));
  if (input.fqdn !== undefined && input.fqdn !== "" && d !== "onprem") issues.push(field("fqdn", "Only an onprem App Service has an FQDN."));
  if (d === "onprem" && input.fqdn === "") issues.push(field("fqdn", deploymentMessages.fqdnRequired));
  if (issues.length) throw new ApiError(422, issues);
  await db
    .update(appServices)
    .set({ proto: input.proto, port: input.port, fqdn: d === "onprem" ? input.fqdn : undefined })
    .where(ownRow(appServices, appServices.appServiceId, accountId, input.app_service_id));
  if (d === "onprem" && input.fqdn !== undefined) {
    await db.update(hostings).set({ fqdn: input.fqdn }).where(and(eq(hostings.appServiceId, input.app_service_id), eq(hostings.priorityId, 1)));
  }
}

/** set-app-service-contact: the business (primary) and technical (secondary) contact; '' or null clears one. */
export async function setAppServiceContacts(
  db: DbOrTx,
  accountId: string,
  input: { app_service_id: string; primary_contact_id?: string | null; secondary_contact_id?: string | null },
) {
  await requireAppService(db, accountId, input.app_service_id);
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(eq(contacts.accountId, accountId));
  if (Number(n) === 0) throw new ApiError(400, "Missing Contacts: this account has no contacts yet. Create a contact on the Contacts page first.");
  const wanted = [input.primary_contact_id, input.secondary_contact_id].filter((x): x is string => !!x);
  if (wanted.length) {
    const found = await db
      .select({ id: contacts.contactId })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), inArray(contacts.contactId, wanted)));
    const have = new Set(found.map((f) => f.id));
    const issues: DetailItem[] = [];
    if (input.primary_contact_id && !have.has(input.primary_contact_id)) issues.push(field("primary_contact_id", "Contact not found", "not_found"));
    if (input.secondary_contact_id && !have.has(input.secondary_contact_id)) issues.push(field("secondary_contact_id", "Contact not found", "not_found"));
    if (issues.length) throw new ApiError(404, issues);
  }
  await db
    .update(appServices)
    .set({
      primaryContactId: input.primary_contact_id === undefined ? undefined : input.primary_contact_id || null,
      secondaryContactId: input.secondary_contact_id === undefined ? undefined : input.secondary_contact_id || null,
    })
    .where(ownRow(appServices, appServices.appServiceId, accountId, input.app_service_id));
}

/** One step up or down; refused past either end, and for onprem. The primary hosting's size is the service's. */
export async function resizeAppService(db: Db, accountId: string, input: { app_service_id: string; hosting_id: string; direction: ResizeDirection }) {
  const as = await requireAppService(db, accountId, input.app_service_id);
  if (as.deployment === "onprem") throw new ApiError(400, appServiceMessages.onpremResize);
  const [h] = await db
    .select({ size: hostings.size, priority: hostings.priorityId })
    .from(hostings)
    .where(and(eq(hostings.accountId, accountId), eq(hostings.appServiceId, input.app_service_id), eq(hostings.hostingId, input.hosting_id)))
    .limit(1);
  if (!h) throw hostingNotFound();
  const step = sizes.indexOf(h.size);
  const next = step + (input.direction === "up" ? 1 : -1);
  if (next >= sizes.length) throw new ApiError(400, `The hosting is already at the largest size (${sizes[sizes.length - 1]}).`);
  if (next < 0) throw new ApiError(400, `The hosting is already at the smallest size (${sizes[0]}).`);
  const size = sizes[next]!;
  await db.transaction(async (tx) => {
    // Compare-and-set on the size read, so two resizes at once move two steps or refuse, never one lost.
    const done = await tx
      .update(hostings)
      .set({ size })
      .where(and(eq(hostings.hostingId, input.hosting_id), eq(hostings.size, h.size)))
      .returning({ id: hostings.hostingId });
    if (done.length === 0) throw new ApiError(409, "The hosting was resized meanwhile; try again.");
    if (h.priority === 1) await tx.update(appServices).set({ size }).where(eq(appServices.appServiceId, input.app_service_id));
  });
  return size;
}

/** Refused with a list detail naming every endpoint that still uses the app service. */
export async function removeAppService(db: Db, accountId: string, appServiceId: string) {
  await requireAppService(db, accountId, appServiceId);
  const using = await db
    .select({ id: endpoints.epId, name: endpoints.epName })
    .from(endpoints)
    .where(and(eq(endpoints.accountId, accountId), eq(endpoints.appServiceId, appServiceId)))
    .orderBy(asc(endpoints.createdAt), asc(endpoints.epId));
  if (using.length) {
    throw new ApiError(
      409,
      using.map((e) => field("app_service_id", `Endpoint ${e.name} (${e.id}) still uses this App Service: remove it first.`, "in_use")),
    );
  }
  try {
    const r = await db
      .delete(appServices)
      .where(ownRow(appServices, appServices.appServiceId, accountId, appServiceId))
      .returning({ id: appServices.appServiceId });
    if (r.length === 0) throw appServiceNotFound();
  } catch (err) {
    // An endpoint was created meanwhile (endpoints.app_service_id is ON DELETE RESTRICT).
    if (pgErrorCode(err) === "23503") throw new ApiError(409, [field("app_service_id", "An endpoint still uses this App Service: remove it first.", "in_use")]);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Endpoints of an app service

/** get-app-service-endpoints: the endpoints that consume the app service, oldest first (their stored fields). */
export async function appServiceEndpoints(db: DbOrTx, accountId: string, appServiceId: string): Promise<Endpoint[]> {
  await requireAppService(db, accountId, appServiceId);
  const rows = await endpointsWhere(db, accountId, eq(endpoints.appServiceId, appServiceId));
  return rows.map(({ app_service_name: _service, ep_node_group_name: _group, ...endpoint }) => endpoint);
}

/** approve-endpoint / reject-endpoint: the endpoint's request to consume its app service. */
export const setEndpointApproval = (db: DbOrTx, accountId: string, epId: string, status: "approved" | "rejected") =>
  updateEndpoint(db, accountId, epId, { approvalStatus: status });

// ---------------------------------------------------------------------------------------------
// Hostings

const hostingColumns = {
  hosting_id: hostings.hostingId,
  app_service_id: hostings.appServiceId,
  admin_state: hostings.adminState,
  op_state: hostings.opState,
  priority_id: hostings.priorityId,
  hosting_type: hostings.hostingType,
  region: hostings.region,
  service_provider: hostings.serviceProvider,
  cloud_endpoint_service_name: hostings.cloudEndpointServiceName,
  fqdn: hostings.fqdn,
  service_node_group_id: hostings.serviceNodeGroupId,
  size: hostings.size,
  health: hostings.health,
  created_at: hostings.createdAt,
};

export async function appServiceHostings(db: DbOrTx, accountId: string, appServiceId: string, hostingType?: Hosting["hosting_type"]): Promise<Hosting[]> {
  await requireAppService(db, accountId, appServiceId);
  const rows = await db
    .select(hostingColumns)
    .from(hostings)
    .where(and(eq(hostings.accountId, accountId), eq(hostings.appServiceId, appServiceId), hostingType ? eq(hostings.hostingType, hostingType) : undefined))
    .orderBy(asc(hostings.priorityId), asc(hostings.createdAt));
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

export interface AddHostingInput {
  app_service_id: string;
  location: "aws" | "azure" | "onprem";
  region?: string;
  cloud_endpoint_service_name?: string;
  fqdn?: string;
  service_node_group_id?: string;
}

export async function addHosting(db: Db, fleet: Fleet, accountId: string, input: AddHostingInput): Promise<string> {
  await requireAppService(db, accountId, input.app_service_id);
  const onprem = input.location === "onprem";
  if (onprem) await requireServiceNodeGroup(db, accountId, input.service_node_group_id!, "service_node_group_id");
  const hostingId = newId("hst");
  const region = onprem ? "" : input.region!;
  const health = healthNow(fleet, { id: hostingId, kind: "app_service", ...site(input.location, region), contractedMbps: sizeMbps.small });
  await db.transaction(async (tx) => {
    // Serialise priorities per app service: the row lock of the app service.
    await tx.execute(sql`select 1 from app_services where app_service_id = ${input.app_service_id} for update`);
    const [{ p } = { p: 0 }] = await tx
      .select({ p: sql<number>`coalesce(max(${hostings.priorityId}), 0)::int` })
      .from(hostings)
      .where(eq(hostings.appServiceId, input.app_service_id));
    await tx.insert(hostings).values({
      hostingId,
      appServiceId: input.app_service_id,
      accountId,
      priorityId: Number(p) + 1,
      hostingType: onprem ? "onprem" : "cloud",
      serviceProvider: input.location,
      region,
      cloudEndpointServiceName: onprem ? "" : input.cloud_endpoint_service_name!,
      fqdn: onprem ? input.fqdn! : "",
      serviceNodeGroupId: onprem ? input.service_node_group_id! : null,
      health,
    });
  });
  return hostingId;
}

/** Removes a hosting; the primary hosting (priority 1) stays while the app service exists. */
export async function removeHosting(db: DbOrTx, accountId: string, appServiceId: string, hostingId: string) {
  await requireAppService(db, accountId, appServiceId);
  const [h] = await db
    .select({ priority: hostings.priorityId })
    .from(hostings)
    .where(and(eq(hostings.accountId, accountId), eq(hostings.appServiceId, appServiceId), eq(hostings.hostingId, hostingId)))
    .limit(1);
  if (!h) throw hostingNotFound();
  if (h.priority === 1) throw new ApiError(400, "The primary hosting cannot be removed; delete the App Service instead.");
  await db.delete(hostings).where(eq(hostings.hostingId, hostingId));
}

// ---------------------------------------------------------------------------------------------
// Traffic-derived figures (platform/fleet)

function site(provider: string, region: string): { lat?: number; lon?: number } {
  const s = regionSite(provider, region);
  return s ? { lat: s.lat, lon: s.lon } : {};
}

/** Health now (0–100): the fleet's WAN health of the last minute. */
function healthNow(fleet: Fleet, obj: FleetObject, now = Date.now()): number {
  const samples = fleet.wanHealth(obj, { start: now - 60_000, end: now }, now);
  const last = samples[samples.length - 1];
  return last ? Math.round(last.health) : 100;
}

async function fleetObject(db: DbOrTx, accountId: string, appServiceId: string): Promise<FleetObject> {
  const as = await requireAppService(db, accountId, appServiceId);
  const provider = as.deployment === "aws" || as.deployment === "azure" ? as.deployment : "onprem";
  const members = await db.select({ id: endpoints.epId }).from(endpoints).where(eq(endpoints.appServiceId, appServiceId));
  return { id: appServiceId, kind: "app_service", ...site(provider, as.region), contractedMbps: sizeMbps[as.size] ?? 100, members: members.map((m) => m.id) };
}

/** The fleet object of an endpoint: the same for top talkers here and for the endpoint's own flows. */
export function endpointFleetObject(ep: { ep_id: string; size: string }): FleetObject {
  return { id: ep.ep_id, kind: "endpoint", contractedMbps: sizeMbps[ep.size as Size] ?? 100 };
}

/** measure-app-service-latency: ten probes from the nearest PoP, as key/value pairs, with the health now; nothing is stored (issue 27 item 8). */
export async function measureAppServiceLatency(db: DbOrTx, fleet: Fleet, accountId: string, appServiceId: string) {
  const obj = await fleetObject(db, accountId, appServiceId);
  const now = Date.now();
  const m = fleet.measureLatency(obj, now);
  const health = healthNow(fleet, obj, now);
  return { app_service_id: appServiceId, ...m, health };
}

/** get-top-talker-ep: the endpoints of the app service by bytes over [start, end]. */
export async function topTalkers(db: DbOrTx, fleet: Fleet, accountId: string, appServiceId: string, start: Date, end: Date): Promise<TopTalker[]> {
  const eps = await appServiceEndpoints(db, accountId, appServiceId);
  if (eps.length === 0) return [];
  const now = Date.now();
  return fleet.topTalkers(eps.map(endpointFleetObject), { start: start.getTime(), end: Math.min(end.getTime(), now) }, now);
}
