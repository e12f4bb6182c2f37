import { appVisibility, currentSessions, netflows, totals, type AppVisibility, type EndpointSession, type NetflowRow, type TopTalker } from "./flows.ts";
import { ddos, type Ddos, type DdosSettings } from "./ddos.ts";
import { normalise, OUTAGE_KINDS, outagesBetween, prepare, recordStart, resetLength, utilisation, type DeviceEvents, type FleetKind, type FleetObject, type OutageFacts, type Prepared } from "./model.ts";
import {
  activationPlan,
  healthCheck,
  lanInterfaces,
  pingOutput,
  speedTestLength,
  speedTestResult,
  tracerouteOutput,
  type ActivationMessage,
  type ActivationPeer,
  type HealthCheck,
  type LanInterface,
  type SpeedTestResult,
  type SpeedTestType,
} from "./ops.ts";
import { chunks, DEFAULT_TARGET, historyRows, postMortemMarkdown, presentOutage, route, type Affected, type Outage, type OutageHistoryRow, type Route } from "./outages.ts";
import { wanAddresses } from "./paths.ts";
import { POPS } from "./geo.ts";
import {
  nodeMetrics,
  pastOutages,
  peakHours,
  performanceTests,
  r3,
  traffic,
  trafficSamples,
  uptimeRatio,
  utilization,
  wanHealth,
  type NodeMetricsSample,
  type PeakHours,
  type SpeedTestSample,
  type Traffic,
  type TrafficSample,
  type UtilizationSample,
  type WanHealthSample,
} from "./series.ts";
import { DAY, HOUR, iso, MINUTE, resolveRange, type RangeInput, type Window } from "./time.ts";
import { M, u01 } from "./hash.ts";

/*
 * The provider's device network, simulated (docs/fleet.md). One interface for every screen that
 * shows what the network does: plain typed functions of (seed, the account's objects, time),
 * with field names as the specs give them. No HTTP, no database and no state in here: the
 * platform reads its objects and passes them in; the clock (clock.ts) moves op states.
 */

export type { FleetObject, FleetKind, DeviceEvents, Interval } from "./model.ts";
export type { RangeInput, RangeName, Window } from "./time.ts";
export { RANGES, resolveRange, isRangeName, MAX_SPAN } from "./time.ts";
export type { Outage, OutageHistoryRow, Route, Affected } from "./outages.ts";
export { historyRows } from "./outages.ts";
export type { TrafficSample, NodeMetricsSample, WanHealthSample, UtilizationSample, PeakHours, SpeedTestSample } from "./series.ts";
export type { TopTalker, NetflowRow, EndpointSession, AppVisibility, AppSession } from "./flows.ts";
export type { Ddos, DdosSettings, DdosThresholds, Threshold, DosAttack, GeoEntry, DdosNode } from "./ddos.ts";
export { DEFAULT_DDOS_THRESHOLDS, MALICIOUS_SCORE } from "./ddos.ts";
export type { ActivationMessage, ActivationPeer, ActivationReport, SpeedTestResult, SpeedTestType, LanInterface, HealthCheck } from "./ops.ts";
export { OUTAGE_KINDS, recordStart } from "./model.ts";
export { CITIES, POPS } from "./geo.ts";
export { APPS } from "./apps.ts";

export type Time = Date | number | string;
export type ObjectInput = FleetObject | string;

const ms = (t: Time): number => (t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t));

/** An op state change of a device or node: the outage's start (down) or end (up). */
export interface Transition {
  at: number;
  state: "up" | "down";
  outage: OutageFacts;
}

export type SeriesMetric = "traffic" | "node_metrics" | "wan_health" | "utilization";

/** Everything on /main-dashboard's tabs 2–6 for one device. */
export interface DeviceDashboard {
  uptime_percent: number;
  health: WanHealthSample[];
  outage_history: OutageHistoryRow[];
  route: Route;
  performance_tests: SpeedTestSample[];
  connection_status: ConnectionStatus;
  utilization: UtilizationSample[];
  peak_hours: PeakHours;
  app_visibility: AppVisibility;
  ddos: Ddos;
}

export interface LatencyMeasurement {
  measured_at: string;
  from_pop: string;
  probes: number;
  received: number;
  min_ms: number | null;
  avg_ms: number | null;
  max_ms: number | null;
  jitter_ms: number | null;
  loss_pct: number;
}

export interface UserAgentStatus {
  op_state: "up" | "down";
  op_state_change_at: string;
  last_auth_status: "success" | "failed";
  last_auth_time: string;
}

export interface ConnectionStatus {
  percent: number;
  history: { node_id: string; "@timestamp": string; type: string; status: "up" | "down"; gw_pingable: "yes" | "no" }[];
}

export interface DeviceOptions {
  events?: DeviceEvents;
  /** The address the device monitors (ip_monitor_target); 8.8.8.8 by default. */
  target?: string;
}

export interface Fleet {
  readonly seed: number;
  /** The buckets a range covers at `now`. */
  window(range: RangeInput, now: Time): Window;
  /** One series per object, in the order given: the generic entry point. */
  series(kind: FleetKind, objects: readonly ObjectInput[], metric: "traffic", range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): Record<string, TrafficSample[]>;
  series(kind: FleetKind, objects: readonly ObjectInput[], metric: "node_metrics", range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): Record<string, NodeMetricsSample[]>;
  series(kind: FleetKind, objects: readonly ObjectInput[], metric: "wan_health", range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): Record<string, WanHealthSample[]>;
  series(kind: FleetKind, objects: readonly ObjectInput[], metric: "utilization", range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): Record<string, UtilizationSample[]>;
  series(kind: FleetKind, objects: readonly ObjectInput[], metric: SeriesMetric, range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): Record<string, unknown[]>;
  /** get-net-stats: transmit and receive bytes per second of app services / endpoints / any object. */
  netStats(objects: readonly ObjectInput[], range: RangeInput, now: Time, kind?: FleetKind): Record<string, TrafficSample[]>;
  /** get-top-talker-ep: the app service's endpoints ranked by bytes over the range. */
  topTalkers(endpoints: readonly ObjectInput[], range: RangeInput, now: Time): TopTalker[];
  /** get-ep-sessions: the endpoint's netflows over the range (their bytes add up to its traffic). */
  netflows(endpoint: ObjectInput, range: RangeInput, now: Time): NetflowRow[];
  /** get-endpoint-sessions: the endpoint's flows open now (the last five minutes). */
  endpointSessions(endpoint: ObjectInput, now: Time): EndpointSession[];
  nodeMetrics(node: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): NodeMetricsSample[];
  wanHealth(device: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): WanHealthSample[];
  utilization(device: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): UtilizationSample[];
  peakHours(device: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): PeakHours;
  performanceTests(device: ObjectInput, range: RangeInput, now: Time, hourOfDay: number, events?: DeviceEvents): SpeedTestSample[];
  /** The outages overlapping the range that have begun by `now`, oldest first. */
  outages(device: ObjectInput, range: RangeInput, now: Time, opts?: DeviceOptions): Outage[];
  outageHistory(device: ObjectInput, range: RangeInput, now: Time, opts?: DeviceOptions): OutageHistoryRow[];
  /** Uptime over the range in percent (announced maintenance excluded). */
  uptime(device: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): number;
  connectionStatus(device: ObjectInput, range: RangeInput, now: Time, opts?: DeviceOptions): ConnectionStatus;
  route(device: ObjectInput, now: Time, opts?: DeviceOptions): Route;
  /** The outage with this id (as in outages()), or null. */
  outage(device: ObjectInput, outageId: string, now: Time, opts?: DeviceOptions): Outage | null;
  /** The post-mortem analysis of an outage as markdown, and the same text as a stream of chunks. */
  postMortem(device: ObjectInput, outageId: string, now: Time, opts?: DeviceOptions & { affected?: Affected; name?: string; chunkDelayMs?: number; sleep?: (ms: number) => Promise<void> }): { markdown: string; stream: AsyncIterable<string> } | null;
  appVisibility(device: ObjectInput, range: RangeInput, now: Time, events?: DeviceEvents): AppVisibility;
  ddos(device: ObjectInput, range: RangeInput, now: Time, settings?: DdosSettings, events?: DeviceEvents): Ddos;
  /** Tabs 2–6 of /main-dashboard in one call. */
  deviceDashboard(device: ObjectInput, range: RangeInput, now: Time, opts?: DeviceOptions & { ddos?: DdosSettings; perfTestHour?: number }): DeviceDashboard;
  /** Whether the object is down at `at`. */
  isDown(obj: ObjectInput, at: Time, events?: DeviceEvents): boolean;
  /** The outage under way at `at`, if any. */
  currentOutage(obj: ObjectInput, at: Time, events?: DeviceEvents): OutageFacts | null;
  /** Op state changes in (from, to], in time order (what the clock applies). */
  transitions(obj: ObjectInput, from: Time, to: Time, events?: DeviceEvents): Transition[];
  pingOutput(device: ObjectInput, address: string, now: Time, events?: DeviceEvents): string;
  tracerouteOutput(device: ObjectInput, address: string, now: Time, events?: DeviceEvents): string;
  /** start_cpe_speedtest_cli: when the test started and when it will have finished. */
  startSpeedTest(device: ObjectInput, testType: SpeedTestType, now: Time): { started_at: string; finishes_at: string };
  /** get_cpe_speedtest_cli_test_result for a test started at `startedAt`. */
  speedTestResult(device: ObjectInput, testType: SpeedTestType, startedAt: Time, now: Time, events?: DeviceEvents): SpeedTestResult;
  /** The activation test's messages at their times from `startedAt` (for a stream resumed at any point). */
  activationPlan(device: ObjectInput, peer: ActivationPeer, startedAt: Time, events?: DeviceEvents): { at: string; message: ActivationMessage }[];
  /** The activation test as it runs: waits (with `sleep`) between messages; ends with the report. */
  activationTest(device: ObjectInput, peer: ActivationPeer, startedAt: Time, opts?: { events?: DeviceEvents; now?: () => number; sleep?: (ms: number) => Promise<void> }): AsyncIterable<ActivationMessage>;
  diagnostics(device: ObjectInput, now: Time, opts?: DeviceOptions): Record<string, unknown>;
  lanInterfaces(device: ObjectInput, now: Time, opts?: { events?: DeviceEvents; interfaceResets?: Record<string, Time> }): LanInterface[];
  healthCheck(obj: ObjectInput, now: Time, events?: DeviceEvents): HealthCheck;
  /** reset_node at `at`: the device goes down to reboot and comes back (add `at` to events.resets). */
  resetEffect(device: ObjectInput, at: Time): { down_from: string; up_at: string };
  /** generate_node_token at `issuedAt`: when the device uses it to register again. */
  registrationEffect(device: ObjectInput, issuedAt: Time): { registered_at: string };
  /** measure-app-service-latency, measure-endpoint-latency: ten probes from the object's PoP, as key/value pairs. */
  measureLatency(obj: ObjectInput, now: Time, events?: DeviceEvents): LatencyMeasurement;
  /** A user agent's state at `now`: connected in its users' working hours, authenticating every few hours. */
  userAgentStatus(agent: ObjectInput, now: Time): UserAgentStatus;
  /** get_peer_regions: the PoPs a daily performance test can run against, with their test peer. */
  peerRegions(): { peer_region: string; city: string; country: string; peer_ip: string }[];
}

const sleepReal = (t: number) => new Promise<void>((resolve) => setTimeout(resolve, t));

export function createFleet(seed: number): Fleet {
  const s = Number.isFinite(seed) ? Math.trunc(seed) : 1;
  const P = (o: ObjectInput, kind?: string) => prepare(s, o, kind);
  const dev = (o: ObjectInput) => prepare(s, o, "cpe");

  /** Traffic of an object; an app service with members is the sum of its endpoints. */
  function trafficOf(p: Prepared, w: Window, now: number, events?: DeviceEvents): Traffic {
    if (!p.members) return traffic(p, w, now, events);
    const sum: Traffic = { t: new Float64Array(w.points), tx: new Float64Array(w.points), rx: new Float64Array(w.points), down: new Float64Array(w.points) };
    for (let i = 0; i < w.points; i++) sum.t[i] = w.first + i * w.step;
    for (const m of p.members) {
      const tr = traffic(prepare(s, m, "endpoint"), w, now);
      for (let i = 0; i < w.points; i++) {
        sum.tx[i]! += tr.tx[i]!;
        sum.rx[i]! += tr.rx[i]!;
      }
    }
    return sum;
  }

  function outagesOf(p: Prepared, w: Window, now: number, opts?: DeviceOptions): Outage[] {
    const target = opts?.target || DEFAULT_TARGET;
    return pastOutages(p, w.start, w.end, now, opts?.events).map((o) => presentOutage(p, o, now, target, opts?.events?.maintenance));
  }

  function lastOutage(p: Prepared, now: number, opts?: DeviceOptions): Outage | undefined {
    // Look back up to 90 days, a month at a time.
    for (let back = 0; back < 3; back++) {
      const to = now - back * 30 * DAY;
      const list = pastOutages(p, to - 30 * DAY, to + 1, now, opts?.events);
      if (list.length) return presentOutage(p, list[list.length - 1]!, now, opts?.target || DEFAULT_TARGET, opts?.events?.maintenance);
    }
    return undefined;
  }

  function currentOutage(p: Prepared, at: number, events?: DeviceEvents): OutageFacts | null {
    if (!p.outages) return null;
    const list = outagesBetween(p, at - DAY, at + 1, events);
    return list.find((o) => o.start <= at && at < o.end) ?? null;
  }

  function connectionStatus(p: Prepared, w: Window, now: number, opts?: DeviceOptions): ConnectionStatus {
    const outs = outagesOf(p, w, now, opts);
    const history: ConnectionStatus["history"] = [];
    for (const o of outs) {
      history.push({ node_id: p.id, "@timestamp": o.start_time, type: o.cause, status: "down", gw_pingable: o.gw_pingable });
      if (o.end_time) history.push({ node_id: p.id, "@timestamp": o.end_time, type: o.cause, status: "up", gw_pingable: "yes" });
    }
    history.reverse();
    return { percent: r3(uptimeRatio(outs, Math.max(w.start, recordStart(opts?.events)), Math.min(w.end, now), opts?.events?.maintenance) * 100), history };
  }

  const fleet: Fleet = {
    seed: s,
    window: (range, now) => resolveRange(range, ms(now)),

    // why `any`: the one body behind Fleet.series' overloads; each overload names its sample type.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    series(kind: FleetKind, objects: readonly ObjectInput[], metric: SeriesMetric, range: RangeInput, now: Time, events?: Record<string, DeviceEvents>): any {
      const n = ms(now);
      const w = resolveRange(range, n);
      const out: Record<string, unknown[]> = {};
      for (const o of objects) {
        const p = P(o, kind);
        const ev = events?.[p.id];
        if (metric === "traffic") out[p.id] = trafficSamples(trafficOf(p, w, n, ev));
        else if (metric === "node_metrics") out[p.id] = nodeMetrics(p, w, n, ev);
        else if (metric === "wan_health") out[p.id] = wanHealth(p, w, n, ev);
        else if (metric === "utilization") out[p.id] = utilization(p, w, n, ev);
        else throw new RangeError(`unknown metric: ${String(metric)}`);
      }
      return out;
    },

    netStats: (objects, range, now, kind) => fleet.series(kind ?? "endpoint", objects, "traffic", range, now),

    topTalkers(endpoints, range, now) {
      const n = ms(now);
      const w = resolveRange(range, n);
      return endpoints
        .map((e) => {
          const p = P(e, "endpoint");
          const t = totals(traffic(p, w, n), w.step);
          return { epid: p.id, rx_bytes: t.rx, tx_bytes: t.tx, total_bytes: t.rx + t.tx };
        })
        .sort((a, b) => b.total_bytes - a.total_bytes || (a.epid < b.epid ? -1 : 1));
    },

    netflows(endpoint, range, now) {
      const n = ms(now);
      const w = resolveRange(range, n);
      const p = P(endpoint, "endpoint");
      return netflows(p, traffic(p, w, n), w.step);
    },

    endpointSessions(endpoint, now) {
      const n = ms(now);
      const p = P(endpoint, "endpoint");
      const w = resolveRange({ start: n - 5 * MINUTE, end: n }, n);
      return currentSessions(netflows(p, traffic(p, w, n), w.step));
    },

    nodeMetrics: (node, range, now, events) => nodeMetrics(P(node, "service_node"), resolveRange(range, ms(now)), ms(now), events),
    wanHealth: (device, range, now, events) => wanHealth(dev(device), resolveRange(range, ms(now)), ms(now), events),
    utilization: (device, range, now, events) => utilization(dev(device), resolveRange(range, ms(now)), ms(now), events),
    peakHours: (device, range, now, events) => peakHours(dev(device), resolveRange(range, ms(now)), ms(now), events),
    performanceTests: (device, range, now, hourOfDay, events) => performanceTests(dev(device), resolveRange(range, ms(now)), ms(now), hourOfDay, events),

    outages: (device, range, now, opts) => outagesOf(dev(device), resolveRange(range, ms(now)), ms(now), opts),
    outageHistory: (device, range, now, opts) => historyRows(outagesOf(dev(device), resolveRange(range, ms(now)), ms(now), opts)),
    uptime(device, range, now, events) {
      const n = ms(now);
      const w = resolveRange(range, n);
      const p = dev(device);
      return r3(uptimeRatio(pastOutages(p, w.start, w.end, n, events), Math.max(w.start, recordStart(events)), Math.min(w.end, n), events?.maintenance) * 100);
    },
    connectionStatus: (device, range, now, opts) => connectionStatus(dev(device), resolveRange(range, ms(now)), ms(now), opts),

    route(device, now, opts) {
      const n = ms(now);
      const p = dev(device);
      return route(p, opts?.target || DEFAULT_TARGET, n, lastOutage(p, n, opts), currentOutage(p, n, opts?.events) !== null);
    },

    outage(device, outageId, now, opts) {
      const n = ms(now);
      const p = dev(device);
      const m = /-(r?)(\d+)$/.exec(outageId);
      if (!m || !outageId.startsWith(`out-${p.id}-`)) return null;
      const at = m[1] ? Number(m[2]) * 1000 : Number(m[2]) * DAY;
      const list = pastOutages(p, at - DAY, at + 2 * DAY, n, opts?.events);
      const o = list.find((x) => x.outage_id === outageId);
      return o ? presentOutage(p, o, n, opts?.target || DEFAULT_TARGET, opts?.events?.maintenance) : null;
    },

    postMortem(device, outageId, now, opts) {
      const o = fleet.outage(device, outageId, now, opts);
      if (!o) return null;
      const p = dev(device);
      const markdown = postMortemMarkdown(p, o, opts?.affected ?? { app_services: [], endpoints: [] }, opts?.target || DEFAULT_TARGET, opts?.name);
      const delay = opts?.chunkDelayMs ?? 0;
      const sleep = opts?.sleep ?? sleepReal;
      return {
        markdown,
        stream: {
          async *[Symbol.asyncIterator]() {
            for (const c of chunks(markdown)) {
              if (delay > 0) await sleep(delay);
              yield c;
            }
          },
        },
      };
    },

    appVisibility(device, range, now, events) {
      const n = ms(now);
      const w = resolveRange(range, n);
      const p = dev(device);
      const health = wanHealth(p, w, n, events);
      const lossy = health.some((h) => h["Loss Rate"] > 1 && h["Loss Rate"] < 100);
      return appVisibility(p, traffic(p, w, n, events), w.step, w.start, lossy);
    },

    ddos(device, range, now, settings, events) {
      const n = ms(now);
      const w = resolveRange(range, n);
      const p = dev(device);
      return ddos(p, w, n, pastOutages(p, w.start - DAY, w.end, n, events), settings ?? {});
    },

    deviceDashboard(device, range, now, opts) {
      const n = ms(now);
      const w = resolveRange(range, n);
      const p = dev(device);
      const events = opts?.events;
      const tr = traffic(p, w, n, events);
      const health = wanHealth(p, w, n, events);
      const outs = outagesOf(p, w, n, opts);
      const lossy = health.some((h) => h["Loss Rate"] > 1 && h["Loss Rate"] < 100);
      return {
        uptime_percent: r3(uptimeRatio(outs, Math.max(w.start, recordStart(events)), Math.min(w.end, n), events?.maintenance) * 100),
        health,
        outage_history: historyRows(outs),
        route: route(p, opts?.target || DEFAULT_TARGET, n, outs[outs.length - 1] ?? lastOutage(p, n, opts), currentOutage(p, n, events) !== null),
        performance_tests: performanceTests(p, w, n, opts?.perfTestHour ?? 2, events),
        connection_status: connectionStatus(p, w, n, opts),
        utilization: utilization(p, w, n, events),
        peak_hours: peakHours(p, w, n, events),
        app_visibility: appVisibility(p, tr, w.step, w.start, lossy),
        ddos: ddos(p, w, n, pastOutages(p, w.start - DAY, w.end, n, events), opts?.ddos ?? {}),
      };
    },

    isDown: (obj, at, events) => currentOutage(dev(obj), ms(at), events) !== null,
    currentOutage: (obj, at, events) => currentOutage(dev(obj), ms(at), events),

    transitions(obj, from, to, events) {
      const p = dev(obj);
      if (!p.outages) return [];
      const a = ms(from);
      const b = ms(to);
      const out: Transition[] = [];
      for (const o of outagesBetween(p, a - DAY, b + 1, events)) {
        if (o.start > a && o.start <= b) out.push({ at: o.start, state: "down", outage: o });
        if (o.end > a && o.end <= b) out.push({ at: o.end, state: "up", outage: o });
      }
      return out.sort((x, y) => x.at - y.at);
    },

    pingOutput(device, address, now, events) {
      const p = dev(device);
      return pingOutput(p, address, ms(now), currentOutage(p, ms(now), events) !== null);
    },

    tracerouteOutput(device, address, now, events) {
      const p = dev(device);
      const o = currentOutage(p, ms(now), events);
      const stop = o ? (o.cause === "upstream_routing_failure" || o.cause === "upstream_packet_loss" ? o.failedHop : 0) : null;
      return tracerouteOutput(p, address, ms(now), stop);
    },

    startSpeedTest(device, _testType, now) {
      const n = ms(now);
      return { started_at: iso(n), finishes_at: iso(n + speedTestLength(dev(device), n)) };
    },

    speedTestResult(device, testType, startedAt, now, events) {
      const p = dev(device);
      const a = ms(startedAt);
      return speedTestResult(p, testType, a, ms(now), pastOutages(p, a - DAY, a + DAY, ms(now), events));
    },

    activationPlan(device, peer, startedAt, events) {
      const p = dev(device);
      const a = ms(startedAt);
      return activationPlan(p, a, peer, currentOutage(p, a, events) !== null).map((x) => ({ at: iso(a + x.at), message: x.message }));
    },

    activationTest(device, peer, startedAt, opts) {
      const p = dev(device);
      const a = ms(startedAt);
      const plan = activationPlan(p, a, peer, currentOutage(p, a, opts?.events) !== null);
      const clock = opts?.now ?? Date.now;
      const sleep = opts?.sleep ?? sleepReal;
      return {
        async *[Symbol.asyncIterator]() {
          for (const step of plan) {
            const wait = a + step.at - clock();
            if (wait > 0) await sleep(wait);
            yield step.message;
          }
        },
      };
    },

    diagnostics(device, now, opts) {
      const n = ms(now);
      const p = dev(device);
      const o = currentOutage(p, n, opts?.events);
      const { wan, gateway } = wanAddresses(p);
      const h = wanHealth(p, resolveRange({ start: n - MINUTE, end: n }, n), n, opts?.events)[0];
      const m = nodeMetrics(p, resolveRange({ start: n - MINUTE, end: n }, n), n, opts?.events)[0];
      const last = lastOutage(p, n, opts);
      const bootedAt = last && !o ? last.end : n - 40 * DAY;
      return {
        node_id: p.id,
        collected_at: iso(n),
        op_state: o ? "down" : "up",
        uptime_s: o ? 0 : Math.floor((n - bootedAt) / 1000),
        firmware: `lw-edge ${3 + (p.key % 2)}.${p.key % 9}.${(p.key >>> 4) % 20}`,
        wan: {
          interface: "wan0",
          ip_address: wan,
          gateway,
          dns_servers: ["198.18.0.53", "198.18.0.54"],
          carrier: o?.cause === "wan_carrier_lost" ? "down" : "up",
          gateway_reachable: !o || !(o.cause === "gateway_unreachable" || o.cause === "wan_carrier_lost"),
          rtt_ms: h?.RTT_ms ?? null,
          loss_pct: h?.["Loss Rate"] ?? null,
          pop: `${p.pop.code} (${p.pop.city}, ${p.pop.country})`,
          contracted_mbps: p.mbps,
        },
        system: { cpu_pct: m?.cpu_p ?? 0, memory_pct: m?.["mem.usage"] ?? 0, disk_pct: m?.disk ?? 0, cpu_temp_c: m?.cpu ?? 0, fan_rpm: m?.["cpu.fan.rpm"] ?? 0 },
        lan: lanInterfaces(p, n, o !== null).map((l) => ({ name: l.name, state: l.operational_state, speed: l.speed })),
        last_outage: last ? { outage_id: last.outage_id, start_time: last.start_time, end_time: last.end_time, self_diagnosis: last.self_diagnosis } : null,
      };
    },

    lanInterfaces(device, now, opts) {
      const n = ms(now);
      const p = dev(device);
      const resets: Record<string, number> = {};
      for (const [k, v] of Object.entries(opts?.interfaceResets ?? {})) resets[k] = ms(v);
      return lanInterfaces(p, n, currentOutage(p, n, opts?.events) !== null, resets);
    },

    healthCheck(obj, now, events) {
      const n = ms(now);
      const p = dev(obj);
      const down = currentOutage(p, n, events) !== null;
      const w = resolveRange({ start: n - MINUTE, end: n }, n);
      const h = wanHealth(p, w, n, events)[0]!;
      const m = nodeMetrics(p, w, n, events)[0]!;
      return healthCheck(p, n, down, h.RTT_ms, h["Loss Rate"], m.cpu_p, m["mem.usage"], m.disk);
    },

    resetEffect(device, at) {
      const a = ms(at);
      return { down_from: iso(a), up_at: iso(a + resetLength(dev(device), a)) };
    },

    measureLatency(obj, now, events) {
      const n = ms(now);
      const p = P(obj);
      const down = currentOutage(p, n, events) !== null;
      const times: number[] = [];
      if (!down) {
        const busy = utilisation(p, n, MINUTE);
        for (let i = 0; i < 10; i++) {
          if (u01(p.key, M.ping, Math.floor(n / 1000) * 32 + i) < 0.005 + busy * 0.01) continue;
          times.push(p.baseRtt + 3 * u01(p.key, M.rttJitter, Math.floor(n / 1000) * 32 + i) + 40 * busy ** 4);
        }
      }
      const avg = times.length ? times.reduce((a, b) => a + b, 0) / times.length : null;
      let jitter = 0;
      for (let i = 1; i < times.length; i++) jitter += Math.abs(times[i]! - times[i - 1]!);
      return {
        measured_at: iso(n),
        from_pop: `${p.pop.city} (${p.pop.code})`,
        probes: 10,
        received: times.length,
        min_ms: times.length ? r3(Math.min(...times)) : null,
        avg_ms: avg === null ? null : r3(avg),
        max_ms: times.length ? r3(Math.max(...times)) : null,
        jitter_ms: times.length > 1 ? r3(jitter / (times.length - 1)) : null,
        loss_pct: r3(((10 - times.length) / 10) * 100),
      };
    },

    userAgentStatus(agent, now) {
      const n = ms(now);
      const p = P(agent, "user_agent");
      // Connected while its user works: local 8:00–9:30 to 17:00–19:00 on weekdays, varying by day.
      const today = Math.floor((n + p.offset) / DAY);
      const startOf = (d: number) => d * DAY + 8 * HOUR + Math.floor(u01(p.key, M.session, d) * 90) * MINUTE - p.offset;
      const endOf = (d: number) => d * DAY + 17 * HOUR + Math.floor(u01(p.key, M.session, d + 1e6) * 120) * MINUTE - p.offset;
      const works = (d: number) => ((d + 4) % 7) % 6 !== 0; // not Sunday (0) or Saturday (6)
      const up = works(today) && n >= startOf(today) && n < endOf(today);
      // The session now, or the last one that ended.
      let d = today;
      if (!up) {
        if (!(works(d) && n >= endOf(d))) d--;
        while (!works(d)) d--;
      }
      const start = startOf(d);
      const end = up ? n : endOf(d);
      // Re-authenticates every 4 hours of a session; about one attempt in 25 fails (and is retried).
      const lastAuth = start + Math.floor((end - 1 - start) / (4 * HOUR)) * 4 * HOUR;
      const failed = u01(p.key, M.session, Math.floor(lastAuth / MINUTE)) < 0.04;
      return { op_state: up ? "up" : "down", op_state_change_at: iso(up ? start : end), last_auth_status: failed ? "failed" : "success", last_auth_time: iso(lastAuth) };
    },

    peerRegions: () => POPS.map((p) => ({ peer_region: p.code, city: p.city, country: p.country, peer_ip: `${p.net}.250` })),

    registrationEffect(device, issuedAt) {
      const a = ms(issuedAt);
      const p = dev(device);
      return { registered_at: iso(a + 20_000 + (p.key % 40_000)) };
    },
  };
  return fleet;
}

/** Whether objects of this kind have outages (devices and nodes). */
export function hasOutages(kind: string): boolean {
  return OUTAGE_KINDS.has(kind);
}

export { normalise };
export { createFleetClock, type FleetClock, type FleetClockOptions } from "./clock.ts";
export { createKindRegistry, fleetKinds, sqlKindSource, type FleetKindSource, type FleetKindRegistry, type FleetObjectState } from "./kinds.ts";
export { createOpStateHooks, fleetOpStateHooks, type OpStateHook, type OpStateHookRegistry } from "./kinds.ts";
export { createInProcessBus, createPgBus, type FleetBus, type FleetEvent, type OpStateChanged } from "./bus.ts";
export { speedTestReport, serviceActivationPlan, satSampleEvery, SAT_STEPS, SAT_STEP_MS, SAT_PERFORMANCE_FROM_MS, type SpeedTestReport, type SatPlanItem, type SatMeasurement, type SatPerformance, type SatLinkSample, type SatStepId } from "./devices.ts";
