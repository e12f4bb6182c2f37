import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import type { AvailabilityFigures } from "../contract/availability.shapes.ts";
import type { ReportContent } from "../contract/report-schedules.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { DeviceOptions, FleetObject } from "../fleet/index.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { execRows, isoText } from "../lib/list.ts";
import { combinedFigures, deviceWindow, fleetViewOf, type DeviceRow } from "./availability.ts";
import { deviceEvents } from "./devices.ts";
import type { ReportPeriod } from "./report-schedules-periods.ts";

/*
 * What a scheduled service report says (issue 58), read once when it is made: the scope's devices
 * (the account's, or an entity's and its children's) and nodes, each one's record over the period
 * through `deviceWindow`, the one function behind the SLA page, its CSV and PDF (so the figures are
 * the same to the second when the zone is UTC), the outages with their cause and the path at
 * failure, the announced maintenance, the period's activation tests. What was there last time and
 * is not any more (a removed device, the scope's entity) is named, never an error.
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

const MINUTE = 60_000;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The three device classes of the report, in its order, with the words the console uses. */
export const deviceClasses = [
  { kind: "cpe", label: "Internet NIDs", one: "Internet NID" },
  { kind: "metro", label: "Metro Ethernet NIDs", one: "Metro Ethernet NID" },
  { kind: "node", label: "Nodes", one: "Node" },
] as const;
export type ReportDeviceClass = (typeof deviceClasses)[number]["kind"];

export interface ReportDevice {
  id: string;
  name: string;
  cls: ReportDeviceClass;
  /** service node, endpoint node (nodes only). */
  detail: string;
  entity_name: string;
  /** Where counting starts: the period's start, or the device's creation (registration, a node) when later. */
  counted_from: number;
  /** Created (or registered) during the period: counted from then. */
  created_in_period: boolean;
  figures: AvailabilityFigures;
}

export interface ReportOutage {
  outage_id: string;
  device_id: string;
  device_name: string;
  start: string;
  end: string | null;
  duration_s: number;
  /** Its minutes in the period outside announced maintenance (the SLA report's counted minutes). */
  counted_minutes: number;
  announced: boolean;
  cause: string;
  self_diagnosis: string;
  path_at_failure: string;
  /** The outage record in the console (Internet and Metro NIDs; a node's outages have no record page). */
  link: string | null;
}

export interface ReportMaintenance {
  device_id: string;
  device_name: string;
  start: number;
  end: number;
  /** Its minutes inside the period. */
  minutes: number;
}

export interface ReportActivationTest {
  device_id: string;
  device_name: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  result: string | null;
}

export interface ServiceReportData {
  productName: string;
  accountName: string;
  /** The account's logo when it is an embedded PNG or JPEG image (a data: URL). */
  logo: Buffer | null;
  scheduleName: string;
  scope: { kind: "account" } | { kind: "entity"; name: string; removed: boolean };
  period: ReportPeriod & { timeZone: string };
  generatedAt: number;
  content: ReadonlySet<ReportContent>;
  overall: AvailabilityFigures;
  classes: { kind: ReportDeviceClass; label: string; one: string; figures: AvailabilityFigures | null; devices: ReportDevice[] }[];
  /** The three devices with the lowest availability (those with a figure). */
  worst: ReportDevice[];
  outages: ReportOutage[];
  maintenance: ReportMaintenance[];
  activationTests: ReportActivationTest[];
  /** Named things reported last time that are gone now ("Internet NID Branch 7 (cpe-…)", "the entity Branch East"). */
  removed: string[];
  /** What the report covered, for the next one's `removed`. */
  covered: { id: string; name: string }[];
  consoleUrl: string;
}

/** The schedule as the report needs it. */
export interface ReportScope {
  accountId: string;
  name: string;
  entityId: string | null;
  entityName: string | null;
  content: readonly ReportContent[];
  timeZone: string;
}

interface ScopeDeviceRow extends DeviceRow {
  entity_name: string | null;
  created_at: string;
}

/** The ids of the entity and every entity below it; empty when the entity is gone. */
async function entitySubtree(db: DbOrTx, accountId: string, entityId: string): Promise<string[]> {
  const rows = await execRows<{ id: string }>(
    db,
    sql`with recursive tree as (
          select entity_id from entities where account_id = ${accountId} and entity_id = ${entityId}
          union all
          select e.entity_id from entities e join tree t on e.parent_entity_id = t.entity_id where e.account_id = ${accountId}
        ) select entity_id as id from tree`,
  );
  return rows.map((r) => r.id);
}

async function scopeDevices(db: DbOrTx, accountId: string, entityIds: string[] | null): Promise<ScopeDeviceRow[]> {
  if (entityIds && entityIds.length === 0) return [];
  const inScope = entityIds ? sql`and d.entity_id in (${sql.join(entityIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const select = (table: string, id: string, name: string, kind: "cpe" | "metro", target: ReturnType<typeof sql>) =>
    sql`select d.${sql.identifier(id)} as id, ${kind} as kind, d.${sql.identifier(name)} as name, d.latitude, d.longitude, d.wan_cir_mbps as cir, d.wan_eir_mbps as eir,
          ${target} as target, e.entity_name, ${isoText(sql`d.created_at`)} as created_at
        from ${sql.identifier(table)} d left join entities e on e.entity_id = d.entity_id and e.account_id = d.account_id
        where d.account_id = ${accountId} ${inScope}`;
  return execRows<ScopeDeviceRow>(
    db,
    sql`${select("cpes", "cpe_id", "cpe_name", "cpe", sql`d.ip_monitor_target`)} union all ${select("metros", "metro_id", "metro_name", "metro", sql`null::text`)} order by name, id`,
  );
}

/** The account's registered nodes (a whole-account report: nodes belong to no entity). */
async function accountNodes(db: DbOrTx, accountId: string) {
  return execRows<{ id: string; kind: "service_node" | "endpoint_node"; name: string; registered_at: string }>(
    db,
    sql`select service_node_id as id, 'service_node' as kind, service_node_name as name, ${isoText(sql`registered_at`)} as registered_at
          from service_nodes where account_id = ${accountId} and registered_at is not null
        union all
        select ep_node_id, 'endpoint_node', ep_node_name, ${isoText(sql`registered_at`)} from endpoint_nodes where account_id = ${accountId} and registered_at is not null
        order by 3, 1`,
  );
}

const causeWords = (cause: string) => cause.replace(/_/g, " ");
const pathText = (hops: readonly { hostname: string | null; ip: string | null }[]) =>
  hops.length ? hops.map((h) => `${h.hostname ?? "Unknown Host"} (${h.ip ?? "No IP"})`).join(" > ") : "no hop answered (gateway unreachable)";

/** The account's logo as image bytes, when it is stored as a PNG or JPEG data: URL (a remote address is never fetched). */
function logoBytes(logo: string | null): Buffer | null {
  const m = logo ? /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/=\s]+)$/.exec(logo) : null;
  if (!m) return null;
  const bytes = Buffer.from(m[2]!, "base64");
  return bytes.length > 0 && bytes.length <= 2 * 1024 * 1024 ? bytes : null;
}

/**
 * Reads everything a report of `scope` over `period` says. `previous`: what the schedule's last
 * report covered (its removed devices are named). `now`: when it is made (the fleet's time).
 */
export async function readServiceReport(deps: Deps, scope: ReportScope, period: ReportPeriod, previous: { id: string; name: string }[] | null, now = Date.now()): Promise<ServiceReportData> {
  const db = deps.db;
  const [account] = await execRows<{ name: string; username: string; logo: string | null }>(db, sql`select name, username, logo from accounts where account_id = ${scope.accountId}`);
  let entityIds: string[] | null = null;
  let scopeOut: ServiceReportData["scope"] = { kind: "account" };
  if (scope.entityId) {
    entityIds = await entitySubtree(db, scope.accountId, scope.entityId);
    const [current] = await execRows<{ name: string }>(db, sql`select entity_name as name from entities where entity_id = ${scope.entityId} and account_id = ${scope.accountId}`);
    scopeOut = { kind: "entity", name: current?.name ?? scope.entityName ?? scope.entityId, removed: entityIds.length === 0 };
  }
  const devices = await scopeDevices(db, scope.accountId, entityIds);
  const nodes = entityIds ? [] : await accountNodes(db, scope.accountId);
  const events = await deviceEvents(db, devices.map((d) => d.id));
  const fleet = fleetOf(deps);

  const reportDevices: ReportDevice[] = [];
  const outages: ReportOutage[] = [];
  const maintenance: ReportMaintenance[] = [];
  const consoleUrl = deps.config.consoleUrl.replace(/\/+$/, "");
  const record = (obj: FleetObject, opts: DeviceOptions, d: Omit<ReportDevice, "counted_from" | "created_in_period" | "figures">, hasRecordPage: boolean) => {
    const w = deviceWindow(fleet, obj, opts, period.start, period.end, now);
    reportDevices.push({ ...d, counted_from: w.from, created_in_period: w.from > period.start, figures: w.figures });
    w.outages.forEach((o, i) =>
      outages.push({
        outage_id: o.outage_id,
        device_id: d.id,
        device_name: d.name,
        start: o.start_time,
        end: o.end_time,
        duration_s: o.duration_s,
        counted_minutes: r3(w.counted[i]! / MINUTE),
        announced: o.announced,
        cause: causeWords(o.cause),
        self_diagnosis: o.self_diagnosis,
        path_at_failure: pathText(o.down_hops),
        link: hasRecordPage ? `${consoleUrl}/outages/${encodeURIComponent(o.outage_id)}` : null,
      }),
    );
    for (const m of w.maintenance) {
      const a = Math.max(m.start, period.start);
      const b = Math.min(m.end, period.end);
      maintenance.push({ device_id: d.id, device_name: d.name, start: m.start, end: m.end, minutes: r3(Math.max(0, b - a) / MINUTE) });
    }
  };
  for (const d of devices) {
    const { obj, opts } = fleetViewOf(d, events[d.id] ?? {});
    record(obj, opts, { id: d.id, name: d.name, cls: d.kind, detail: "", entity_name: d.entity_name ?? "" }, true);
  }
  for (const n of nodes) {
    const obj: FleetObject = { id: n.id, kind: n.kind };
    record(obj, { events: { since: Date.parse(n.registered_at) } }, { id: n.id, name: n.name, cls: "node", detail: n.kind === "service_node" ? "Service Node" : "Endpoint Node", entity_name: "" }, false);
  }
  outages.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.device_name.localeCompare(b.device_name)));
  maintenance.sort((a, b) => a.start - b.start || a.device_name.localeCompare(b.device_name));

  const activationTests = scope.content.includes("activation_tests") && devices.length
    ? await execRows<ReportActivationTest>(
        db,
        sql`select device_id, device_name, ${isoText(sql`started_at`)} as started_at, ${isoText(sql`finished_at`)} as finished_at, status, result
              from device_tests where account_id = ${scope.accountId}
               and device_id in (${sql.join(devices.map((d) => sql`${d.id}`), sql`, `)})
               and started_at >= ${new Date(period.start).toISOString()}::timestamptz and started_at < ${new Date(period.end).toISOString()}::timestamptz
             order by started_at, device_name`,
      )
    : [];

  const classes = deviceClasses.map((c) => {
    const list = reportDevices.filter((d) => d.cls === c.kind);
    return { kind: c.kind, label: c.label, one: c.one, figures: list.length ? combinedFigures(list.map((d) => d.figures)) : null, devices: list };
  });
  const worst = reportDevices
    .filter((d) => d.figures.uptime_percent !== null)
    .sort((a, b) => a.figures.uptime_percent! - b.figures.uptime_percent! || b.figures.downtime_minutes - a.figures.downtime_minutes || a.name.localeCompare(b.name))
    .slice(0, 3);

  const covered = reportDevices.map((d) => ({ id: d.id, name: d.name }));
  const here = new Set(covered.map((d) => d.id));
  const classOf = (id: string) => (id.startsWith("cpe-") ? "Internet NID" : id.startsWith("metro-") ? "Metro Ethernet NID" : "Node");
  const removed = (previous ?? []).filter((d) => !here.has(d.id)).map((d) => `${classOf(d.id)} ${d.name} (${d.id})`);
  if (scopeOut.kind === "entity" && scopeOut.removed) removed.unshift(`the entity ${scopeOut.name}`);

  return {
    productName: deps.config.productName,
    accountName: account?.name || account?.username || scope.accountId,
    logo: logoBytes(account?.logo ?? null),
    scheduleName: scope.name,
    scope: scopeOut,
    period: { ...period, timeZone: scope.timeZone },
    generatedAt: now,
    content: new Set(scope.content),
    overall: combinedFigures(reportDevices.map((d) => d.figures)),
    classes,
    worst,
    outages,
    maintenance,
    activationTests,
    removed,
    covered,
    consoleUrl,
  };
}
