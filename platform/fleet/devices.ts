import { mix32, u01 } from "./hash.ts";
import { overlap, prepare, utilisation, type DeviceEvents, type FleetObject, type Prepared } from "./model.ts";
import { speedTestResult, type SpeedTestType } from "./ops.ts";
import { wanAddresses } from "./paths.ts";
import { pastOutages, r3 } from "./series.ts";
import { DAY, iso, MINUTE } from "./time.ts";

/*
 * What the Internet and Metro Ethernet NIDs answer beyond ops.ts (issue #25), additive to the
 * fleet: the speed test as the tools print it (the Speedtest CLI's `-f json`, iperf3's `-J`), and
 * the measurements of an ITU-T Y.1564 service activation test (the platform grades them against
 * the acceptance criteria: platform/domain/y1564.ts). Pure functions of (seed, device, time).
 */

// Metric numbers of this module's streams (hash.ts's M stops at 34).
const MX = { sat: 101, satLoss: 102, satDelay: 103, satPolicer: 104, satEir: 105, perf: 106, server: 107, perfSample: 108 } as const;

// ---------------------------------------------------------------------------------------------
// Speed test

export interface SpeedTestReport {
  status: "running" | "completed" | "failed";
  detail?: string;
  data: {
    test_type: string;
    download_speed_mbps: number;
    upload_speed_mbps: number;
    ping_latency_ms: number;
    ping_jitter_ms: number;
    packet_loss: number | null;
    server: string;
    result_url: string | null;
    started_at: string;
    finished_at: string;
    raw: Record<string, unknown>;
  } | null;
}

const bytesPerSecond = (mbps: number) => Math.round((mbps * 1e6) / 8);

/**
 * The speed test started at `startedAt` read at `now` (ops.ts's figures), with the raw output of
 * the tool the device ran: Ookla's Speedtest CLI (`speedtest -f json`) for "ookla", iperf3
 * (`iperf3 -c HOST -J`, then `-R`) for a host.
 */
export function speedTestReport(seed: number, device: FleetObject, testType: SpeedTestType, startedAt: number, now: number, events?: DeviceEvents): SpeedTestReport {
  const p = prepare(seed, device, "cpe");
  const r = speedTestResult(p, testType, startedAt, now, pastOutages(p, startedAt - DAY, startedAt + DAY, now, events));
  if (r.status === "running") return { status: "running", data: null };
  if (r.status === "failed" || !r.data) return { status: "failed", detail: r.detail ?? "The speed test failed", data: null };
  const d = r.data;
  const s = Math.floor(startedAt / 1000);
  const finished = startedAt + 8000 + Math.floor(6000 * u01(p.key, 30, s));
  const { wan } = wanAddresses(p);
  const loss = u01(p.key, MX.server, s) < 0.85 ? 0 : r3(0.1 + 0.5 * u01(p.key, MX.server, s + 1));
  const common = { test_type: testType, download_speed_mbps: d.download_speed_mbps, upload_speed_mbps: d.upload_speed_mbps, ping_latency_ms: d.ping_latency_ms, ping_jitter_ms: d.ping_jitter_ms, started_at: iso(startedAt), finished_at: iso(finished) };
  if (testType === "ookla") {
    const serverId = 10000 + (mix32(p.key ^ 0x5e) % 50000);
    const resultId = d.result_url?.split("/").pop() ?? "";
    const elapsed = (mbps: number) => 7000 + Math.floor(3000 * (mbps % 1));
    const side = (mbps: number, k: number) => ({
      bandwidth: bytesPerSecond(mbps),
      bytes: Math.round(bytesPerSecond(mbps) * (elapsed(mbps) / 1000)),
      elapsed: elapsed(mbps),
      latency: { iqm: r3(d.ping_latency_ms + 2 + k), low: r3(d.ping_latency_ms + 0.5), high: r3(d.ping_latency_ms + 8 + 4 * k), jitter: r3(d.ping_jitter_ms * (1.5 + k)) },
    });
    const raw = {
      type: "result",
      timestamp: iso(finished).replace(/\.\d{3}Z$/, "Z"),
      ping: { jitter: d.ping_jitter_ms, latency: d.ping_latency_ms, low: r3(d.ping_latency_ms - d.ping_jitter_ms / 2), high: r3(d.ping_latency_ms + d.ping_jitter_ms * 2) },
      download: side(d.download_speed_mbps, 1),
      upload: side(d.upload_speed_mbps, 2),
      packetLoss: loss,
      isp: "Linkwise Networks",
      interface: { internalIp: wan, name: "wan0", macAddr: [0x02, 0x4c, (p.key >>> 8) & 255, (p.key >>> 16) & 255, 0, 1].map((x) => x.toString(16).padStart(2, "0")).join(":").toUpperCase(), isVpn: false, externalIp: wan },
      server: { id: serverId, host: `speedtest.${p.pop.code.toLowerCase()}.example.net`, port: 8080, name: "Linkwise Networks", location: p.pop.city, country: p.pop.country, ip: `${p.pop.net}.80` },
      result: { id: resultId, url: d.result_url, persisted: true },
    };
    return { status: "completed", data: { ...common, packet_loss: loss, server: `${raw.server.name} – ${p.pop.city} (id ${serverId})`, result_url: d.result_url, raw } };
  }
  // iperf3: one run each way; TCP's smoothed RTT stands in for latency (iperf3 has no ping).
  const iperf = (mbps: number, reverse: boolean) => {
    const seconds = 10;
    const bytes = Math.round(bytesPerSecond(mbps) * seconds);
    const retransmits = Math.floor(mbps * 0.02 * u01(p.key, MX.server, s + (reverse ? 7 : 8)));
    const sum = { start: 0, end: seconds, seconds, bytes, bits_per_second: Math.round(mbps * 1e6), retransmits, sender: true };
    return {
      start: {
        connected: [{ socket: 5, local_host: wan, local_port: 40000 + (p.key % 20000), remote_host: testType, remote_port: 5201 }],
        version: "iperf 3.16",
        system_info: "Linux lw-edge 6.6.0 #1 SMP aarch64",
        timestamp: { time: new Date(startedAt).toUTCString(), timesecs: s },
        connecting_to: { host: testType, port: 5201 },
        cookie: mix32(p.key ^ s).toString(36).padEnd(36, "0").slice(0, 36),
        test_start: { protocol: "TCP", num_streams: 1, blksize: 131072, omit: 0, duration: seconds, bytes: 0, blocks: 0, reverse: reverse ? 1 : 0, tos: 0 },
      },
      intervals: Array.from({ length: seconds }, (_, i) => ({
        sum: { start: i, end: i + 1, seconds: 1, bytes: Math.round(bytes / seconds), bits_per_second: Math.round(mbps * 1e6 * (0.97 + 0.06 * u01(p.key, MX.server, s * 16 + i))), omitted: false, sender: !reverse },
      })),
      end: {
        streams: [{ sender: { socket: 5, ...sum, max_rtt: Math.round((d.ping_latency_ms + 4 * d.ping_jitter_ms) * 1000), min_rtt: Math.round(d.ping_latency_ms * 900), mean_rtt: Math.round(d.ping_latency_ms * 1000) } }],
        sum_sent: sum,
        sum_received: { ...sum, bytes: Math.round(bytes * 0.999), bits_per_second: Math.round(mbps * 1e6 * 0.999), sender: true },
        cpu_utilization_percent: { host_total: r3(20 + 30 * u01(p.key, MX.server, s + 9)), host_user: 1.2, host_system: 18.7, remote_total: 3.1, remote_user: 0.2, remote_system: 2.9 },
        sender_tcp_congestion: "cubic",
        receiver_tcp_congestion: "cubic",
      },
    };
  };
  return {
    status: "completed",
    data: { ...common, packet_loss: null, server: `iperf3 server ${testType}:5201`, result_url: null, raw: { upload: iperf(d.upload_speed_mbps, false), download: iperf(d.download_speed_mbps, true) } },
  };
}

// ---------------------------------------------------------------------------------------------
// ITU-T Y.1564 service activation test: the measurements

export type SatStepId = "cir_25" | "cir_50" | "cir_75" | "cir_100" | "cir_eir" | "overshoot";
export const SAT_STEPS: readonly { step: SatStepId; share: number; ofCirEir: boolean }[] = [
  { step: "cir_25", share: 0.25, ofCirEir: false },
  { step: "cir_50", share: 0.5, ofCirEir: false },
  { step: "cir_75", share: 0.75, ofCirEir: false },
  { step: "cir_100", share: 1, ofCirEir: false },
  { step: "cir_eir", share: 1, ofCirEir: true },
  { step: "overshoot", share: 1.25, ofCirEir: true },
];

export interface SatMeasurement {
  offered_mbps: number;
  ir_mbps: number;
  flr_pct: number;
  ftd_min_ms: number;
  ftd_avg_ms: number;
  ftd_max_ms: number;
  fdv_ms: number;
}

export interface SatPerformance extends SatMeasurement {
  duration_s: number;
  availability_pct: number;
}

/** A link speed sample (spec 3 §3's "timestamp, tx.mbps, rx.mbps"): sent towards the peer, received back. */
export interface SatLinkSample {
  tx_mbps: number;
  rx_mbps: number;
}

export type SatPlanItem =
  | { at: number; kind: "start" | "info"; message: string }
  | { at: number; kind: "step"; step: SatStepId; message: string; measurement: SatMeasurement; sample: SatLinkSample }
  | { at: number; kind: "performance_progress"; message: string; elapsed_s: number; duration_s: number; sample: SatLinkSample }
  | { at: number; kind: "performance"; message: string; measurement: SatPerformance; sample: SatLinkSample }
  | { at: number; kind: "failed"; message: string };

/** How long each configuration step runs, ms (a real test: about a minute each). */
export const SAT_STEP_MS = 5000;
/** The service performance test starts this long after the test (the link checks and six steps), ms. */
export const SAT_PERFORMANCE_FROM_MS = 3000 + 6 * SAT_STEP_MS;

/**
 * How often the service performance test reports (a progress message with a link speed sample):
 * every minute of a 15-minute test, every 10 minutes of 2 hours, every hour of 24 hours.
 */
export function satSampleEvery(durationS: number): number {
  return durationS >= 86_400 ? 3600 : durationS >= 7200 ? 600 : 60;
}

const minutes = (s: number) => (s >= 3600 && s % 3600 === 0 ? `${s / 3600} h` : s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);

/**
 * The service activation test of a circuit sold as CIR + EIR (Mbps) started at `startedAt`:
 * the link and peer checks, one configuration step every SAT_STEP_MS (25/50/75/100 % of CIR,
 * CIR+EIR, 125 % of CIR+EIR), then the performance test at CIR for `performanceS` seconds (ITU-T
 * Y.1564: 15 min, 2 h or 24 h), reporting every satSampleEvery(performanceS). Offsets `at` are ms
 * from the start, in the device's time (the platform may run them faster: FLEET_TEST_SPEED). A
 * device down at the start fails at once; a circuit occasionally misbehaves (a lossy access, a
 * loose policer, a busy link's delay variation) so that a test can fail as real ones do; an outage
 * during the performance test costs availability and empties its samples.
 */
export function serviceActivationPlan(
  seed: number,
  device: FleetObject,
  opts: { cirMbps: number; eirMbps: number; peer: string; startedAt: number; down: boolean; performanceS: number; events?: DeviceEvents },
): SatPlanItem[] {
  const p = prepare(seed, device, String(device.kind ?? "metro"));
  const { cirMbps: cir, eirMbps: eir, startedAt, performanceS } = opts;
  const s = Math.floor(startedAt / 1000);
  const out: SatPlanItem[] = [
    { at: 0, kind: "start", message: `Service activation test (ITU-T Y.1564) started towards ${opts.peer}: the service configuration test, then a ${minutes(performanceS)} service performance test` },
  ];
  out.push({ at: 1500, kind: "info", message: "Checking the link" });
  if (opts.down) {
    out.push({ at: 3000, kind: "failed", message: "The link is down: the test cannot run" });
    return out;
  }
  out.push({ at: 3000, kind: "info", message: `Link up; peer ${opts.peer} answered the loopback` });
  // The circuit's character for this run.
  const lossy = u01(p.key, MX.satLoss, s) < 0.06;
  const loosePolicer = u01(p.key, MX.satPolicer, s) < 0.05;
  const jittery = u01(p.key, MX.satDelay, s) < 0.05;
  const busy = utilisation(p, startedAt, MINUTE);
  const oneWay = p.baseRtt / 2;
  const measure = (offered: number, load: number, n: number): SatMeasurement => {
    const noise = u01(p.key, MX.sat, s * 32 + n);
    const loadCubed = Math.min(1.2, load) ** 3;
    const fdv = r3(0.03 + 0.35 * loadCubed + 0.1 * noise + (jittery ? 4 + 3 * noise : 0) + busy * 0.2);
    const min = r3(oneWay + 0.01 + (1518 * 8) / (Math.max(cir + eir, 1) * 1000));
    const avg = r3(min + 0.05 + 0.6 * loadCubed + fdv / 3);
    const max = r3(avg + fdv * (1.5 + noise) + 0.02);
    const flr = lossy ? r3(0.005 + 0.06 * u01(p.key, MX.satLoss, s * 32 + n)) : 0;
    return { offered_mbps: r3(offered), ir_mbps: r3(offered * (1 - flr / 100)), flr_pct: flr, ftd_min_ms: min, ftd_avg_ms: avg, ftd_max_ms: max, fdv_ms: fdv };
  };
  let at = 3000;
  SAT_STEPS.forEach((st, i) => {
    at += SAT_STEP_MS;
    const offered = st.ofCirEir ? (cir + eir) * st.share : cir * st.share;
    let m: SatMeasurement;
    if (st.step === "cir_eir") {
      // Yellow frames (over CIR) are carried as capacity allows: most of the EIR, some dropped.
      const carried = eir * (0.9 + 0.1 * u01(p.key, MX.satEir, s));
      const base = measure(cir, 1, i);
      m = { ...base, offered_mbps: r3(offered), ir_mbps: r3(cir * (1 - base.flr_pct / 100) + carried), flr_pct: r3(base.flr_pct + (eir > 0 ? ((eir - carried) / offered) * 100 : 0)) };
    } else if (st.step === "overshoot") {
      // The policer holds the rate to CIR + EIR (a loose one lets some of the excess through).
      const held = (cir + eir) * (loosePolicer ? 1.06 + 0.04 * u01(p.key, MX.satPolicer, s + 1) : 1 - 0.00005 * u01(p.key, MX.satPolicer, s + 2));
      const base = measure(cir, 1.1, i);
      m = { ...base, offered_mbps: r3(offered), ir_mbps: r3(held), flr_pct: r3(((offered - held) / offered) * 100) };
    } else {
      m = measure(offered, st.share, i);
    }
    out.push({ at, kind: "step", step: st.step, message: `Service configuration test: ${st.step}`, measurement: m, sample: { tx_mbps: m.offered_mbps, rx_mbps: m.ir_mbps } });
  });
  // The service performance test at CIR: a sample each interval (what arrived of what was sent,
  // less the share of the interval the device was down).
  const from = startedAt + SAT_PERFORMANCE_FROM_MS;
  const to = from + performanceS * 1000;
  const outages = pastOutages(p, startedAt - DAY, to + 1, to, opts.events);
  const base = measure(cir, 1, 10);
  const every = satSampleEvery(performanceS);
  const sampleOf = (a: number, b: number, k: number): SatLinkSample => {
    const upShare = 1 - overlap(outages, a, b) / Math.max(1, b - a);
    const flr = base.flr_pct > 0 ? r3(base.flr_pct * (0.5 + u01(p.key, MX.perfSample, s * 64 + k))) : 0;
    return { tx_mbps: r3(cir), rx_mbps: r3(cir * (1 - flr / 100) * upShare) };
  };
  let k = 0;
  for (let t = every; t < performanceS; t += every, k++) {
    const sample = sampleOf(from + (t - every) * 1000, from + t * 1000, k);
    out.push({
      at: SAT_PERFORMANCE_FROM_MS + t * 1000,
      kind: "performance_progress",
      elapsed_s: t,
      duration_s: performanceS,
      sample,
      message: `Service performance test at CIR: ${minutes(t)} of ${minutes(performanceS)}, TX ${sample.tx_mbps} Mbps, RX ${sample.rx_mbps} Mbps`,
    });
  }
  const lastFrom = Math.max(0, k * every);
  const down = overlap(outages, from, to);
  const availability = r3(100 * (1 - down / (to - from)));
  out.push({
    at: SAT_PERFORMANCE_FROM_MS + performanceS * 1000,
    kind: "performance",
    message: "Service performance test",
    measurement: { ...base, duration_s: performanceS, availability_pct: availability },
    sample: sampleOf(from + lastFrom * 1000, to, k),
  });
  return out;
}

export type { Prepared };
