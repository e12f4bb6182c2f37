import { CITIES, nearestPop, utcOffsetHours, validCoordinates, type Pop } from "./geo.ts";
import { M, objectKey, u01 } from "./hash.ts";
import { DAY, HOUR, MINUTE } from "./time.ts";

/*
 * The object model: what the fleet knows about one of the account's objects (read from the
 * database by the caller) and the per-point functions every series is built from.
 */

/** Object kinds of the product. A kind not listed here still works (as a plain traffic object). */
export type FleetKind = "cpe" | "metro" | "service_node" | "endpoint_node" | "app_service" | "endpoint" | "user_agent" | (string & {});

/** One of the account's objects, as the platform read it. Only `id` is required. */
export interface FleetObject {
  id: string;
  kind?: FleetKind;
  /** Site coordinates, where the object has a site. */
  lat?: number | null;
  lon?: number | null;
  /** Contracted speed in Mbps (metro CIR + EIR, the CPE product's speed). */
  contractedMbps?: number | null;
  /** An app service's endpoints: when given, its traffic is theirs added up. */
  members?: readonly string[];
  /** The devices and nodes the object's traffic passes through: their outages stop its traffic too. */
  via?: readonly FleetObject[];
}

/** A time interval [start, end) in ms since the epoch. */
export interface Interval {
  start: number;
  end: number;
}

/** What happened to a device besides its own outages: announced maintenance and user resets. */
export interface DeviceEvents {
  /** Announced maintenance windows: excluded from uptime, outage alerts suppressed. */
  maintenance?: readonly Interval[];
  /** Times the user reset the device (reset_node): it is down while it reboots. */
  resets?: readonly number[];
  /**
   * When the device's record starts (ms; the platform passes its `created_at`): nothing happened
   * to it before. Every outage, chart, history and figure of the device starts here, so a device
   * created now has no past outages (docs/decisions/2026-12-03-device-record-start.md).
   */
  since?: number;
}

/** The start of a device's record: the time given, or none (the whole past). */
export const recordStart = (events?: DeviceEvents): number => (events?.since !== undefined && Number.isFinite(events.since) ? events.since : -Infinity);

/** Kinds that are devices or nodes: they have outages and an op state the clock moves. */
export const OUTAGE_KINDS = new Set(["cpe", "metro", "service_node", "endpoint_node"]);

const DEFAULT_MBPS: Record<string, number> = {
  cpe: 1000,
  metro: 1000,
  service_node: 10000,
  endpoint_node: 1000,
  app_service: 1000,
  endpoint: 500,
  user_agent: 100,
};

/** Everything per object that does not depend on time, computed once per call. */
export interface Prepared {
  seed: number;
  id: string;
  kind: string;
  key: number;
  lat: number;
  lon: number;
  /** True when the coordinates are the object's own site (not a stand-in). */
  hasSite: boolean;
  /** Site UTC offset, ms. */
  offset: number;
  mbps: number;
  /** Capacity in bytes per second. */
  capacity: number;
  /** Mean peak-hour utilisation of the downlink (0.1–0.4). */
  level: number;
  /** Uplink traffic as a share of downlink. */
  txRatio: number;
  pop: Pop;
  popKm: number;
  /** Idle RTT to the nearest PoP and back, ms. */
  baseRtt: number;
  members?: readonly string[];
  via?: readonly FleetObject[];
  outages: boolean;
}

export function prepare(seed: number, obj: FleetObject | string, kind?: string): Prepared {
  const o: FleetObject = typeof obj === "string" ? { id: obj } : obj;
  const k = String(o.kind ?? kind ?? "endpoint");
  const key = objectKey(seed, o.id);
  let lat: number;
  let lon: number;
  const hasSite = validCoordinates(o.lat, o.lon);
  if (hasSite) {
    lat = o.lat as number;
    lon = o.lon as number;
  } else {
    // Without a site the object lives near a city chosen by its id (a stand-in for its users' time zone).
    const c = CITIES[Math.floor(u01(key, M.place, 0) * CITIES.length)]!;
    lat = c.lat;
    lon = c.lon;
  }
  const mbps = o.contractedMbps && o.contractedMbps > 0 ? o.contractedMbps : (DEFAULT_MBPS[k] ?? 1000);
  const { pop, km } = nearestPop(lat, lon);
  // Light in fibre covers ~200 km per ms; routes are ~1.5× the great-circle distance; plus the access line.
  const baseRtt = 1.5 + (2 * km * 1.5) / 200 + 2 * u01(key, M.rttJitter, -1);
  return {
    seed,
    id: o.id,
    kind: k,
    key,
    lat,
    lon,
    hasSite,
    offset: utcOffsetHours(lon) * HOUR,
    mbps,
    capacity: (mbps * 1e6) / 8,
    level: 0.1 + 0.3 * u01(key, M.level, 0),
    txRatio: 0.2 + 0.4 * u01(key, M.txRatio, 0),
    pop,
    popKm: km,
    baseRtt,
    members: o.members,
    via: o.via,
    outages: OUTAGE_KINDS.has(k),
  };
}

/** Business-hours shape over the local hour (0–24): quiet at night, peak early afternoon, a small evening bump. */
function diurnal(h: number): number {
  const business = h >= 7 && h <= 19 ? Math.sin((Math.PI * (h - 7)) / 12) : 0;
  const evening = 0.15 * Math.exp(-((h - 21) ** 2) / 4);
  return 0.12 + 0.88 * business ** 1.2 + evening;
}

/**
 * Downlink utilisation (0–0.97) of the bucket starting at `t` (ms), without outages:
 * business hours in the site's time zone, quieter weekends, slow drift (hourly value noise),
 * per-bucket noise and rare one-hour bursts.
 */
export function utilisation(p: Prepared, t: number, step: number): number {
  const mid = t + step / 2;
  const local = mid + p.offset;
  const localHour = (((local % DAY) + DAY) % DAY) / HOUR;
  const weekday = (Math.floor(local / DAY) + 4) % 7; // 0 = Sunday (1970-01-01 was a Thursday)
  const weekend = weekday === 0 || weekday === 6 ? 0.3 : 1;
  const hour = Math.floor(mid / HOUR);
  const frac = (mid - hour * HOUR) / HOUR;
  const a = u01(p.key, M.slow, hour);
  const b = u01(p.key, M.slow, hour + 1);
  const slow = 0.8 + 0.4 * (a + (b - a) * frac);
  const fast = 0.88 + 0.24 * u01(p.key, M.fast, Math.floor(t / MINUTE));
  const burst = u01(p.key, M.burst, hour) < 0.03 ? 1.6 : 1;
  const u = p.level * diurnal(localHour) * weekend * slow * fast * burst;
  return u > 0.97 ? 0.97 : u;
}

/** An outage of a device or node: [start, end) in ms, with what the device saw. */
export interface OutageFacts extends Interval {
  outage_id: string;
  node_id: string;
  /** Why it went down: one of CAUSES' codes. */
  cause: CauseCode;
  /** The hop where the path stopped (1-based), or 0 when the gateway itself was unreachable. */
  failedHop: number;
  /** The value that picks the recovery action. */
  recoveryPick: number;
}

export type CauseCode = "gateway_unreachable" | "wan_carrier_lost" | "upstream_routing_failure" | "upstream_packet_loss" | "device_reset";

const CAUSE_ORDER: CauseCode[] = ["gateway_unreachable", "wan_carrier_lost", "upstream_routing_failure", "upstream_routing_failure", "upstream_packet_loss"];

/** Chance that a device has an outage on a given UTC day (≈ 3 a month). */
export const OUTAGE_DAILY_CHANCE = 0.1;

/** The seeded outage of UTC day `day` (index since the epoch), if any. It never leaves its day. */
function outageOfDay(p: Prepared, day: number): OutageFacts | null {
  if (u01(p.key, M.outageDay, day) >= OUTAGE_DAILY_CHANCE) return null;
  // Minutes to a couple of hours, most of them short.
  const lengthS = Math.round(180 + 6900 * u01(p.key, M.outageLength, day) ** 2);
  const startS = Math.floor(u01(p.key, M.outageStart, day) * (86400 - lengthS));
  const start = day * DAY + startS * 1000;
  const cause = CAUSE_ORDER[Math.floor(u01(p.key, M.outageCause, day) * CAUSE_ORDER.length)]!;
  return {
    outage_id: `out-${p.id}-${day}`,
    node_id: p.id,
    start,
    end: start + lengthS * 1000,
    cause,
    failedHop: cause === "gateway_unreachable" ? 0 : cause === "wan_carrier_lost" ? 1 : 2 + Math.floor(u01(p.key, M.hop, day) * 2),
    recoveryPick: u01(p.key, M.recovery, day),
  };
}

/** How long a reset keeps the device down (boot), ms. */
export function resetLength(p: Prepared, at: number): number {
  return (60 + Math.floor(90 * u01(p.key, M.diag, Math.floor(at / 1000)))) * 1000;
}

/**
 * The device's outages overlapping [from, to), in time order, none after `now` (an outage under
 * way ends at `now`... but keeps its planned end in `plannedEnd`). Overlapping windows (a reset
 * during an outage) are merged into the first.
 */
export function outagesBetween(p: Prepared, from: number, to: number, events?: DeviceEvents): OutageFacts[] {
  if (!p.outages) return [];
  // Before the device's record starts nothing happened to it: an outage under way then starts with the record.
  const since = recordStart(events);
  if (to <= since) return [];
  const clipped = (list: OutageFacts[]) => list.filter((o) => o.end > since).map((o) => (o.start < since ? { ...o, start: since } : o));
  return clipped(outagesOfDays(p, from, to, events)).filter((o) => o.end > from && o.start < to);
}

function outagesOfDays(p: Prepared, from: number, to: number, events?: DeviceEvents): OutageFacts[] {
  const list: OutageFacts[] = [];
  for (let day = Math.floor(from / DAY); day * DAY < to; day++) {
    const o = outageOfDay(p, day);
    if (o && o.end > from && o.start < to) list.push(o);
  }
  for (const at of events?.resets ?? []) {
    const end = at + resetLength(p, at);
    if (end > from && at < to) {
      list.push({ outage_id: `out-${p.id}-r${Math.floor(at / 1000)}`, node_id: p.id, start: at, end, cause: "device_reset", failedHop: 0, recoveryPick: 0 });
    }
  }
  if (list.length < 2) return list;
  list.sort((a, b) => a.start - b.start);
  const merged: OutageFacts[] = [list[0]!];
  for (let i = 1; i < list.length; i++) {
    const last = merged[merged.length - 1]!;
    const o = list[i]!;
    if (o.start <= last.end) last.end = Math.max(last.end, o.end);
    else merged.push(o);
  }
  return merged;
}

/** Length of the overlap of [a, b) with the intervals (sorted, disjoint). */
export function overlap(list: readonly Interval[], a: number, b: number): number {
  let sum = 0;
  for (const o of list) {
    if (o.start >= b) break;
    if (o.end <= a) continue;
    sum += Math.min(b, o.end) - Math.max(a, o.start);
  }
  return sum;
}

/**
 * Walks buckets in order, answering the share of each bucket that the outages cover; the
 * pointer only moves forward, so a whole series costs O(points + outages).
 */
export function downFractions(list: readonly Interval[], first: number, step: number, points: number): Float64Array {
  const out = new Float64Array(points);
  let i = 0;
  for (let n = 0; n < points; n++) {
    const a = first + n * step;
    const b = a + step;
    while (i < list.length && list[i]!.end <= a) i++;
    let sum = 0;
    for (let j = i; j < list.length && list[j]!.start < b; j++) sum += Math.min(b, list[j]!.end) - Math.max(a, list[j]!.start);
    out[n] = sum / step;
  }
  return out;
}

/** Sorted, merged copy of intervals. */
export function normalise(list: readonly Interval[] | undefined): Interval[] {
  const sorted = [...(list ?? [])].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}
