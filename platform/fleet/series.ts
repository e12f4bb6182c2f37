import { M, u01 } from "./hash.ts";
import { downFractions, normalise, outagesBetween, overlap, prepare, utilisation, type DeviceEvents, type Interval, type OutageFacts, type Prepared } from "./model.ts";
import { DAY, HOUR, iso, MINUTE, type Window } from "./time.ts";

/*
 * Time series of one object over a resolved window. Every value is the bucket's average, and an
 * outage covering a share f of a bucket scales traffic and health by (1 − f), so a bucket wholly
 * inside an outage is exactly 0 and the dip in a chart sits where the outage row says.
 */

export const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The outages that have begun by `now` (inclusive), overlapping [from, to); one under way ends at `now`. */
export function pastOutages(p: Prepared, from: number, to: number, now: number, events?: DeviceEvents): OutageFacts[] {
  const list = outagesBetween(p, from, Math.min(to, now + 1), events);
  for (const o of list) if (o.end > now) o.end = now;
  return list;
}

/**
 * ISO strings of a window's bucket starts, made once per window (formatting dates is the most
 * expensive step of a series; fifty objects share one window).
 */
let stampCache: { key: string; stamps: string[] } | null = null;
export function stampsOf(first: number, step: number, points: number): string[] {
  const key = `${first}:${step}:${points}`;
  if (stampCache?.key === key) return stampCache.stamps;
  const stamps = new Array<string>(points);
  for (let i = 0; i < points; i++) stamps[i] = iso(first + i * step);
  stampCache = { key, stamps };
  return stamps;
}

export interface Traffic {
  /** Bucket starts. */
  t: Float64Array;
  /** Bytes per second, bucket averages. */
  tx: Float64Array;
  rx: Float64Array;
  /** Share of each bucket the object was down. */
  down: Float64Array;
}

/** Raw traffic of an object (no members): bytes per second per bucket. */
export function traffic(p: Prepared, w: Window, now: number, events?: DeviceEvents): Traffic {
  const n = w.points;
  const t = new Float64Array(n);
  const tx = new Float64Array(n);
  const rx = new Float64Array(n);
  const to = w.first + n * w.step;
  let outs: Interval[] = pastOutages(p, w.first, to, now, events);
  // Traffic through a device or node stops while it is down.
  if (p.via?.length) {
    outs = normalise([...outs, ...p.via.flatMap((v) => pastOutages(prepare(p.seed, v, v.kind ?? "cpe"), w.first, to, now))]);
  }
  const down = downFractions(outs, w.first, w.step, n);
  for (let i = 0; i < n; i++) {
    const ts = w.first + i * w.step;
    t[i] = ts;
    const up = 1 - down[i]!;
    const r = utilisation(p, ts, w.step) * p.capacity * up;
    rx[i] = r;
    tx[i] = r * p.txRatio;
  }
  return { t, tx, rx, down };
}

export interface TrafficSample {
  timestamp: string;
  /** Bytes per second sent by the object (bucket average). */
  tx_bytes: number;
  /** Bytes per second received. */
  rx_bytes: number;
}

export function trafficSamples(tr: Traffic): TrafficSample[] {
  const n = tr.t.length;
  const stamps = n ? stampsOf(tr.t[0]!, n > 1 ? tr.t[1]! - tr.t[0]! : 0, n) : [];
  const out: TrafficSample[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = { timestamp: stamps[i]!, tx_bytes: Math.round(tr.tx[i]!), rx_bytes: Math.round(tr.rx[i]!) };
  return out;
}

/** One sample per bucket of the window, made from the bucket's traffic (`i`) and its timestamp. */
function perBucket<T>(p: Prepared, w: Window, now: number, events: DeviceEvents | undefined, sample: (tr: Traffic, i: number, stamp: string) => T): T[] {
  const tr = traffic(p, w, now, events);
  const stamps = stampsOf(w.first, w.step, w.points);
  const out: T[] = new Array(w.points);
  for (let i = 0; i < w.points; i++) out[i] = sample(tr, i, stamps[i]!);
  return out;
}

/** Node metrics sample (spec 2 §3), field names as the platform returns them. */
export interface NodeMetricsSample {
  "@timestamp": string;
  "tx.bytes": number;
  "rx.bytes": number;
  cpu_p: number;
  "mem.usage": number;
  "cpu.fan.rpm": number;
  ambient: number;
  cpu: number;
  disk: number;
}

/**
 * Node metrics: CPU load follows traffic, CPU temperature follows ambient and load, the fan
 * follows both; memory drifts slowly; disk fills over days and is cleaned up weekly. All in the
 * chart's 0–100 (fan 0–5000). While the node is down it reports nothing, shown as zeros.
 */
export function nodeMetrics(p: Prepared, w: Window, now: number, events?: DeviceEvents): NodeMetricsSample[] {
  return perBucket(p, w, now, events, (tr, i, stamp) => {
    const ts = tr.t[i]!;
    const up = 1 - tr.down[i]!;
    const mid = ts + w.step / 2;
    const localHour = ((((mid + p.offset) % DAY) + DAY) % DAY) / HOUR;
    const util = tr.rx[i]! / p.capacity;
    const cpuP = Math.min(100, 4 + 85 * util + 6 * u01(p.key, M.cpuNoise, Math.floor(ts / MINUTE)));
    const ambient = 20 + 4 * Math.sin((Math.PI * (localHour - 9)) / 12) + 2 * u01(p.key, M.ambient, Math.floor(mid / HOUR));
    const cpuTemp = Math.min(100, ambient + 12 + 0.45 * cpuP);
    const fan = Math.min(5000, 1100 + 60 * Math.max(0, ambient - 18) + 30 * cpuP + 100 * u01(p.key, M.fan, Math.floor(ts / MINUTE)));
    const hour = Math.floor(mid / HOUR);
    const mem = 35 + 25 * u01(p.key, M.mem, Math.floor(hour / 6)) + 10 * util;
    const week = Math.floor(mid / (7 * DAY));
    const disk = 20 + 15 * u01(p.key, M.disk, week) + (40 * (mid - week * 7 * DAY)) / (7 * DAY);
    return {
      "@timestamp": stamp,
      "tx.bytes": Math.round(tr.tx[i]!),
      "rx.bytes": Math.round(tr.rx[i]!),
      cpu_p: r3(cpuP * up),
      "mem.usage": r3(mem * up),
      "cpu.fan.rpm": r3(fan * up),
      ambient: r3(ambient * up),
      cpu: r3(cpuTemp * up),
      disk: r3(disk * up),
    };
  });
}

/** WAN health sample (spec 3 §3). */
export interface WanHealthSample {
  timestamp: string;
  health: number;
  RTT_ms: number;
  "Loss Rate": number;
}

/**
 * WAN link health: RTT is the distance to the nearest PoP plus jitter plus queueing when the
 * link is busy; loss is small with rare bursts; health falls with loss and excess RTT. During
 * an outage health is 0 and loss 100 %, weighted by the share of the bucket that was down.
 */
export function wanHealth(p: Prepared, w: Window, now: number, events?: DeviceEvents): WanHealthSample[] {
  return perBucket(p, w, now, events, (tr, i, stamp) => {
    const ts = tr.t[i]!;
    const d = tr.down[i]!;
    const m = Math.floor(ts / MINUTE);
    const util = tr.rx[i]! / p.capacity / (1 - d || 1);
    const rtt = p.baseRtt + 3 * u01(p.key, M.rttJitter, m) + 40 * util ** 4;
    const burst = u01(p.key, M.lossBurst, Math.floor(ts / HOUR)) < 0.02 ? 1 + 3 * u01(p.key, M.lossBurst, m) : 0;
    const loss = 0.1 * u01(p.key, M.loss, m) + burst;
    const health = Math.max(0, 100 - 8 * loss - 0.4 * Math.max(0, rtt - p.baseRtt - 3));
    return {
      timestamp: stamp,
      health: r3(health * (1 - d)),
      RTT_ms: d >= 1 ? 0 : r3(rtt),
      "Loss Rate": r3(loss * (1 - d) + 100 * d),
    };
  });
}

/** Utilization sample (spec 3 §3): ratios of the contracted speed. */
export interface UtilizationSample {
  timestamp: string;
  rx_avg_util: number;
  rx_peak_util: number;
  tx_avg_util: number;
  tx_peak_util: number;
}

export function utilization(p: Prepared, w: Window, now: number, events?: DeviceEvents): UtilizationSample[] {
  return perBucket(p, w, now, events, (tr, i, stamp) => {
    const rxAvg = tr.rx[i]! / p.capacity;
    const txAvg = tr.tx[i]! / p.capacity;
    // The busiest second of the bucket: above its average, never above the line.
    const burst = 1.15 + 0.5 * u01(p.key, M.peak, Math.floor(tr.t[i]! / MINUTE));
    return {
      timestamp: stamp,
      rx_avg_util: r3(rxAvg),
      rx_peak_util: r3(Math.min(1, rxAvg * burst)),
      tx_avg_util: r3(txAvg),
      tx_peak_util: r3(Math.min(1, txAvg * burst)),
    };
  });
}

export interface PeakHours {
  /** Per hour of day (UTC, "0"–"23"): the days whose busiest hour it was, with that hour's Mbps. */
  peak_hour_scatter_plot: Record<string, { "rx.mbps": number; "tx.mbps": number; timestamp: string }[]>;
  peak_throughput_trend: { "max.rx.bps": number; "max.tx.bps": number; timestamp: string }[];
}

/** Per UTC day of the window: its busiest hour (scatter) and its peak throughput (trend). */
export function peakHours(p: Prepared, w: Window, now: number, events?: DeviceEvents): PeakHours {
  const firstHour = Math.floor(w.start / HOUR) * HOUR;
  const hours = Math.max(1, Math.ceil((Math.min(w.end, now + HOUR) - firstHour) / HOUR));
  const tr = traffic(p, { start: firstHour, end: firstHour + hours * HOUR, step: HOUR, first: firstHour, points: hours }, now, events);
  const scatter: PeakHours["peak_hour_scatter_plot"] = {};
  const trend: PeakHours["peak_throughput_trend"] = [];
  let i = 0;
  while (i < hours) {
    const day = Math.floor(tr.t[i]! / DAY);
    let best = i;
    let maxRx = 0;
    let maxTx = 0;
    let j = i;
    for (; j < hours && Math.floor(tr.t[j]! / DAY) === day; j++) {
      if (tr.rx[j]! > tr.rx[best]!) best = j;
      // The peak second of the hour, as the utilisation chart's peak.
      const burst = 1.15 + 0.5 * u01(p.key, M.peak, Math.floor(tr.t[j]! / MINUTE));
      maxRx = Math.max(maxRx, Math.min(p.capacity, tr.rx[j]! * burst));
      maxTx = Math.max(maxTx, Math.min(p.capacity, tr.tx[j]! * burst));
    }
    const h = String(new Date(tr.t[best]!).getUTCHours());
    (scatter[h] ??= []).push({ "rx.mbps": r3((tr.rx[best]! * 8) / 1e6), "tx.mbps": r3((tr.tx[best]! * 8) / 1e6), timestamp: iso(tr.t[best]!) });
    trend.push({ "max.rx.bps": Math.round(maxRx * 8), "max.tx.bps": Math.round(maxTx * 8), timestamp: iso(day * DAY) });
    i = j;
  }
  return { peak_hour_scatter_plot: scatter, peak_throughput_trend: trend };
}

/** Link speed test sample (spec 3 §3): the daily performance test. */
export interface SpeedTestSample {
  timestamp: string;
  "tx.mbps": number;
  "rx.mbps": number;
}

/**
 * The daily performance assurance test, run at `hourOfDay` UTC each day in the window (and
 * already run by `now`): close to the contracted speed, less what the site was using, 0 when
 * the device was down at the time.
 */
export function performanceTests(p: Prepared, w: Window, now: number, hourOfDay: number, events?: DeviceEvents): SpeedTestSample[] {
  const out: SpeedTestSample[] = [];
  const hod = Math.min(23, Math.max(0, Math.floor(hourOfDay)));
  const outs = pastOutages(p, w.start - DAY, w.end, now, events);
  for (let day = Math.floor(w.start / DAY); day * DAY < w.end; day++) {
    const at = day * DAY + hod * HOUR + 5 * MINUTE;
    if (at < w.start || at >= w.end || at > now) continue;
    const isDown = overlap(outs, at, at + 1) > 0;
    const busy = utilisation(p, at, MINUTE);
    const q = 0.9 + 0.08 * u01(p.key, M.perf, day);
    const rx = isDown ? 0 : p.mbps * q * (1 - busy * 0.5);
    const tx = isDown ? 0 : p.mbps * (q - 0.03 * u01(p.key, M.perf, day + 1)) * (1 - busy * p.txRatio * 0.5);
    out.push({ timestamp: iso(at), "tx.mbps": r3(tx), "rx.mbps": r3(rx) });
  }
  return out;
}

/** Uptime over [from, to), both clipped to `now`, announced maintenance excluded from both sides. */
export function uptimeRatio(outages: readonly Interval[], from: number, to: number, maintenance?: readonly Interval[]): number {
  const maint = normalise(maintenance);
  const total = to - from - overlap(maint, from, to);
  if (total <= 0) return 1;
  let down = 0;
  for (const o of outages) {
    const a = Math.max(from, o.start);
    const b = Math.min(to, o.end);
    if (b <= a) continue;
    down += b - a - overlap(maint, a, b);
  }
  return 1 - down / total;
}
