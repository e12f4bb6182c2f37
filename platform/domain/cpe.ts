import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { cpes } from "../db/schema.ts";
import { cpeProducts, deviceMessages, SERVICE_PRODUCT, type CpeSortColumn } from "../contract/devices.ts";
import type { z } from "zod";
import type { Cpe, CpeDetail, CpeProduct, CreateCpeBody, DevicePort, SpeedTestAnswer, UpdateCpeInfoBody, UpdateCpeNetworkBody } from "../contract/devices.shapes.ts";
import { speedTestReport } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { badRequest, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, listTable, textColumn, type ListQuery } from "../lib/list.ts";
import { accountNameOf, commonFields, deviceListEntity, entityNamed, entityNameOf } from "./device-rows.ts";
import {
  deviceNow,
  entityIdOf,
  eventsOf,
  fleetObjectOf,
  removeDeviceRows,
  requireDevice,
  siteFacts,
  stateConflict,
  storedDevice,
  updateDevice,
  type StoredDevice,
} from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";
import { ownRow } from "../lib/own-rows.ts";

/*
 * Internet NIDs (spec 3 §2.10, §3 CPE, §4, §5, §7.1, §9): the list, the detail with every setting
 * the dialogs change, create (ours: the spec does not show it), the CPE-only settings, service
 * activation of BN-CPE-IP, and the speed test (its result a function of when it started).
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;
const productOf = (code: string) => cpeProducts.find((p) => p.prod_code === code);

export function cpeProductList(): CpeProduct[] {
  return cpeProducts.map((p) => ({ ...p, service_activation: p.prod_code === SERVICE_PRODUCT, monitoring: p.prod_code !== SERVICE_PRODUCT }));
}

const select = {
  row: cpes,
  entity_name: entityNameOf("cpes"),
  account_name: accountNameOf("cpes"),
};

type SelectedRow = { row: typeof cpes.$inferSelect; entity_name: string | null; account_name: string | null };

function toCpe({ row: r, entity_name, account_name }: SelectedRow): Cpe {
  return {
    cpe_id: r.cpeId,
    cpe_name: r.cpeName,
    ...commonFields(r, { entity_name, account_name }),
    speed_test_ip: r.speedTestIp,
    ping_dns_ip: r.pingDnsIp,
    ping_gw_ip: r.pingGwIp,
    ping_email_notification: r.pingEmailNotification,
    ping_webhook_notification: r.pingWebhookNotification,
    ip_monitor_target: r.ipMonitorTarget,
    scan_gap: r.scanGap,
    iperf_server: r.iperfServer,
    app_visibility_enabled: r.appVisibilityEnabled,
    perf_test_scheduled: r.perfTestScheduled,
    perf_test_hour_of_day: r.perfTestHourOfDay,
    perf_test_peer_region: r.perfTestPeerRegion,
    perf_test_peer_ip: r.perfTestPeerIp,
    mode: r.mode === "BRIDGE" ? "BRIDGE" : "ROUTER",
    wan_addressing: r.wanAddressing === "static" ? "static" : "dhcp",
    wan_cidr: r.wanCidr,
    wan_gateway: r.wanGateway,
    dns_servers: r.dnsServers,
    lan_cidr: r.lanCidr,
    wan_cir_mbps: Number(r.wanCirMbps ?? 0),
    wan_eir_mbps: Number(r.wanEirMbps ?? 0),
  };
}

async function cpeRows(db: DbOrTx, accountId: string, ids?: string[], entityName?: string): Promise<Cpe[]> {
  const where = [eq(cpes.accountId, accountId)];
  if (ids) where.push(inArray(cpes.cpeId, ids));
  if (entityName) where.push(entityNamed(cpes.entityId, accountId, entityName));
  const rows = await db.select(select).from(cpes).where(and(...where)).orderBy(sql`lower(${cpes.cpeName})`, cpes.cpeId);
  return rows.map(toCpe);
}

export interface CpeListQuery extends ListQuery {
  entity_name?: string;
}

/** get_cpe: the account's Internet NIDs, by name; `entity_name` filters (spec 3 §2.10). */
export const cpeList = defineList<Cpe, CpeSortColumn, CpeListQuery>({
  ...listTable("cpes", "c", "cpe_id"),
  search: [sql`c.search_text`],
  sortable: {
    ...columns("text", "c", ["cpe_name", "site_address", "admin_state", "speed_test_ip", "provider_service_id", "client_circuit_id", "cpe_id", "prod_code"]),
    ...columns("time", "c", ["created_at"]),
    op_state: textColumn(sql`coalesce(case when c.state = 'registered' then c.op_state end, '')`),
    entity_name: deviceListEntity("c").entityNameColumn,
  },
  defaultSort: "cpe_name",
  filter: deviceListEntity("c").filter,
  rows: (db, accountId, ids) => cpeRows(db, accountId, ids),
  idOf: (r) => r.cpe_id,
  notFound: () => notFound(deviceMessages.deviceNotFound("CPE")),
  all: (db, accountId, q) => cpeRows(db, accountId, undefined, q.entity_name),
});

/** The device's ports now: the WAN port and the LAN ports the fleet reports. */
function cpePorts(deps: Deps, cpe: Cpe, stored: StoredDevice, now: number): DevicePort[] {
  const { fleet, obj, down, site } = deviceNow(deps, stored, now);
  const wan: DevicePort = {
    name: "wan0",
    intf: "eth0",
    role: "wan",
    cidr_addr: cpe.wan_addressing === "static" && cpe.wan_cidr ? cpe.wan_cidr : `${site.wan}/30`,
    sfp_type: null,
    operational_state: down ? "DOWN" : "UP",
    speed: down ? "Unknown!" : cpe.wan_cir_mbps + cpe.wan_eir_mbps > 1000 ? "10000Mb/s" : "1000Mb/s",
    vlan_ids: { mgmt: null, data: null, q_in_q: null },
  };
  const lan = fleet.lanInterfaces(obj, now, { events: stored.events, interfaceResets: stored.d.interfaceResets }).map(
    (l, i): DevicePort => ({
      name: l.name,
      intf: l.intf,
      role: l.role,
      cidr_addr: i === 0 && cpe.mode === "ROUTER" ? cpe.lan_cidr : "",
      sfp_type: null,
      operational_state: l.operational_state,
      speed: l.speed,
      vlan_ids: { mgmt: null, data: null, q_in_q: null },
    }),
  );
  return [wan, ...lan];
}

/**
 * get_cpe_detail: the row with its ports, thresholds, announcements and token time. The rows go
 * through `remember` (the read cache); the ports are the fleet's now.
 */
export async function cpeDetail(deps: Deps, accountId: string, cpeId: string, remember: Remember = computeNow, now = Date.now()): Promise<CpeDetail> {
  const { cpe, stored } = await remember(async () => ({ cpe: await cpeList.one(deps.db, accountId, cpeId), stored: await storedDevice(deps.db, accountId, "cpe", cpeId) }));
  return {
    ...cpe,
    ports: cpePorts(deps, cpe, stored, now),
    ddos_thresholds: stored.d.ddos,
    announcements: stored.announcements,
    token_issued_at: stored.tokenIssuedAt,
  };
}

/** create_cpe's request, as validated. */
export type CreateCpeInput = z.output<typeof CreateCpeBody>;

/** create_cpe: the device as ordered; BN-CPE-IP waits for Activate Service (inactive). */
export async function createCpe(deps: Deps, accountId: string, input: CreateCpeInput): Promise<string> {
  const product = productOf(input.prod_code);
  if (!product) throw badRequest(`Unknown product ${input.prod_code}`);
  const entityId = await entityIdOf(deps.db, accountId, input.entity_name);
  const cpeId = newId("cpe");
  const site = siteFacts(deps.config.fleetSeed, cpeId, "cpe", input.latitude, input.longitude);
  await deps.db.insert(cpes).values({
    cpeId,
    accountId,
    cpeName: input.cpe_name,
    prodCode: product.prod_code,
    entityId,
    description: input.description ?? "",
    siteAddress: input.site_address,
    shippingAddress: input.shipping_address ?? "",
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    region: site.region,
    adminState: product.prod_code === SERVICE_PRODUCT ? "inactive" : "active",
    providerServiceId: input.provider_service_id ?? "",
    clientCircuitId: input.client_circuit_id ?? "",
    contactName: input.contact_name ?? "",
    contactEmail: input.contact_email ?? "",
    contactPhone: input.contact_phone ?? "",
    speedTestIp: site.wan,
    pingGwIp: site.gateway,
    pingDnsIp: "198.18.0.53",
    wanCirMbps: product.cir_mbps,
    wanEirMbps: product.eir_mbps,
  });
  return cpeId;
}

/** update_cpe_info's request, as validated. */
export type UpdateCpeInfoInput = z.output<typeof UpdateCpeInfoBody>;

/** update_cpe_info (Edit CPE Info, and Edit Site of BN-CPE-IP): a moved site takes its nearest PoP as region. */
export async function updateCpeInfo(deps: Deps, accountId: string, b: UpdateCpeInfoInput): Promise<void> {
  const d = await requireDevice(deps.db, accountId, "cpe", b.cpe_id);
  const lat = b.latitude === undefined ? d.lat : b.latitude;
  const lon = b.longitude === undefined ? d.lon : b.longitude;
  await updateDevice(deps.db, accountId, "cpe", b.cpe_id, {
    cpe_name: b.cpe_name,
    site_address: b.site_address,
    provider_service_id: b.provider_service_id,
    client_circuit_id: b.client_circuit_id,
    ping_dns_ip: b.ping_dns_ip,
    ping_gw_ip: b.ping_gw_ip,
    ping_email_notification: b.ping_email_notification,
    ping_webhook_notification: b.ping_webhook_notification,
    description: b.description,
    latitude: b.latitude,
    longitude: b.longitude,
    region: siteFacts(deps.config.fleetSeed, d.id, "cpe", lat, lon).region,
    contact_name: b.contact_name,
    contact_email: b.contact_email,
    contact_phone: b.contact_phone,
    shipping_address: b.shipping_address,
  });
}

/** update_cpe_network_info's request, as validated. */
export type NetworkInfoInput = z.output<typeof UpdateCpeNetworkBody>;

/** update_cpe_network_info (Edit Network Info; ours). */
export const updateNetworkInfo = (db: Db, accountId: string, b: NetworkInfoInput) =>
  updateDevice(db, accountId, "cpe", b.cpe_id, {
    mode: b.mode,
    wan_addressing: b.wan_addressing,
    wan_cidr: b.wan_addressing === "static" ? b.wan_cidr : "",
    wan_gateway: b.wan_addressing === "static" ? b.wan_gateway : "",
    dns_servers: b.dns_servers,
    lan_cidr: b.mode === "ROUTER" ? b.lan_cidr : "",
  });

/** activate_cpe_service / stop_cpe_service: BN-CPE-IP only; allowed from the other state (spec 3 §4). */
export async function setService(db: Db, accountId: string, cpeId: string, active: boolean): Promise<void> {
  // The state checked and changed in one statement: of two concurrent Activate Service, one wins
  // and the other is refused as already active (never both 'activated').
  const changed = await db
    .update(cpes)
    .set({ adminState: active ? "active" : "inactive", adminStateChangeAt: new Date() })
    .where(and(ownRow(cpes, cpes.cpeId, accountId, cpeId), eq(cpes.prodCode, SERVICE_PRODUCT), active ? ne(cpes.adminState, "active") : eq(cpes.adminState, "active")))
    .returning({ id: cpes.cpeId });
  if (changed.length > 0) return;
  const d = await requireDevice(db, accountId, "cpe", cpeId);
  if (d.prodCode !== SERVICE_PRODUCT) throw badRequest(deviceMessages.notServiceProduct);
  throw stateConflict(active ? deviceMessages.alreadyActive : deviceMessages.notActive);
}

export const setScanInterval = (db: Db, accountId: string, cpeId: string, minutes: number) => updateDevice(db, accountId, "cpe", cpeId, { scan_gap: minutes });
export const setMonitorTarget = (db: Db, accountId: string, cpeId: string, target: string) => updateDevice(db, accountId, "cpe", cpeId, { ip_monitor_target: target });

/** configure_perf_test_schedule: Start only when not scheduled, Stop only when scheduled (spec 3 §4). */
export async function configurePerfTest(deps: Deps, accountId: string, b: { cpe_id: string; peer_region?: string; hour_of_day?: number; enable: boolean }): Promise<string> {
  const peer = b.enable
    ? fleetOf(deps)
        .peerRegions()
        .find((p) => p.peer_region === b.peer_region)
    : undefined;
  if (b.enable && !peer) {
    await requireDevice(deps.db, accountId, "cpe", b.cpe_id); // an unknown device is 404 before a bad region
    throw badRequest(`Unknown peer region ${String(b.peer_region).slice(0, 20)}`);
  }
  // Start only when not scheduled, Stop only when scheduled, checked and changed in one statement
  // (two concurrent Starts: one schedules, the other is told it is already scheduled).
  const values = peer
    ? { perfTestScheduled: true, perfTestPeerRegion: peer.peer_region, perfTestPeerIp: peer.peer_ip, perfTestHourOfDay: b.hour_of_day }
    : { perfTestScheduled: false };
  const changed = await deps.db
    .update(cpes)
    .set(values)
    .where(and(ownRow(cpes, cpes.cpeId, accountId, b.cpe_id), eq(cpes.perfTestScheduled, !b.enable)))
    .returning({ id: cpes.cpeId });
  if (changed.length > 0) return b.enable ? deviceMessages.perfScheduled : deviceMessages.perfStopped;
  const [row] = await deps.db.select({ on: cpes.perfTestScheduled }).from(cpes).where(ownRow(cpes, cpes.cpeId, accountId, b.cpe_id));
  if (!row) throw notFound(deviceMessages.deviceNotFound("CPE"));
  throw stateConflict(b.enable ? "The daily performance test is already scheduled." : "The daily performance test is not scheduled.");
}

// ---------------------------------------------------------------------------------------------
// Speed test (start_cpe_speedtest_cli, get_cpe_speedtest_cli_test_result)

export async function startSpeedTest(deps: Deps, accountId: string, cpeId: string, testType: string, now = Date.now()) {
  const d = await requireDevice(deps.db, accountId, "cpe", cpeId);
  if (d.prodCode === SERVICE_PRODUCT && d.adminState !== "active") throw stateConflict(deviceMessages.notActive);
  const started = fleetOf(deps).startSpeedTest(fleetObjectOf(d), testType, now);
  await updateDevice(deps.db, accountId, "cpe", cpeId, { speedtest_type: testType, speedtest_started_at: new Date(now) });
  // FLEET_TEST_SPEED: the test's length in real time.
  const finishes = now + (Date.parse(started.finishes_at) - now) / deps.config.fleetTestSpeed;
  return { status: deviceMessages.speedStarted, ...started, finishes_at: new Date(Math.ceil(finishes)).toISOString() };
}

/** The result of the last speed test of this type: 404 while there is none or it is still running. */
export async function speedTestResult(deps: Deps, accountId: string, cpeId: string, testType: string, now = Date.now()): Promise<SpeedTestAnswer> {
  const d = await requireDevice(deps.db, accountId, "cpe", cpeId);
  const [row] = await deps.db.select({ type: cpes.speedtestType, at: cpes.speedtestStartedAt }).from(cpes).where(eq(cpes.cpeId, cpeId));
  if (!row?.at || row.type !== testType) throw notFound("No speed test of this type has been started");
  const startedAt = row.at.getTime();
  // FLEET_TEST_SPEED: the test as it stands after that many times the real time since its start.
  const simulatedNow = startedAt + (now - startedAt) * deps.config.fleetTestSpeed;
  const report = speedTestReport(deps.config.fleetSeed, fleetObjectOf(d), testType, startedAt, simulatedNow, await eventsOf(deps.db, d));
  if (report.status === "running") throw notFound("The speed test result is not ready yet");
  return { status: report.status, ...(report.detail ? { detail: report.detail } : {}), data: report.data };
}

export const removeCpe = (db: Db, accountId: string, cpeId: string) => db.transaction((tx) => removeDeviceRows(tx, accountId, "cpe", cpeId));
