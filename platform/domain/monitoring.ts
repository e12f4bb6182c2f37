import { sql } from "drizzle-orm";
import { summaryItems, type MonitoringRange, type SummaryItem } from "../contract/monitoring.ts";
import type { DashboardSummary, DeviceRoute, PostMortem, SummaryDevice, WanLinkHealth, WanLinkUtilization } from "../contract/monitoring.shapes.ts";
import type { DbOrTx } from "../db/client.ts";
import { nearestPop, validCoordinates } from "../fleet/geo.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { Affected } from "../fleet/index.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { execRows } from "../lib/list.ts";
import { accountSummary } from "./dashboard.ts";
import { deviceWindow, resolveWindow } from "./availability.ts";
import { historyRows } from "../fleet/index.ts";
import { fleetObjectOf, storedNode, type DeviceRef } from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";
import { findEntityByName } from "./entities.ts";
import { monitoringMessages as monitoringWords } from "../contract/messages.ts";

/*
 * The monitoring feeds of /main-dashboard (spec 3 §2.14): the account's summary (counts, regions,
 * devices), and per device of the account its WAN link health, utilization, route and outage
 * post-mortems, all from the fleet (docs/fleet.md) for the device as stored (site, contracted
 * speed, announced maintenance, resets, monitored address). Every figure is a function of the
 * device's rows and the time, so any platform instance answers the same (the post-mortem stream
 * resumes on any instance from its Last-Event-ID offset); the rows may come from the read cache
 * (`remember`, lib/auth.ts), the figures are computed at each call.
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

export const monitoringMessages = {
  outageNotFound: monitoringWords.outageNotFound,
  entityNotFound: (name: string) => `Entity ${name} not found.`,
} as const;

// ---------------------------------------------------------------------------------------------
// dashboard_get_summary

interface DeviceRow {
  id: string;
  name: string;
  kind: "cpe" | "metro";
  prod_code: string;
  address: string | null;
  latitude: string | number | null;
  longitude: string | number | null;
  op_state: "up" | "down" | null;
}

const registeredOpState = sql`case when state = 'registered' then op_state end`;

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** Region of a site: the provider PoP nearest it ('Unknown' without valid coordinates). */
const regionOf = (d: SummaryDevice) => (validCoordinates(d.latitude, d.longitude) ? nearestPop(d.latitude!, d.longitude!).pop.code.toUpperCase() : "Unknown");

/**
 * The account's Global counts (devices of the entity when one is named; the Private Access
 * objects always of the whole account: they belong to no entity), its devices by region, and the
 * devices themselves (spec 3 §3 Dashboard summary).
 */
export async function dashboardSummary(db: DbOrTx, accountId: string, entityName?: string): Promise<DashboardSummary> {
  let entity = sql``;
  if (entityName) {
    const e = await findEntityByName(db, accountId, entityName);
    if (!e) throw notFound(monitoringMessages.entityNotFound(entityName));
    entity = sql` and entity_id = ${e.entityId}`;
  }
  const [rows, counts] = await Promise.all([
    execRows<DeviceRow>(
      db,
      // A device never registered is neither up nor down (Devices Up counts what the network watches).
      sql`select cpe_id as id, cpe_name as name, 'cpe' as kind, prod_code, site_address as address, latitude, longitude, ${registeredOpState} as op_state from cpes where account_id = ${accountId}${entity}
        union all select metro_id, metro_name, 'metro', prod_code, site_address, latitude, longitude, ${registeredOpState} from metros where account_id = ${accountId}${entity}
        order by kind, name, id`,
    ),
    accountSummary(db, accountId),
  ]);
  const devices: SummaryDevice[] = rows.map((r) => ({
    ...r,
    address: r.address ?? "",
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    op_state: r.op_state ?? null,
  }));
  const count: Record<SummaryItem, number> = {
    "Internet NIDs": devices.filter((d) => d.kind === "cpe").length,
    "Metro Ethernet NIDs": devices.filter((d) => d.kind === "metro").length,
    "Devices Up": devices.filter((d) => d.op_state === "up").length,
    "Devices Down": devices.filter((d) => d.op_state === "down").length,
    "App Services": counts.app_services,
    Endpoints: counts.endpoints,
    "Service Nodes": counts.service_nodes,
    "Endpoint Nodes": counts.endpoint_nodes,
    "User Agents": counts.user_agents,
  };
  const regions = new Map<string, { region: string; devices: number; down: number }>();
  for (const d of devices) {
    const region = regionOf(d);
    const r = regions.get(region) ?? { region, devices: 0, down: 0 };
    r.devices++;
    if (d.op_state === "down") r.down++;
    regions.set(region, r);
  }
  return {
    global: Object.fromEntries(summaryItems.map((k) => [k, count[k]])),
    regions: [...regions.values()].sort((a, b) => b.devices - a.devices || a.region.localeCompare(b.region)),
    devices,
  };
}

// ---------------------------------------------------------------------------------------------
// One device: health, utilization, route

/**
 * A device of the account (404 otherwise) as the fleet sees it, with its events and monitored
 * address. Its rows go through `remember` (the read cache: see Remember in lib/auth.ts).
 */
async function deviceOf(deps: Deps, accountId: string, nodeId: string, remember: Remember = computeNow) {
  const stored = await remember(() => storedNode(deps.db, accountId, nodeId));
  const { d, events } = stored;
  return {
    d,
    stored,
    obj: fleetObjectOf(d),
    events,
    opts: { events, target: d.ipMonitorTarget ?? undefined },
    fleet: fleetOf(deps),
  };
}

/** dashboard_get_wan_link_health: uptime, the health/RTT/loss series, the last week's daily tests, the connection status and the outage history. */
export async function wanLinkHealth(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, remember: Remember = computeNow, now = Date.now()): Promise<WanLinkHealth> {
  const { d, stored, obj, events, opts, fleet } = await deviceOf(deps, accountId, nodeId, remember);
  // The uptime and the outage history of the availability's record for the same window.
  const win = resolveWindow({ range }, now);
  const record = deviceWindow(fleet, obj, opts, win.start, win.end, now);
  return {
    device_id: d.id,
    range,
    uptime_percent: record.figures.uptime_percent,
    health: fleet.wanHealth(obj, range, now, events),
    // A daily test: a week of them whatever the range (a shorter range would hold none or one);
    // at the CPE's hour, else 02:00.
    performance_tests: fleet.performanceTests(obj, "1w", now, stored.perfTestHour ?? 2, events),
    connection_status: fleet.connectionStatus(obj, { start: win.start, end: win.end }, now, opts),
    outage_history: historyRows(record.outages),
  };
}

/** dashboard_get_wan_link_utilization: the utilization ratios and the peak hours. */
export async function wanLinkUtilization(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, remember: Remember = computeNow, now = Date.now()): Promise<WanLinkUtilization> {
  const { d, obj, events, fleet } = await deviceOf(deps, accountId, nodeId, remember);
  return {
    device_id: d.id,
    range,
    utilization: fleet.utilization(obj, range, now, events),
    peak_hours: fleet.peakHours(obj, range, now, events),
  };
}

/** dashboard_get_route: today's path to the monitored address and the one at the last outage. */
export async function deviceRoute(deps: Deps, accountId: string, nodeId: string, remember: Remember = computeNow, now = Date.now()): Promise<DeviceRoute> {
  const { obj, opts, fleet } = await deviceOf(deps, accountId, nodeId, remember);
  return fleet.route(obj, now, opts);
}

// ---------------------------------------------------------------------------------------------
// Post-mortem

/** What an outage of a device affected; the availability area's answer when it offers one. */
export type AffectedOf = (db: DbOrTx, accountId: string, d: DeviceRef) => Promise<Affected>;
const noneAffected: AffectedOf = async () => ({
  app_services: [],
  endpoints: [],
});

/** A post-mortem chunk's pause: the text arrives as it is written, not all at once. */
export const POST_MORTEM_CHUNK_MS = 60;

/**
 * The post-mortem of one of the device's outages: its facts, the whole markdown, and the same text
 * as a stream of chunks. Another device's outage, or none by that id: 404.
 */
export async function postMortemOf(
  deps: Deps,
  accountId: string,
  nodeId: string,
  outageId: string,
  options: { now?: number; affected?: AffectedOf; chunkDelayMs?: number } = {},
): Promise<PostMortem & { stream: AsyncIterable<string> }> {
  const now = options.now ?? Date.now();
  const { d, obj, opts, fleet } = await deviceOf(deps, accountId, nodeId);
  const outage = fleet.outage(obj, outageId, now, opts);
  if (!outage) throw notFound(monitoringMessages.outageNotFound);
  const affected = await (options.affected ?? noneAffected)(deps.db, accountId, d);
  const pm = fleet.postMortem(obj, outageId, now, {
    ...opts,
    affected,
    name: d.name,
    chunkDelayMs: options.chunkDelayMs ?? 0,
  });
  if (!pm) throw notFound(monitoringMessages.outageNotFound);
  return {
    device_id: d.id,
    outage_id: outageId,
    start_time: outage.start_time,
    end_time: outage.end_time,
    markdown: pm.markdown,
    stream: pm.stream,
  };
}
