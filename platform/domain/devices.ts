import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { deviceAnnouncements } from "../db/schema.ts";
import { DEFAULT_DDOS, ddosFloods, deviceMessages, SFP_PRODUCT, type DdosFlood } from "../contract/devices.ts";
import type { DdosThresholdsBody, DeviceAnnouncement } from "../contract/devices.shapes.ts";
import { fleetKinds, sqlKindSource, type DeviceEvents, type FleetObject, type LanInterface } from "../fleet/index.ts";
import { nearestPop, validCoordinates } from "../fleet/geo.ts";
import { prepare } from "../fleet/model.ts";
import { wanAddresses } from "../fleet/paths.ts";
import { ApiError, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { execRows, isoText } from "../lib/list.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { findEntityByName } from "./entities.ts";

/*
 * What Internet NIDs (cpes) and Metro Ethernet NIDs (metros) share (spec 3 §3, §7.1, §7.2): the
 * lookup of a device by kind or by node id, its events for the fleet (announced maintenance and
 * resets), the settings stored the same way on both (toggles, entity, shipping, DDoS thresholds,
 * announcements), and their registration with the fleet clock. Every query is scoped to the
 * caller's account: another account's id answers 404.
 */

export type DeviceKind = "cpe" | "metro";

/** The two tables, by kind (constants: never user input). */
export const deviceTables = {
  cpe: { table: "cpes", id: "cpe_id", name: "cpe_name", what: "CPE" as const },
  metro: { table: "metros", id: "metro_id", name: "metro_name", what: "Metro" as const },
} as const;

export const deviceNotFound = (kind: DeviceKind | null) => notFound(deviceMessages.deviceNotFound(kind ? deviceTables[kind].what : "Device"));

/** A node id's kind by its prefix (reset_node, run_ping … take either). */
export const kindOfId = (id: string): DeviceKind | null => (id.startsWith("cpe-") ? "cpe" : id.startsWith("metro-") ? "metro" : null);

/** What the domain needs of one device. */
export interface DeviceRef {
  kind: DeviceKind;
  id: string;
  name: string;
  prodCode: string;
  lat: number | null;
  lon: number | null;
  cir: number;
  eir: number;
  adminState: string;
  megLevel: number | null;
  resets: number[];
  interfaceResets: Record<string, number>;
  ddos: DdosThresholdsBody;
  flags: { malicious: boolean; dos: boolean; inbound: boolean; outbound: boolean };
  ipMonitorTarget: string | null;
}

const t = (kind: DeviceKind) => sql.identifier(deviceTables[kind].table);
const c = (name: string) => sql.identifier(name);

interface RefRow {
  id: string;
  name: string;
  prod_code: string;
  latitude: number | null;
  longitude: number | null;
  cir: number | null;
  eir: number | null;
  admin_state: string;
  meg_level: number | null;
  resets: number[];
  interface_resets: Record<string, number>;
  ddos_thresholds: DdosThresholdsBody | null;
  malicious: boolean;
  dos: boolean;
  inbound: boolean;
  outbound: boolean;
  target: string | null;
}

/** The columns of a DeviceRef (RefRow), of the device table aliased `dev`. */
const refColumns = (kind: DeviceKind) => {
  const d = deviceTables[kind];
  return sql`dev.${c(d.id)} as id, dev.${c(d.name)} as name, dev.prod_code, dev.latitude, dev.longitude, dev.wan_cir_mbps as cir, dev.wan_eir_mbps as eir, dev.admin_state,
      ${kind === "metro" ? sql`dev.oam_md_level` : sql`null::int`} as meg_level, dev.resets, dev.interface_resets, dev.ddos_thresholds,
      dev.malicious_ip_block_enabled as malicious, dev.denial_of_service_enabled as dos, dev.monitor_inbound_pub_ip_enabled as inbound, dev.monitor_outbound_pub_ip_enabled as outbound,
      ${kind === "cpe" ? sql`dev.ip_monitor_target` : sql`null::text`} as target`;
};

function refOf(kind: DeviceKind, r: RefRow): DeviceRef {
  return {
    kind,
    id: r.id,
    name: r.name,
    prodCode: r.prod_code,
    lat: r.latitude === null ? null : Number(r.latitude),
    lon: r.longitude === null ? null : Number(r.longitude),
    cir: Number(r.cir ?? 0),
    eir: Number(r.eir ?? 0),
    adminState: r.admin_state,
    megLevel: r.meg_level === null ? null : Number(r.meg_level),
    resets: (r.resets ?? []).map(Number),
    interfaceResets: r.interface_resets ?? {},
    ddos: thresholdsOf(r.ddos_thresholds),
    flags: { malicious: r.malicious, dos: r.dos, inbound: r.inbound, outbound: r.outbound },
    ipMonitorTarget: r.target,
  };
}

/** The device of the account, or 404. `lock`: for update (in a transaction). */
export async function requireDevice(db: DbOrTx, accountId: string, kind: DeviceKind, id: string, lock = false): Promise<DeviceRef> {
  const d = deviceTables[kind];
  const [r] = await execRows<RefRow>(db, sql`select ${refColumns(kind)} from ${t(kind)} dev where dev.${c(d.id)} = ${id} and dev.account_id = ${accountId} ${lock ? sql`for update` : sql``}`);
  if (!r) throw deviceNotFound(kind);
  return refOf(kind, r);
}

/**
 * What the reads of one device take from its rows (the monitoring feeds, the detail's ports): the
 * device, its events for the fleet (announced maintenance, resets), its 50 newest announcements,
 * its site address, the hour of its daily test and when its token was issued. One statement, and
 * plain JSON data: a read hands it to the read cache (lib/auth.ts Remember) and adds the fleet's
 * live figures after.
 */
export interface StoredDevice {
  d: DeviceRef;
  events: DeviceEvents;
  announcements: DeviceAnnouncement[];
  siteAddress: string;
  /** The CPE's daily performance test hour (UTC); null: not set, or a metro. */
  perfTestHour: number | null;
  tokenIssuedAt: string | null;
  /** Registered: the device reports, and has an op state (a device never registered is not up). */
  registered: boolean;
}

export async function storedDevice(db: DbOrTx, accountId: string, kind: DeviceKind, id: string): Promise<StoredDevice> {
  const d = deviceTables[kind];
  const devId = sql`dev.${c(d.id)}`;
  const [r] = await execRows<RefRow & { windows: { s: string; e: string }[]; announcements: DeviceAnnouncement[]; site_address: string; perf_hour: number | null; token_at: string | null; created_at: string; state: string }>(
    db,
    sql`select ${refColumns(kind)}, dev.site_address, ${kind === "cpe" ? sql`dev.perf_test_hour_of_day` : sql`null::int`} as perf_hour,
      ${isoText(sql`dev.token_issued_at`)} as token_at, ${isoText(sql`dev.created_at`)} as created_at, dev.state,
      (select coalesce(json_agg(json_build_object('s', ${isoText(sql`a.start_time`)}, 'e', ${isoText(sql`a.end_time`)}) order by a.start_time), '[]'::json)
        from device_announcements a where a.device_id = ${devId}) as windows,
      (select coalesce(json_agg(json_build_object('announcement_id', a.announcement_id, 'start_time', ${isoText(sql`a.start_time`)}, 'end_time', ${isoText(sql`a.end_time`)},
          'duration', a.duration, 'created_at', ${isoText(sql`a.created_at`)}) order by a.start_time desc), '[]'::json)
        from (select * from device_announcements where device_id = ${devId} order by start_time desc limit 50) a) as announcements
      from ${t(kind)} dev where ${devId} = ${id} and dev.account_id = ${accountId}`,
  );
  if (!r) throw deviceNotFound(kind);
  const ref = refOf(kind, r);
  return {
    d: ref,
    events: { maintenance: r.windows.map((w) => ({ start: Date.parse(w.s), end: Date.parse(w.e) })), resets: ref.resets, since: Date.parse(r.created_at) },
    announcements: r.announcements,
    siteAddress: r.site_address,
    perfTestHour: r.perf_hour === null ? null : Number(r.perf_hour),
    tokenIssuedAt: r.token_at,
    registered: r.state === "registered",
  };
}

/** A node id of either kind as storedDevice reads it (404 for an id of neither kind). */
export function storedNode(db: DbOrTx, accountId: string, nodeId: string): Promise<StoredDevice> {
  const kind = kindOfId(nodeId);
  if (!kind) return Promise.reject(deviceNotFound(null));
  return storedDevice(db, accountId, kind, nodeId);
}

/** A node id of either kind (reset_node, run_ping, run_traceroute, run_health_check, reset_interface, generate_node_token). */
export function requireNode(db: DbOrTx, accountId: string, nodeId: string, lock = false): Promise<DeviceRef> {
  const kind = kindOfId(nodeId);
  if (!kind) return Promise.reject(deviceNotFound(null));
  return requireDevice(db, accountId, kind, nodeId, lock);
}

/** The fleet's view of a device: its site and what it was sold as. */
export const fleetObjectOf = (d: Pick<DeviceRef, "id" | "kind" | "lat" | "lon" | "cir" | "eir">): FleetObject => ({
  id: d.id,
  kind: d.kind,
  lat: d.lat,
  lon: d.lon,
  contractedMbps: d.cir + d.eir > 0 ? d.cir + d.eir : null,
});

/** Stored DDoS thresholds, or spec 3 §9's defaults where none are stored. */
export function thresholdsOf(stored: Partial<DdosThresholdsBody> | null | undefined): DdosThresholdsBody {
  const set = (f: DdosFlood) => ({ ...DEFAULT_DDOS[f], ...(stored?.[f] ?? {}) });
  return { tcp_syn_flood_thresholds: set("tcp_syn_flood_thresholds"), udp_thresholds: set("udp_thresholds"), icmp_thresholds: set("icmp_thresholds") };
}

/**
 * Announced maintenance, resets and the record's start (`since`: the device's `created_at`) of
 * these devices, read from the database (`resets` given: those instead of the stored ones): what
 * the fleet leaves out of uptime and alerts, the reboots it keeps the device down for, and where
 * its history begins. Every reader of a device's outages takes its events from here.
 */
export async function deviceEvents(db: DbOrTx, ids: string[], resets: Record<string, number[]> = {}): Promise<Record<string, DeviceEvents>> {
  const windows: Record<string, { start: number; end: number }[]> = {};
  const since: Record<string, number> = {};
  const stored: Record<string, number[]> = {};
  for (const id of ids) windows[id] = [];
  const out = () =>
    Object.fromEntries(
      ids.map((id): [string, DeviceEvents] => [id, { maintenance: windows[id]!, resets: resets[id] ?? stored[id] ?? [], ...(since[id] !== undefined ? { since: since[id] } : {}) }]),
    );
  if (ids.length === 0) return out();
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await execRows<{ device_id: string; s: string; e: string | null; resets: number[] | null }>(
    db,
    sql`select device_id, ${isoText(sql`start_time`)} as s, ${isoText(sql`end_time`)} as e, null::jsonb as resets from device_announcements where device_id in (${list})
      union all select cpe_id, ${isoText(sql`created_at`)}, null, resets from cpes where cpe_id in (${list})
      union all select metro_id, ${isoText(sql`created_at`)}, null, resets from metros where metro_id in (${list})
      order by 2`,
  );
  for (const r of rows) {
    if (r.e === null) {
      since[r.device_id] = Date.parse(r.s);
      stored[r.device_id] = (r.resets ?? []).map(Number);
    } else windows[r.device_id]?.push({ start: Date.parse(r.s), end: Date.parse(r.e) });
  }
  return out();
}

export async function eventsOf(db: DbOrTx, d: DeviceRef): Promise<DeviceEvents> {
  return (await deviceEvents(db, [d.id], { [d.id]: d.resets }))[d.id]!;
}

/** Where a site is for the fleet: its nearest PoP (region) and the addresses the provider gives it. */
export function siteFacts(seed: number, id: string, kind: DeviceKind, lat: number | null | undefined, lon: number | null | undefined) {
  const p = prepare(seed, { id, kind, lat, lon }, kind);
  // why the casts: validCoordinates checked both are finite numbers in range (it is no type guard).
  const region = (validCoordinates(lat, lon) ? nearestPop(lat as number, lon as number).pop.code : p.pop.code).toUpperCase();
  return { region, wan: wanAddresses(p).wan, gateway: wanAddresses(p).gateway };
}

// ---------------------------------------------------------------------------------------------
// Settings stored the same way on both kinds

/** The stored flags of a toggle call; both geo flags for geo visibility (spec 3 §3). */
export const toggleColumns = {
  geo_visibility: ["monitor_inbound_pub_ip_enabled", "monitor_outbound_pub_ip_enabled"],
  malicious_ip_block_enabled: ["malicious_ip_block_enabled"],
  app_visibility_enabled: ["app_visibility_enabled"],
  denial_of_service_enabled: ["denial_of_service_enabled"],
  netflow_enabled: ["netflow_enabled"],
  iperf_server: ["iperf_server"],
} as const;
export type ToggleField = keyof typeof toggleColumns;

/**
 * A toggle dialog's change (spec 3 §4): the server refuses an unchanged value (409, DESIGN
 * "Toggle dialogs"). Geo visibility is on when both flags are; setting it sets both.
 */
export async function setToggle(db: Db, accountId: string, kind: DeviceKind, id: string, field: ToggleField, enabled: boolean): Promise<void> {
  const d = deviceTables[kind];
  const cols = toggleColumns[field];
  const current = sql.join(
    cols.map((x) => c(x)),
    sql` and `,
  );
  const sets = sql.join(
    cols.map((x) => sql`${c(x)} = ${enabled}`),
    sql`, `,
  );
  // One statement checks and changes (the value must differ): of two concurrent requests for the
  // same value, the second finds it set and is refused, instead of both answering 'changed'.
  const changed = await execRows<{ id: string }>(
    db,
    sql`update ${t(kind)} set ${sets} where ${c(d.id)} = ${id} and account_id = ${accountId} and (${current}) is distinct from ${enabled} returning ${c(d.id)} as id`,
  );
  if (changed.length > 0) return;
  const [row] = await execRows<{ id: string }>(db, sql`select ${c(d.id)} as id from ${t(kind)} where ${c(d.id)} = ${id} and account_id = ${accountId}`);
  if (!row) throw deviceNotFound(kind);
  throw conflict(deviceMessages.unchanged);
}

/** Updates columns of one device of the account (names are the code's constants); 404 when none. */
export async function updateDevice(db: DbOrTx, accountId: string, kind: DeviceKind, id: string, values: Record<string, unknown>): Promise<void> {
  const d = deviceTables[kind];
  const entries = Object.entries(values).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    await requireDevice(db, accountId, kind, id);
    return;
  }
  const sets = sql.join(
    entries.map(([k, v]) => sql`${c(k)} = ${v === null ? null : typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v instanceof Date ? v.toISOString() : v}`),
    sql`, `,
  );
  const rows = await execRows<{ id: string }>(db, sql`update ${t(kind)} set ${sets} where ${c(d.id)} = ${id} and account_id = ${accountId} returning ${c(d.id)} as id`);
  if (rows.length === 0) throw deviceNotFound(kind);
}

/** cpe_assign_entity / metro_assign_entity: an entity of the account by name (404 'Entity … not found.'). */
export async function assignEntity(db: Db, accountId: string, kind: DeviceKind, id: string, entityName: string): Promise<void> {
  const entity = await findEntityByName(db, accountId, entityName);
  if (!entity) throw notFound(`Entity ${entityName} not found.`);
  await updateDevice(db, accountId, kind, id, { entity_id: entity.entityId });
}

/** The entity id of a name given at create (none: null; unknown: 404). */
export async function entityIdOf(db: DbOrTx, accountId: string, entityName: string | undefined): Promise<string | null> {
  if (!entityName) return null;
  const entity = await findEntityByName(db, accountId, entityName);
  if (!entity) throw notFound(`Entity ${entityName} not found.`);
  return entity.entityId;
}

/** update_cpe_shipping_info / update_metro_shipping_info: the tracking number; the device is on its way. */
export async function setShipping(db: Db, accountId: string, kind: DeviceKind, id: string, tracking: string): Promise<void> {
  const d = deviceTables[kind];
  // A registered device stays registered (and monitored): a new tracking number does not unregister it.
  const rows = await execRows<{ id: string }>(
    db,
    sql`update ${t(kind)} set tracking_number = ${tracking}, state = case when state = 'registered' then state else ${tracking ? "shipped" : "ordered"} end
      where ${c(d.id)} = ${id} and account_id = ${accountId} returning ${c(d.id)} as id`,
  );
  if (rows.length === 0) throw deviceNotFound(kind);
}

/** set_*_denial_of_service_thresholds (the body is checked: alert ≤ block ≤ max). */
export const setThresholds = (db: Db, accountId: string, kind: DeviceKind, id: string, body: DdosThresholdsBody) =>
  updateDevice(db, accountId, kind, id, { ddos_thresholds: Object.fromEntries(ddosFloods.map((f: DdosFlood) => [f, body[f]])) });

export async function getThresholds(db: DbOrTx, accountId: string, kind: DeviceKind, id: string): Promise<DdosThresholdsBody> {
  return (await requireDevice(db, accountId, kind, id)).ddos;
}

// ---------------------------------------------------------------------------------------------
// Announcements (cpe_add_announcement, metro_add_announcement)

const HOUR = 3_600_000;

/**
 * cpe_add_announcement / metro_add_announcement: maintenance from now on only. Announced
 * maintenance is left out of availability, so a window in the past (or before the device's record
 * starts) would erase outages that happened: refused (422, on start_time).
 */
export async function addAnnouncement(db: Db, accountId: string, kind: DeviceKind, id: string, start: Date, hours: number, now = Date.now()): Promise<string> {
  const d = deviceTables[kind];
  const [row] = await execRows<{ created_at: string }>(db, sql`select ${isoText(sql`created_at`)} as created_at from ${t(kind)} where ${c(d.id)} = ${id} and account_id = ${accountId}`);
  if (!row) throw deviceNotFound(kind);
  if (start.getTime() < Math.max(now, Date.parse(row.created_at))) {
    throw new ApiError(422, [{ loc: ["body", "start_time"], msg: deviceMessages.announcementPast, type: "value_error" }]);
  }
  return recordAnnouncement(db, accountId, id, start, hours);
}

/** Stores a maintenance window as given, unchecked: the demo seed's history (platform/domain/devices-seed.ts). */
export async function recordAnnouncement(db: Db, accountId: string, id: string, start: Date, hours: number): Promise<string> {
  const announcementId = newId("ann");
  await db.insert(deviceAnnouncements).values({ announcementId, accountId, deviceId: id, startTime: start, endTime: new Date(start.getTime() + hours * HOUR), duration: hours });
  return announcementId;
}

/** What goes with a removed device: its announcements and tests (no foreign key: two tables). */
export async function removeDeviceRows(db: DbOrTx, accountId: string, kind: DeviceKind, id: string): Promise<void> {
  const d = deviceTables[kind];
  const rows = await execRows<{ id: string }>(db, sql`delete from ${t(kind)} where ${c(d.id)} = ${id} and account_id = ${accountId} returning ${c(d.id)} as id`);
  if (rows.length === 0) throw deviceNotFound(kind);
  await db.execute(sql`delete from device_announcements where device_id = ${id} and account_id = ${accountId}`);
  await db.execute(sql`delete from device_tests where device_id = ${id} and account_id = ${accountId}`);
}

/** A readable refusal of a device's state (409). */
export const stateConflict = (message: string) => new ApiError(409, message);

// ---------------------------------------------------------------------------------------------
// The fleet clock moves both kinds' op states (docs/fleet.md "Object kinds")

async function eventsForKind(db: Db, ids: string[]): Promise<Record<string, DeviceEvents>> {
  return ids.length === 0 ? {} : deviceEvents(db, ids);
}

for (const kind of ["cpe", "metro"] as const) {
  const d = deviceTables[kind];
  fleetKinds.register(
    sqlKindSource({
      kind,
      table: d.table,
      id: d.id,
      name: d.name,
      accountId: "account_id",
      lat: "latitude",
      lon: "longitude",
      contractedMbps: "nullif(coalesce(wan_cir_mbps, 0) + coalesce(wan_eir_mbps, 0), 0)",
      opState: "op_state",
      opStateChangeAt: "op_state_change_at",
      // A device reports once registered; until then its op state stays unset ('N/A'), not 'up'.
      monitored: "state = 'registered'",
      events: (db, ids) => eventsForKind(db, ids),
    }),
  );
}

/** A stored device as the fleet has it `now` (its ports' facts): whether it is down, its site. */
/**
 * A device's own LAN ports, as its Interfaces grid shows them (issue 63 item 22): an Internet NID's
 * four (the fleet's lan1–lan4), a Metro Ethernet NID's one customer port, lan1 (ge1, sfp1 on the
 * fibre product), in the state of the fleet's first port. `fleetIntf` is the fleet's name of the
 * port, under which a reset of it is stored (the fleet reads resets by its own names).
 */
export function deviceLanPorts(
  deps: Pick<PlatformDeps, "fleet" | "config">,
  d: Pick<DeviceRef, "id" | "kind" | "lat" | "lon" | "cir" | "eir" | "prodCode" | "interfaceResets">,
  events: DeviceEvents,
  now: number,
): { port: LanInterface; fleetIntf: string }[] {
  const fleetPorts = fleetOf(deps).lanInterfaces(fleetObjectOf(d), now, { events, interfaceResets: d.interfaceResets });
  if (d.kind === "cpe") return fleetPorts.map((port) => ({ port, fleetIntf: port.intf }));
  const first = fleetPorts[0]!;
  const up = first.operational_state === "UP";
  const speed = d.prodCode === "BN-METRO-100" ? "100Mb/s" : "1000Mb/s";
  return [{ port: { ...first, name: "lan1", intf: d.prodCode === SFP_PRODUCT ? "sfp1" : "ge1", speed: up ? speed : "Unknown!" }, fleetIntf: first.intf }];
}

export function deviceNow(deps: Pick<PlatformDeps, "fleet" | "config">, s: StoredDevice, now: number) {
  const fleet = fleetOf(deps);
  const obj = fleetObjectOf(s.d);
  return { fleet, obj, down: fleet.isDown(obj, now, s.events), site: siteFacts(deps.config.fleetSeed, s.d.id, s.d.kind, s.d.lat, s.d.lon) };
}
