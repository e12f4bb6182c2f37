import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { availabilityMessages, SLO_PERCENT, type AvailabilityScope } from "../contract/availability.ts";
import type { Availability, AvailabilityFigures, DeviceAvailability, OutageRecord, SlaReport } from "../contract/availability.shapes.ts";
import type { DeviceEvents, Outage, OutageHistoryRow } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { normalise, overlap, type Interval } from "../fleet/model.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { execRows, isoText } from "../lib/list.ts";
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

/** The figures of one window: what the report, the health tab's block and the CSV all print. */
export function availabilityFigures(input: { start: number; end: number; outages: readonly Interval[]; maintenance: readonly Interval[] }): AvailabilityFigures {
  const { start, end } = input;
  const span = Math.max(0, end - start);
  // Clipped to the window, merged: overlapping outages count once, as does overlapping maintenance.
  const clip = (list: readonly Interval[]) => normalise(list.map((i) => ({ start: Math.max(start, i.start), end: Math.min(end, i.end) })));
  const maint = clip(input.maintenance);
  const maintenance = maint.reduce((s, m) => s + m.end - m.start, 0);
  let down = 0;
  let count = 0;
  // An outage counts when part of it fell outside announced maintenance (the raw list: each outage once).
  for (const o of input.outages) {
    const a = Math.max(start, o.start);
    const b = Math.min(end, o.end);
    if (b > a && b - a - overlap(maint, a, b) > 0) count++;
  }
  for (const o of clip(input.outages)) down += o.end - o.start - overlap(maint, o.start, o.end);
  return figuresOf(span, maintenance, down, count);
}

function figuresOf(span: number, maintenance: number, down: number, outages: number): AvailabilityFigures {
  const counted = span - maintenance;
  const budget = (counted * (100 - SLO_PERCENT)) / 100;
  return {
    window_minutes: r3(span / MINUTE),
    maintenance_minutes: r3(maintenance / MINUTE),
    downtime_minutes: r3(down / MINUTE),
    outages,
    // Nothing to count (a window of maintenance only, or none): no percentage rather than a made-up 100.
    uptime_percent: counted > 0 ? r3(((counted - down) / counted) * 100) : null,
    slo_percent: SLO_PERCENT,
    slo_budget_minutes: r3(budget / MINUTE),
    slo_met: counted > 0 ? down <= budget : null,
  };
}

/** An entity's figures: its devices' windows, maintenance and downtime added (device-minutes). */
export function combinedFigures(parts: readonly AvailabilityFigures[]): AvailabilityFigures {
  const sum = (f: (x: AvailabilityFigures) => number) => parts.reduce((s, p) => s + f(p), 0) * MINUTE;
  return figuresOf(
    sum((p) => p.window_minutes),
    sum((p) => p.maintenance_minutes),
    sum((p) => p.downtime_minutes),
    parts.reduce((s, p) => s + p.outages, 0),
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

interface DeviceRow {
  id: string;
  kind: DeviceKind;
  name: string;
  created_at: string;
}

async function devicesOf(db: DbOrTx, accountId: string, scope: AvailabilityScope): Promise<{ entity: { id: string; name: string } | null; devices: DeviceRow[] }> {
  const select = (kind: DeviceKind, where: ReturnType<typeof sql>) => {
    const t = deviceTables[kind];
    return sql`select ${sql.identifier(t.id)} as id, ${kind} as kind, ${sql.identifier(t.name)} as name, ${isoText(sql`created_at`)} as created_at
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

/** The window asked for, resolved at `now`: a named range ends now; a month is clipped to now. */
function resolveWindow(deps: Deps, w: AvailabilityWindow, now: number): { start: number; end: number; label: string } {
  if ("month" in w) {
    const m = monthWindow(w.month);
    return { start: m.start, end: Math.min(m.end, now), label: w.month };
  }
  const r = fleetOf(deps).window(w.range as never, now);
  return { start: r.start, end: Math.min(r.end, now), label: w.range };
}

/** One device's outages and figures over [start, end), its creation clipping the start. */
function deviceFigures(deps: Deps, d: DeviceRow, events: DeviceEvents, start: number, end: number, now: number): { figures: AvailabilityFigures; outages: Outage[]; from: number } {
  const from = Math.min(end, Math.max(start, Date.parse(d.created_at)));
  const outages = end > from ? fleetOf(deps).outages({ id: d.id, kind: d.kind }, { start: from, end }, now, { events }) : [];
  return { figures: availabilityFigures({ start: from, end, outages, maintenance: events.maintenance ?? [] }), outages, from };
}

/**
 * get_availability: the device's or the entity's figures over the window, each device's beside an
 * entity's. The devices and their events go through `remember` (the read cache); the figures are
 * the fleet's now.
 */
export async function availability(deps: Deps, accountId: string, scope: AvailabilityScope, w: AvailabilityWindow, remember: Remember = computeNow, now = Date.now()): Promise<Availability> {
  const { entity, devices, events } = await remember(async () => {
    const found = await devicesOf(deps.db, accountId, scope);
    return { ...found, events: await deviceEvents(deps.db, found.devices.map((d) => d.id)) };
  });
  const win = resolveWindow(deps, w, now);
  const rows: DeviceAvailability[] = devices.map((d) => {
    const ev = events[d.id] ?? {};
    const { figures, from } = deviceFigures(deps, d, ev, win.start, win.end, now);
    const maintenance = (ev.maintenance ?? [])
      .filter((m) => m.end > from && m.start < win.end)
      .map((m) => ({ start: new Date(m.start).toISOString(), end: new Date(m.end).toISOString() }));
    return { node_id: d.id, kind: d.kind, name: d.name, counted_from: new Date(from).toISOString(), ...figures, maintenance };
  });
  const figures = entity ? combinedFigures(rows) : rows[0]!;
  return {
    scope: entity ? "entity" : "device",
    id: entity?.id ?? rows[0]!.node_id,
    name: entity?.name ?? rows[0]!.name,
    window: win.label,
    start: new Date(win.start).toISOString(),
    end: new Date(win.end).toISOString(),
    label: availabilityMessages.label,
    ...pickFigures(figures),
    devices: rows,
  };
}

const pickFigures = (f: AvailabilityFigures): AvailabilityFigures => ({
  window_minutes: f.window_minutes,
  maintenance_minutes: f.maintenance_minutes,
  downtime_minutes: f.downtime_minutes,
  outages: f.outages,
  uptime_percent: f.uptime_percent,
  slo_percent: f.slo_percent,
  slo_budget_minutes: f.slo_budget_minutes,
  slo_met: f.slo_met,
});

/** get_sla_report: the month's figures and every outage that counted, per device. */
export async function slaReport(deps: Deps, accountId: string, scope: AvailabilityScope, month: string, now = Date.now()): Promise<SlaReport> {
  const a = await availability(deps, accountId, scope, { month }, computeNow, now);
  const events = await deviceEvents(
    deps.db,
    a.devices.map((d) => d.node_id),
  );
  const end = Date.parse(a.end);
  const outages = a.devices.flatMap((d) => {
    const ev = events[d.node_id] ?? {};
    const maint = normalise(ev.maintenance);
    return fleetOf(deps)
      .outages({ id: d.node_id, kind: d.kind }, { start: Date.parse(d.counted_from), end: Math.max(end, Date.parse(d.counted_from) + 1) }, now, { events: ev })
      .map((o) => {
        const a0 = Math.max(Date.parse(d.counted_from), o.start);
        const b0 = Math.min(end, o.end);
        const counted = b0 > a0 ? b0 - a0 - overlap(maint, a0, b0) : 0;
        return {
          node_id: d.node_id,
          name: d.name,
          outage_id: o.outage_id,
          start_time: o.start_time,
          end_time: o.end_time,
          counted_minutes: r3(counted / MINUTE),
          announced: o.announced,
          self_diagnosis: o.self_diagnosis,
        };
      });
  });
  outages.sort((x, y) => (x.start_time < y.start_time ? -1 : x.start_time > y.start_time ? 1 : 0));
  return { ...a, month, generated_at: new Date(now).toISOString(), outage_list: outages };
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
  return fleetOf(deps).outageHistory(fleetObjectOf(d), range as never, now, { events, target: d.ipMonitorTarget ?? undefined });
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
  // The SLA impact in the month the outage began: its minutes outside maintenance, against that month's counted time.
  const month = o.start_time.slice(0, 7);
  const mw = monthWindow(month);
  const [created] = await execRows<{ created_at: string }>(
    deps.db,
    sql`select ${isoText(sql`created_at`)} as created_at from ${sql.identifier(deviceTables[d.kind].table)} where ${sql.identifier(deviceTables[d.kind].id)} = ${d.id}`,
  );
  const from = Math.max(mw.start, Date.parse(created?.created_at ?? new Date(mw.start).toISOString()));
  const monthEnd = Math.min(mw.end, now);
  const single = availabilityFigures({ start: from, end: monthEnd, outages: [o], maintenance: events.maintenance ?? [] });
  const counted = single.window_minutes - single.maintenance_minutes;
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
    sla_impact: {
      month,
      minutes: single.downtime_minutes,
      percentage_points: counted > 0 ? r3((single.downtime_minutes / counted) * 100) : 0,
    },
  };
}
