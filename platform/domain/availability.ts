import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { availabilityMessages, SLO_PERCENT, type AvailabilityScope } from "../contract/availability.ts";
import type { Availability, AvailabilityFigures, DeviceAvailability, OutageRecord, SlaReport } from "../contract/availability.shapes.ts";
import { historyRows, isRangeName, RANGES, recordStart, type DeviceEvents, type Fleet, type FleetObject, type Outage, type OutageHistoryRow } from "../fleet/index.ts";
import type { DeviceOptions } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { normalise, overlap, type Interval } from "../fleet/model.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { execRows } from "../lib/list.ts";
import { deviceEvents, deviceTables, eventsOf, fleetObjectOf, kindOfId, requireDevice, type DeviceKind, type DeviceRef } from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";

/*
 * Availability a customer can be handed (issue #26 "Beyond the peers"): per device and per entity,
 * uptime = (window − downtime − maintenance) / (window − maintenance), where the downtime counted
 * is the part of the outages outside announced maintenance ('excl. maintenance'). The formula is
 * one pure function (`availabilityFigures`, unit-tested on its edges); the rest reads the caller's
 * devices, their announcements and the fleet's outages. Every query is scoped to the account.
 */

const MINUTE = 60_000;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The figures of one window: what the report, the health tab's block and the CSV all print.
 * `budgetFrom`: where the window asked for starts (the SLO's allowance is the whole window's, less
 * its maintenance, even when the device's record starts later); `start`: where counting starts.
 */
export function availabilityFigures(input: { start: number; end: number; outages: readonly Interval[]; maintenance: readonly Interval[]; budgetFrom?: number }): AvailabilityFigures {
  const { start, end } = input;
  const span = Math.max(0, end - start);
  // Clipped to the window, merged: overlapping outages count once, as does overlapping maintenance.
  const clipTo = (list: readonly Interval[], a: number) => normalise(list.map((i) => ({ start: Math.max(a, i.start), end: Math.min(end, i.end) })));
  const maint = clipTo(input.maintenance, start);
  const maintenance = maint.reduce((s, m) => s + m.end - m.start, 0);
  const budgetFrom = Math.min(start, input.budgetFrom ?? start);
  const budgetSpan = Math.max(0, end - budgetFrom) - clipTo(input.maintenance, budgetFrom).reduce((s, m) => s + m.end - m.start, 0);
  let down = 0;
  let count = 0;
  // An outage counts when part of it fell outside announced maintenance (the raw list: each outage once).
  for (const o of input.outages) {
    const a = Math.max(start, o.start);
    const b = Math.min(end, o.end);
    if (b > a && b - a - overlap(maint, a, b) > 0) count++;
  }
  for (const o of clipTo(input.outages, start)) down += o.end - o.start - overlap(maint, o.start, o.end);
  return figuresOf(span, maintenance, down, count, (budgetSpan * (100 - SLO_PERCENT)) / 100);
}

function figuresOf(span: number, maintenance: number, down: number, outages: number, budget: number): AvailabilityFigures {
  const counted = span - maintenance;
  return {
    window_minutes: r3(span / MINUTE),
    maintenance_minutes: r3(maintenance / MINUTE),
    downtime_minutes: r3(down / MINUTE),
    outages,
    // Nothing to count: no percentage rather than a made-up 100, and the true reason why.
    uptime_percent: counted > 0 ? r3(((counted - down) / counted) * 100) : null,
    na_reason: counted > 0 ? null : span > 0 ? "maintenance" : "no_data",
    slo_percent: SLO_PERCENT,
    slo_budget_minutes: r3(budget / MINUTE),
    slo_met: counted > 0 ? down <= budget : null,
  };
}

/** An entity's figures: its devices' windows, maintenance, downtime and budgets added (device-minutes). */
export function combinedFigures(parts: readonly AvailabilityFigures[]): AvailabilityFigures {
  const sum = (f: (x: AvailabilityFigures) => number) => parts.reduce((s, p) => s + f(p), 0) * MINUTE;
  return figuresOf(
    sum((p) => p.window_minutes),
    sum((p) => p.maintenance_minutes),
    sum((p) => p.downtime_minutes),
    parts.reduce((s, p) => s + p.outages, 0),
    sum((p) => p.slo_budget_minutes),
  );
}

/** A calendar month 'YYYY-MM' as [start, end) in UTC. */
export function monthWindow(month: string): { start: number; end: number } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return { start: Date.UTC(y, m - 1, 1), end: Date.UTC(y, m, 1) };
}

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

/** What an availability is asked over: a named range ending now, or a calendar month. */
export type AvailabilityWindow = { range: string } | { month: string };

/**
 * One device's record over a window: the outages it had there (its record's start and now
 * bounding them), each one's minutes outside announced maintenance, and the figures. The ONE
 * function behind availability, the SLA report (page, CSV, PDF), the outage history, the outage
 * record's SLA impact and the WAN Link Health card: they cannot disagree.
 */
export interface DeviceWindow {
  /** Where counting starts: the window's start, or the record's when later (at most `end`). */
  from: number;
  end: number;
  outages: Outage[];
  /** Per outage (same order), its ms in the window outside announced maintenance. */
  counted: number[];
  maintenance: Interval[];
  figures: AvailabilityFigures;
}

export function deviceWindow(fleet: Fleet, obj: FleetObject, opts: DeviceOptions, start: number, end: number, now: number): DeviceWindow {
  const stop = Math.min(end, now);
  const from = Math.min(stop, Math.max(start, recordStart(opts.events)));
  const outages = stop > from ? fleet.outages(obj, { start: from, end: stop }, now, opts) : [];
  const maintenance = normalise(opts.events?.maintenance);
  const counted = outages.map((o) => {
    const a = Math.max(from, o.start);
    const b = Math.min(stop, o.end);
    return b > a ? b - a - overlap(maintenance, a, b) : 0;
  });
  const figures = availabilityFigures({ start: from, end: stop, outages, maintenance, budgetFrom: Math.min(start, stop) });
  return { from, end: stop, outages, counted, maintenance: maintenance.filter((m) => m.end > from && m.start < stop), figures };
}

/** The window asked for, resolved at `now`: a named range is the span ending now; a month is clipped to now. */
export function resolveWindow(w: AvailabilityWindow, now: number): { start: number; end: number; label: string } {
  if ("month" in w) {
    const m = monthWindow(w.month);
    return { start: m.start, end: Math.min(m.end, now), label: w.month };
  }
  if (!isRangeName(w.range)) throw new RangeError(`unknown range: ${w.range}`);
  return { start: now - RANGES[w.range].span, end: now, label: w.range };
}

/** A device as the availability reads it (also what scheduled reports read: domain/report-schedules-make.ts). */
export interface DeviceRow {
  id: string;
  kind: DeviceKind;
  name: string;
  latitude: number | null;
  longitude: number | null;
  cir: number | null;
  eir: number | null;
  target: string | null;
}

async function devicesOf(db: DbOrTx, accountId: string, scope: AvailabilityScope): Promise<{ entity: { id: string; name: string } | null; devices: DeviceRow[] }> {
  const select = (kind: DeviceKind, where: ReturnType<typeof sql>) => {
    const t = deviceTables[kind];
    return sql`select ${sql.identifier(t.id)} as id, ${kind} as kind, ${sql.identifier(t.name)} as name, latitude, longitude, wan_cir_mbps as cir, wan_eir_mbps as eir,
      ${kind === "cpe" ? sql`ip_monitor_target` : sql`null::text`} as target
      from ${sql.identifier(t.table)} where account_id = ${accountId} and ${where}`;
  };
  if ("node_id" in scope) {
    const kind = kindOfId(scope.node_id);
    if (!kind) throw notFound(availabilityMessages.deviceNotFound);
    const rows = await execRows<DeviceRow>(db, select(kind, sql`${sql.identifier(deviceTables[kind].id)} = ${scope.node_id}`));
    if (!rows.length) throw notFound(availabilityMessages.deviceNotFound);
    return { entity: null, devices: rows };
  }
  const [entity] = await execRows<{ id: string; name: string }>(
    db,
    sql`select entity_id as id, entity_name as name from entities where entity_id = ${scope.entity_id} and account_id = ${accountId}`,
  );
  if (!entity) throw notFound(availabilityMessages.entityNotFound);
  const rows = await execRows<DeviceRow>(db, sql`${select("cpe", sql`entity_id = ${entity.id}`)} union all ${select("metro", sql`entity_id = ${entity.id}`)} order by name, id`);
  return { entity, devices: rows };
}

/** A device row as the fleet has it: the same object and options as the device's other screens. */
export const fleetViewOf = (d: DeviceRow, events: DeviceEvents): { obj: FleetObject; opts: DeviceOptions } => ({
  obj: fleetObjectOf({ id: d.id, kind: d.kind, lat: d.latitude === null ? null : Number(d.latitude), lon: d.longitude === null ? null : Number(d.longitude), cir: Number(d.cir ?? 0), eir: Number(d.eir ?? 0) }),
  opts: { events, target: d.target ?? undefined },
});

/** The scope's devices, each with its record over the window. */
async function windowsOf(deps: Deps, accountId: string, scope: AvailabilityScope, w: AvailabilityWindow, remember: Remember, now: number) {
  const { entity, devices, events } = await remember(async () => {
    const found = await devicesOf(deps.db, accountId, scope);
    return { ...found, events: await deviceEvents(deps.db, found.devices.map((d) => d.id)) };
  });
  const win = resolveWindow(w, now);
  const fleet = fleetOf(deps);
  const rows = devices.map((d) => {
    const { obj, opts } = fleetViewOf(d, events[d.id] ?? {});
    return { d, record: deviceWindow(fleet, obj, opts, win.start, win.end, now) };
  });
  return { entity, win, rows };
}

/**
 * get_availability: the device's or the entity's figures over the window, each device's beside an
 * entity's. The devices and their events go through `remember` (the read cache); the figures are
 * the fleet's now.
 */
export async function availability(deps: Deps, accountId: string, scope: AvailabilityScope, w: AvailabilityWindow, remember: Remember = computeNow, now = Date.now()): Promise<Availability> {
  return availabilityOf(await windowsOf(deps, accountId, scope, w, remember, now));
}

function availabilityOf({ entity, win, rows }: Awaited<ReturnType<typeof windowsOf>>): Availability {
  const devices: DeviceAvailability[] = rows.map(({ d, record }) => ({
    node_id: d.id,
    kind: d.kind,
    name: d.name,
    counted_from: new Date(record.from).toISOString(),
    ...record.figures,
    maintenance: record.maintenance.map((m) => ({ start: new Date(m.start).toISOString(), end: new Date(m.end).toISOString() })),
  }));
  const figures = entity ? combinedFigures(devices) : devices[0]!;
  return {
    scope: entity ? "entity" : "device",
    id: entity?.id ?? devices[0]!.node_id,
    name: entity?.name ?? devices[0]!.name,
    window: win.label,
    start: new Date(win.start).toISOString(),
    end: new Date(win.end).toISOString(),
    label: availabilityMessages.label,
    ...pickFigures(figures),
    devices,
  };
}

const pickFigures = (f: AvailabilityFigures): AvailabilityFigures => ({
  window_minutes: f.window_minutes,
  maintenance_minutes: f.maintenance_minutes,
  downtime_minutes: f.downtime_minutes,
  outages: f.outages,
  uptime_percent: f.uptime_percent,
  na_reason: f.na_reason,
  slo_percent: f.slo_percent,
  slo_budget_minutes: f.slo_budget_minutes,
  slo_met: f.slo_met,
});

/** get_sla_report: the month's figures and every outage that counted, per device: the same records as the figures. */
export async function slaReport(deps: Deps, accountId: string, scope: AvailabilityScope, month: string, now = Date.now()): Promise<SlaReport> {
  const windows = await windowsOf(deps, accountId, scope, { month }, computeNow, now);
  const outages = windows.rows.flatMap(({ d, record }) =>
    record.outages.map((o, i) => ({
      node_id: d.id,
      name: d.name,
      outage_id: o.outage_id,
      start_time: o.start_time,
      end_time: o.end_time,
      counted_minutes: r3(record.counted[i]! / MINUTE),
      announced: o.announced,
      self_diagnosis: o.self_diagnosis,
    })),
  );
  outages.sort((x, y) => (x.start_time < y.start_time ? -1 : x.start_time > y.start_time ? 1 : 0));
  return { ...availabilityOf(windows), month, generated_at: new Date(now).toISOString(), outage_list: outages };
}

/** The device an outage id names (`out-<device id>-…`), of the caller's account, or 404. */
async function deviceOfOutage(db: DbOrTx, accountId: string, outageId: string): Promise<DeviceRef> {
  const m = /^out-(.+)-r?\d+$/.exec(outageId);
  const kind = m ? kindOfId(m[1]!) : null;
  if (!m || !kind) throw notFound(availabilityMessages.outageNotFound);
  try {
    return await requireDevice(db, accountId, kind, m[1]!);
  } catch {
    throw notFound(availabilityMessages.outageNotFound);
  }
}

/** get_outage_history: the device's Outage History rows over a named range, newest first. */
export async function outageHistory(deps: Deps, accountId: string, nodeId: string, range: string, now = Date.now()): Promise<OutageHistoryRow[]> {
  const kind = kindOfId(nodeId);
  if (!kind) throw notFound(availabilityMessages.deviceNotFound);
  const d = await requireDevice(deps.db, accountId, kind, nodeId).catch(() => {
    throw notFound(availabilityMessages.deviceNotFound);
  });
  const events = await eventsOf(deps.db, d);
  return historyOf(fleetOf(deps), fleetObjectOf(d), { events, target: d.ipMonitorTarget ?? undefined }, range, now);
}

/** The Outage History rows of a named range: the outages of the device's record there (deviceWindow), newest first. */
export function historyOf(fleet: Fleet, obj: FleetObject, opts: DeviceOptions, range: string, now: number): OutageHistoryRow[] {
  const win = resolveWindow({ range }, now);
  return historyRows(deviceWindow(fleet, obj, opts, win.start, win.end, now).outages);
}

/**
 * What an outage of the device affected: the account's endpoints whose address is on the device's
 * LAN (an Internet NID's lan_cidr: their traffic goes through it) and the app services they belong
 * to. A Metro NID carries VLANs, not addresses: nothing is known to go through it.
 */
export async function affectedOf(db: DbOrTx, accountId: string, d: DeviceRef): Promise<{ app_services: string[]; endpoints: string[] }> {
  if (d.kind !== "cpe") return { app_services: [], endpoints: [] };
  const rows = await execRows<{ ep_name: string; app_service_name: string }>(
    db,
    sql`select e.ep_name, a.app_service_name from endpoints e join app_services a on a.app_service_id = e.app_service_id
          join cpes c on c.cpe_id = ${d.id} and c.account_id = e.account_id
         where e.account_id = ${accountId}
           and case when e.ip_addr ~ '^[0-9]{1,3}([.][0-9]{1,3}){3}$' and c.lan_cidr ~ '^[0-9.]+/[0-9]{1,2}$' then e.ip_addr::inet <<= c.lan_cidr::inet else false end
         order by e.ep_name limit 200`,
  );
  return { app_services: [...new Set(rows.map((r) => r.app_service_name))].sort(), endpoints: rows.map((r) => r.ep_name) };
}

/** get_outage: the outage record, everything one page shows. */
export async function outageRecord(deps: Deps, accountId: string, outageId: string, now = Date.now()): Promise<OutageRecord> {
  const d = await deviceOfOutage(deps.db, accountId, outageId);
  const fleet = fleetOf(deps);
  const events = await eventsOf(deps.db, d);
  const obj = fleetObjectOf(d);
  const opts = { events, target: d.ipMonitorTarget ?? undefined };
  const o = fleet.outage(obj, outageId, now, opts);
  if (!o) throw notFound(availabilityMessages.outageNotFound);
  const today = fleet.route(obj, now, opts);
  const pathThen = o.down_hops.map((h) => ({ hop: h.hop, hostname: h.hostname, ip: h.ip }));
  // The SLA impact in the month the outage began: its minutes there outside maintenance, as the
  // month's SLA report counts them (the same record), against that month's counted time.
  const month = o.start_time.slice(0, 7);
  const mw = monthWindow(month);
  const record = deviceWindow(fleet, obj, opts, mw.start, mw.end, now);
  const at = record.outages.findIndex((x) => x.outage_id === o.outage_id);
  const minutes = at < 0 ? 0 : r3(record.counted[at]! / MINUTE);
  const counted = record.figures.window_minutes - record.figures.maintenance_minutes;
  const maintenance = normalise(events.maintenance)
    .filter((m) => m.start < (o.end_time ? o.end : now) && m.end > o.start)
    .map((m) => ({ start: new Date(m.start).toISOString(), end: new Date(m.end).toISOString() }));
  return {
    outage_id: o.outage_id,
    node_id: d.id,
    kind: d.kind,
    name: d.name,
    start_time: o.start_time,
    end_time: o.end_time,
    duration_s: o.duration_s,
    cause: o.cause,
    self_diagnosis: o.self_diagnosis,
    recovery: o.recovery,
    announced: o.announced,
    destination: today.destination,
    path_at_failure: pathThen,
    path_today: today.up_hops,
    affected: await affectedOf(deps.db, accountId, d),
    maintenance,
    sla_impact: {
      month,
      minutes,
      percentage_points: counted > 0 ? r3((minutes / counted) * 100) : 0,
    },
  };
}
