import { M, mix32, u01 } from "./hash.ts";
import { overlap, utilisation, type OutageFacts, type Prepared } from "./model.ts";
import { ipv6Of, isIPv6, pathTo, probeRtt, resolveAddress, wanAddresses } from "./paths.ts";
import { r3 } from "./series.ts";
import { iso, MINUTE } from "./time.ts";

/*
 * Device operations: what the device answers when the provider's systems ask it to do something.
 * Output texts follow the real Linux tools (iputils ping, traceroute).
 */

const fmt = (v: number) => v.toFixed(3);

/** `ping -c 4 ADDRESS` on the device at `now`. */
export function pingOutput(p: Prepared, target: string, now: number, down: boolean, count = 4): string {
  const address = resolveAddress(target);
  const path = pathTo(p, target);
  const dest = path[path.length - 1]!;
  const named = address === target ? address : `${target} (${address})`;
  const v6 = isIPv6(address);
  // iputils ping: "56(84)" for IPv4; "56 data bytes" for IPv6 (no IP header size to add).
  const lines = [v6 ? `PING ${address} (${address}) 56 data bytes` : `PING ${named} ${address === target ? `(${address}) ` : ""}56(84) bytes of data.`];
  const wan = v6 ? ipv6Of(wanAddresses(p).wan) : wanAddresses(p).wan;
  if (down) {
    for (let i = 1; i <= count; i++) lines.push(`From ${wan} icmp_seq=${i} Destination Host Unreachable`);
    lines.push("", `--- ${target} ping statistics ---`, `${count} packets transmitted, 0 received, +${count} errors, 100% packet loss, time ${(count - 1) * 1000 + 47}ms`, "");
    return lines.join("\n");
  }
  const ttl = 64 - path.length + (address.startsWith("8.8.") ? 54 : 0);
  const times: number[] = [];
  for (let i = 1; i <= count; i++) {
    // A probe is lost now and then when the link is busy.
    const lost = u01(p.key, M.ping, Math.floor(now / 1000) * 16 + i) < 0.01 + utilisation(p, now, MINUTE) * 0.02;
    if (lost) continue;
    const t = probeRtt(p, dest, i, now);
    times.push(t);
    lines.push(`64 bytes from ${address}: icmp_seq=${i} ttl=${Math.max(1, ttl)} time=${t < 10 ? t.toFixed(2) : t.toFixed(1)} ms`);
  }
  const received = times.length;
  const lossPct = Math.round(((count - received) / count) * 100);
  lines.push("", `--- ${target} ping statistics ---`, `${count} packets transmitted, ${received} received, ${lossPct}% packet loss, time ${(count - 1) * 1000 + Math.floor(u01(p.key, M.ping, Math.floor(now / 1000)) * 9)}ms`);
  if (received) {
    const min = Math.min(...times);
    const max = Math.max(...times);
    const avg = times.reduce((a, b) => a + b, 0) / received;
    const mdev = Math.sqrt(times.reduce((a, b) => a + (b - avg) ** 2, 0) / received);
    lines.push(`rtt min/avg/max/mdev = ${fmt(min)}/${fmt(avg)}/${fmt(max)}/${fmt(mdev)} ms`);
  }
  lines.push("");
  return lines.join("\n");
}

/** `traceroute ADDRESS` on the device at `now`; during an outage the path stops where the outage says. */
export function tracerouteOutput(p: Prepared, target: string, now: number, downHops: number | null): string {
  const address = resolveAddress(target);
  const path = pathTo(p, target);
  // Linux traceroute's default probe: 60 bytes over IPv4, 80 over IPv6.
  const lines = [`traceroute to ${target} (${address}), 30 hops max, ${isIPv6(address) ? 80 : 60} byte packets`];
  const shown = downHops === null ? path.length : Math.min(downHops, path.length);
  for (let i = 0; i < shown; i++) {
    const h = path[i]!;
    const n = String(h.hop).padStart(2, " ");
    if (!h.ip) {
      lines.push(`${n}  * * *`);
      continue;
    }
    const t = [1, 2, 3].map((k) => `${fmt(probeRtt(p, h, k, now))} ms`).join("  ");
    lines.push(`${n}  ${h.hostname ?? h.ip} (${h.ip})  ${t}`);
  }
  if (downHops !== null) {
    // No answer past the failure: traceroute keeps probing until its hop limit.
    for (let i = shown + 1; i <= Math.min(30, shown + 5); i++) lines.push(`${String(i).padStart(2, " ")}  * * *`);
  }
  lines.push("");
  return lines.join("\n");
}

export type SpeedTestType = "ookla" | (string & {});

export interface SpeedTestResult {
  status: "running" | "completed" | "failed";
  /** 0–100 while running. */
  progress: number;
  data: {
    download_speed_mbps: number;
    upload_speed_mbps: number;
    ping_latency_ms: number;
    ping_jitter_ms: number;
    result_url: string | null;
  } | null;
  detail?: string;
}

/** How long a speed test takes on the device (8–14 s, like a real one). */
export function speedTestLength(p: Prepared, startedAt: number): number {
  return 8000 + Math.floor(6000 * u01(p.key, M.speed, Math.floor(startedAt / 1000)));
}

/**
 * The speed test started at `startedAt`, read at `now`: running until it finishes, then the
 * result: download and upload close to the contracted speed less what the site is using,
 * latency near the device's RTT to the test server. A device that is down fails the test.
 */
export function speedTestResult(p: Prepared, testType: SpeedTestType, startedAt: number, now: number, outages: readonly OutageFacts[]): SpeedTestResult {
  const length = speedTestLength(p, startedAt);
  if (overlap(outages, startedAt, Math.min(now, startedAt + length)) > 0) return { status: "failed", progress: 100, data: null, detail: "The device is offline" };
  if (now < startedAt + length) return { status: "running", progress: Math.max(0, Math.min(99, Math.floor(((now - startedAt) / length) * 100))), data: null };
  const s = Math.floor(startedAt / 1000);
  const busy = utilisation(p, startedAt, MINUTE);
  const q = 0.88 + 0.09 * u01(p.key, M.speed, s + 1);
  const server = testType === "ookla" ? 1 + 6 * u01(p.key, M.speed, s + 2) : 0.5 + 3 * u01(p.key, M.speed, s + 2);
  const h = mix32(p.key ^ s);
  const uuid = [h, mix32(h + 1), mix32(h + 2), mix32(h + 3)].map((x) => x.toString(16).padStart(8, "0")).join("");
  return {
    status: "completed",
    progress: 100,
    data: {
      download_speed_mbps: r3(p.mbps * q * (1 - busy * 0.6)),
      upload_speed_mbps: r3(p.mbps * (q - 0.04) * (1 - busy * p.txRatio * 0.6)),
      ping_latency_ms: r3(p.baseRtt + server),
      ping_jitter_ms: r3(0.2 + 1.5 * u01(p.key, M.speed, s + 3)),
      result_url: testType === "ookla" ? `https://www.speedtest.net/result/c/${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20, 32)}` : null,
    },
  };
}

/** Activation test input: a peer IP, or a peer MAC with a VLAN (metro). */
export interface ActivationPeer {
  peer_ip?: string;
  peer_mac?: string;
  vlan_id?: number;
}

export interface ActivationMessage {
  seq: number;
  timestamp: string;
  status: "running" | "completed" | "failed";
  progress: number;
  message: string;
  report?: ActivationReport;
}

/** The activation test report: the tables of the metro test report PDF. */
export interface ActivationReport {
  node_id: string;
  peer: string;
  started_at: string;
  finished_at: string;
  result: "pass" | "fail";
  link_speed: { port: string; negotiated_speed_mbps: number; duplex: string; status: "UP" | "DOWN" }[];
  throughput: { frame_size: number; throughput_mbps: number; frame_loss_pct: number; result: "pass" | "fail" }[];
  delay: { frame_size: number; min_ms: number; avg_ms: number; max_ms: number; jitter_ms: number; result: "pass" | "fail" }[];
}

const FRAME_SIZES = [64, 128, 256, 512, 1024, 1280, 1518];

/** The steps of an activation test, each with its offset from the start (ms): tens of seconds in all. */
export function activationPlan(p: Prepared, startedAt: number, peer: ActivationPeer, down: boolean): { at: number; message: ActivationMessage }[] {
  const peerName = peer.peer_ip ?? (peer.peer_mac ? `${peer.peer_mac}${peer.vlan_id !== undefined ? ` on VLAN ${peer.vlan_id}` : ""}` : "the provider's test head");
  const steps: [string, number][] = [
    ["Test started", 0],
    ["Checking the WAN link", 1500],
    [`Link is up at ${p.mbps >= 1000 ? p.mbps / 1000 + " Gbps" : p.mbps + " Mbps"} full duplex`, 3000],
    [`Reaching the test peer ${peerName}`, 5000],
    ["Peer reachable; loopback established", 8000],
  ];
  let t = 8000;
  for (const size of FRAME_SIZES) {
    t += 3000 + Math.floor(2000 * u01(p.key, M.speed, size));
    steps.push([`Throughput test, ${size}-byte frames: done`, t]);
  }
  t += 4000;
  steps.push(["Delay and jitter measurement: done", t]);
  t += 1500;
  const out: { at: number; message: ActivationMessage }[] = [];
  const failAt = down ? 2 : -1;
  for (let i = 0; i < steps.length; i++) {
    const [message, at] = steps[i]!;
    if (i === failAt) {
      out.push({ at, message: { seq: i + 1, timestamp: iso(startedAt + at), status: "failed", progress: 100, message: "The WAN link is down: the test cannot run" } });
      return out;
    }
    out.push({ at, message: { seq: i + 1, timestamp: iso(startedAt + at), status: "running", progress: Math.floor((at / t) * 100), message } });
  }
  out.push({
    at: t,
    message: { seq: steps.length + 1, timestamp: iso(startedAt + t), status: "completed", progress: 100, message: "Test completed", report: activationReport(p, startedAt, startedAt + t, peerName) },
  });
  return out;
}

export function activationReport(p: Prepared, startedAt: number, finishedAt: number, peer: string): ActivationReport {
  const s = Math.floor(startedAt / 1000);
  const throughput = FRAME_SIZES.map((size, i) => {
    // Small frames carry more overhead (preamble + inter-frame gap: 20 bytes per frame).
    const eff = size / (size + 20);
    const loss = u01(p.key, M.speed, s * 8 + i) < 0.1 ? r3(0.01 + 0.1 * u01(p.key, M.speed, s * 8 + i + 50)) : 0;
    return { frame_size: size, throughput_mbps: r3(p.mbps * eff * (1 - loss / 100)), frame_loss_pct: loss, result: (loss < 0.1 ? "pass" : "fail") as "pass" | "fail" };
  });
  const delay = FRAME_SIZES.map((size, i) => {
    const min = p.baseRtt / 2 + (size * 8) / (p.mbps * 1000);
    const jitter = 0.05 + 0.3 * u01(p.key, M.speed, s * 8 + i + 100);
    return { frame_size: size, min_ms: r3(min), avg_ms: r3(min + jitter), max_ms: r3(min + jitter * 3), jitter_ms: r3(jitter), result: (jitter < 1 ? "pass" : "fail") as "pass" | "fail" };
  });
  return {
    node_id: p.id,
    peer,
    started_at: iso(startedAt),
    finished_at: iso(finishedAt),
    result: throughput.every((x) => x.result === "pass") && delay.every((x) => x.result === "pass") ? "pass" : "fail",
    link_speed: [
      { port: "wan0", negotiated_speed_mbps: p.mbps >= 1000 ? 1000 * Math.ceil(p.mbps / 1000) : 1000, duplex: "full", status: "UP" },
      { port: "lan1", negotiated_speed_mbps: 1000, duplex: "full", status: "UP" },
    ],
    throughput,
    delay,
  };
}

/** A LAN interface and its state. */
export interface LanInterface {
  name: string;
  intf: string;
  role: "lan";
  mac_address: string;
  speed: string;
  duplex: "full" | "half";
  operational_state: "UP" | "DOWN";
  last_change: string;
}

/** How long an interface stays down after reset_interface, ms. */
export const INTERFACE_RESET_MS = 5000;

/**
 * The device's LAN ports at `now`: which have a cable in (by the id), and those reset in the
 * last few seconds are down. The whole device down: all ports down.
 */
export function lanInterfaces(p: Prepared, now: number, down: boolean, resets: Record<string, number> = {}): LanInterface[] {
  const out: LanInterface[] = [];
  const h = mix32(p.key ^ 0x1a7);
  for (let i = 1; i <= 4; i++) {
    const intf = `eth${i}`;
    const connected = i === 1 || ((h >>> i) & 1) === 1;
    const resetAt = resets[intf] ?? resets[`lan${i}`];
    const resetting = resetAt !== undefined && now >= resetAt && now < resetAt + INTERFACE_RESET_MS;
    const up = connected && !down && !resetting;
    const mac = [0x02, 0x4c, (h >>> 8) & 255, (h >>> 16) & 255, (h >>> 24) & 255, i].map((x) => x.toString(16).padStart(2, "0")).join(":");
    out.push({
      name: `lan${i}`,
      intf,
      role: "lan",
      mac_address: mac,
      speed: up ? (i === 1 ? "1000Mb/s" : ((h >>> (i + 4)) & 1 ? "1000Mb/s" : "100Mb/s")) : "Unknown!",
      duplex: "full",
      operational_state: up ? "UP" : "DOWN",
      last_change: iso(resetAt !== undefined && now >= resetAt ? (resetting ? resetAt : resetAt + INTERFACE_RESET_MS) : Math.floor(now / 86400000) * 86400000 - 86400000 * (1 + (h % 20))),
    });
  }
  return out;
}

export interface HealthCheck {
  node_id: string;
  checked_at: string;
  status: "healthy" | "degraded" | "unreachable";
  checks: { check: string; status: "pass" | "fail"; detail: string }[];
}

/** Test Node Health / run_health_check: the checks a device or node runs on itself. */
export function healthCheck(p: Prepared, now: number, down: boolean, rttMs: number, lossPct: number, cpuPct: number, memPct: number, diskPct: number): HealthCheck {
  const { gateway } = wanAddresses(p);
  if (down) {
    return {
      node_id: p.id,
      checked_at: iso(now),
      status: "unreachable",
      checks: [{ check: "management_reachable", status: "fail", detail: "No answer from the device over the management tunnel" }],
    };
  }
  const checks: HealthCheck["checks"] = [
    { check: "management_reachable", status: "pass", detail: "The device answered over the management tunnel" },
    { check: "gateway_ping", status: lossPct < 50 ? "pass" : "fail", detail: `Gateway ${gateway}: ${r3(rttMs)} ms, ${r3(lossPct)} % loss` },
    { check: "dns_resolution", status: "pass", detail: "Resolved the monitor target" },
    { check: "cpu", status: cpuPct < 90 ? "pass" : "fail", detail: `${r3(cpuPct)} % used` },
    { check: "memory", status: memPct < 90 ? "pass" : "fail", detail: `${r3(memPct)} % used` },
    { check: "disk", status: diskPct < 90 ? "pass" : "fail", detail: `${r3(diskPct)} % used` },
    { check: "packet_loss", status: lossPct < 2 ? "pass" : "fail", detail: `${r3(lossPct)} % over the last minute` },
  ];
  return { node_id: p.id, checked_at: iso(now), status: checks.every((c) => c.status === "pass") ? "healthy" : "degraded", checks };
}
