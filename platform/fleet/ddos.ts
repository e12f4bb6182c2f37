import { CITIES, type City } from "./geo.ts";
import { M, mix32, u01 } from "./hash.ts";
import { overlap, type OutageFacts, type Prepared } from "./model.ts";
import { r3 } from "./series.ts";
import { DAY, iso, MINUTE, type Window } from "./time.ts";

/*
 * DDoS protection as the device sees it: where inbound traffic comes from and outbound traffic
 * goes (real cities), how malicious each source is, what was blocked, and the attacks, each
 * judged against the device's thresholds (spec 3 §9 defaults).
 */

export interface Threshold {
  alert_threshold: number;
  block_threshold: number;
  max_threshold: number;
}

/** DDoS thresholds (spec 3 §3), in packets per second. */
export interface DdosThresholds {
  flood_tcp_syn: Threshold;
  flood_udp: Threshold;
  flood_icmp: Threshold;
}

export const DEFAULT_DDOS_THRESHOLDS: DdosThresholds = {
  flood_tcp_syn: { alert_threshold: 200, block_threshold: 2000, max_threshold: 5000 },
  flood_udp: { alert_threshold: 1000, block_threshold: 5000, max_threshold: 5000 },
  flood_icmp: { alert_threshold: 100, block_threshold: 3000, max_threshold: 3000 },
};

/** The device's protection settings (CPE/metro flags). */
export interface DdosSettings {
  thresholds?: DdosThresholds;
  /** malicious_ip_block_enabled */
  blockMalicious?: boolean;
  /** denial_of_service_enabled */
  mitigation?: boolean;
  nodeName?: string;
  siteAddress?: string;
}

export interface IpEntry {
  ip_address: string;
  malicious_score: number;
  ports: number[];
}

export interface GeoEntry {
  city: string;
  country: string;
  latitude: number;
  longitude: number;
  malicious_score: number;
  ips: IpEntry[];
}

/** Node (DDoS maps), spec 3 §3. */
export interface DdosNode {
  node_name: string;
  node_id: string;
  site_address: string;
  latitude: number;
  longitude: number;
  malicious_ips: number;
  total_ips: number;
}

export interface DosAttack {
  src_addr: string;
  status: "detected" | "mitigated";
  start_time: string;
  /** Seconds. */
  duration: number;
  /** Bits per second at the attack's peak (never above the line rate). */
  attack_throughput: number;
  /** Bytes. */
  attack_volume: number;
  attack_name: string;
  /** Packets per second at the peak: what the thresholds are judged against. */
  attack_count: number;
  /** The threshold the attack crossed. */
  threshold: "alert" | "block" | "max";
  start: number;
  end: number;
}

export interface Ddos {
  inbound: { node: DdosNode; locations: GeoEntry[] };
  outbound: { node: DdosNode; locations: GeoEntry[] };
  blocked: { node: DdosNode; locations: { city: string; country: string; latitude: number; longitude: number; ips: { ip: string; malicious_score: number }[] }[] };
  blocked_history: { ip_address: string; country: string; city: string; malicious_score: number; block_time: string }[];
  attacks: DosAttack[];
  /** DDoS Mitigation Traffic chart: bits per second dropped and passed per bucket. */
  mitigation: { timestamp: string; blocked_bps: number; passed_bps: number }[];
}

const PUBLIC_FIRST = [5, 31, 37, 41, 45, 46, 62, 77, 78, 80, 82, 85, 89, 91, 93, 94, 103, 109, 112, 113, 118, 121, 125, 138, 141, 146, 154, 159, 176, 178, 185, 188, 190, 193, 194, 195, 196, 197, 201, 202, 210, 212, 213, 217, 222];

function publicIp(h: number): string {
  return `${PUBLIC_FIRST[h % PUBLIC_FIRST.length]}.${(h >>> 8) & 255}.${(h >>> 16) & 255}.${1 + ((h >>> 24) % 254)}`;
}

const SCAN_PORTS = [22, 23, 80, 443, 445, 3389, 8080, 53, 123, 161, 1900, 5060];

function locations(p: Prepared, w: Window, salt: number): GeoEntry[] {
  // The sources change by day; which ones are seen depends on the range's days.
  const out = new Map<string, GeoEntry>();
  const firstDay = Math.floor(w.start / DAY);
  const lastDay = Math.floor((w.end - 1) / DAY);
  for (let day = firstDay; day <= lastDay; day++) {
    const n = 4 + Math.floor(u01(p.key, M.city, day * 16 + salt) * 6);
    for (let j = 0; j < n; j++) {
      const b = day * 64 + j * 4 + salt * 7919;
      const c: City = CITIES[Math.floor(u01(p.key, M.city, b + 1) * CITIES.length)]!;
      const entry = out.get(c.city) ?? { city: c.city, country: c.country, latitude: c.lat, longitude: c.lon, malicious_score: 0, ips: [] };
      const ipCount = 1 + Math.floor(u01(p.key, M.ip, b) * 3);
      for (let k = 0; k < ipCount; k++) {
        const h = mix32(p.key ^ Math.imul(b + k + 1, 0x2c1b3c6d));
        const r = u01(p.key, M.ip, b + k + 1);
        // Most sources are benign; a tail scores high.
        const score = r < 0.7 ? Math.floor(r * 40) : Math.floor(40 + ((r - 0.7) / 0.3) * 60);
        const ports = [SCAN_PORTS[h % SCAN_PORTS.length]!];
        if (score > 60) ports.push(SCAN_PORTS[(h >>> 5) % SCAN_PORTS.length]!);
        if (!entry.ips.some((x) => x.ip_address === publicIp(h))) entry.ips.push({ ip_address: publicIp(h), malicious_score: score, ports: [...new Set(ports)] });
      }
      entry.malicious_score = Math.max(...entry.ips.map((x) => x.malicious_score));
      out.set(c.city, entry);
    }
  }
  return [...out.values()];
}

/** Score from which a source counts as malicious (and is blocked when blocking is on). */
export const MALICIOUS_SCORE = 70;

function nodeOf(p: Prepared, s: DdosSettings, locs: GeoEntry[]): DdosNode {
  const ips = locs.flatMap((l) => l.ips);
  return {
    node_name: s.nodeName ?? p.id,
    node_id: p.id,
    site_address: s.siteAddress ?? "",
    latitude: p.lat,
    longitude: p.lon,
    malicious_ips: ips.filter((i) => i.malicious_score >= MALICIOUS_SCORE).length,
    total_ips: ips.length,
  };
}

const FLOODS = [
  { key: "flood_tcp_syn", name: "TCP SYN flood", bytesPerPacket: 60 },
  { key: "flood_udp", name: "UDP flood", bytesPerPacket: 512 },
  { key: "flood_icmp", name: "ICMP flood", bytesPerPacket: 84 },
] as const;

export function ddos(p: Prepared, w: Window, now: number, outages: readonly OutageFacts[], s: DdosSettings): Ddos {
  const th = s.thresholds ?? DEFAULT_DDOS_THRESHOLDS;
  const inbound = locations(p, w, 1);
  const outbound = locations(p, w, 2).map((l) => ({ ...l, ips: l.ips.map((i) => ({ ...i, malicious_score: Math.floor(i.malicious_score / 2) })) }));
  for (const l of outbound) l.malicious_score = Math.max(...l.ips.map((x) => x.malicious_score));
  const blockedLocs = s.blockMalicious
    ? inbound
        .map((l) => ({ city: l.city, country: l.country, latitude: l.latitude, longitude: l.longitude, ips: l.ips.filter((i) => i.malicious_score >= MALICIOUS_SCORE).map((i) => ({ ip: i.ip_address, malicious_score: i.malicious_score })) }))
        .filter((l) => l.ips.length)
    : [];
  const history: Ddos["blocked_history"] = [];
  for (const l of blockedLocs) {
    for (const ip of l.ips) {
      const at = w.start + Math.floor(u01(p.key, M.ip, mix32(ip.ip.length * 31 + ip.malicious_score) ^ l.city.length) * (Math.min(w.end, now) - w.start));
      history.push({ ip_address: ip.ip, country: l.country, city: l.city, malicious_score: ip.malicious_score, block_time: iso(at) });
    }
  }
  history.sort((a, b) => (a.block_time < b.block_time ? 1 : -1));

  // Attacks: about one every four days, each of one flood kind, judged against its thresholds.
  const attacks: DosAttack[] = [];
  const maliciousIps = inbound.flatMap((l) => l.ips).filter((i) => i.malicious_score >= 40);
  for (let day = Math.floor(w.start / DAY) - 1; day * DAY < w.end; day++) {
    if (u01(p.key, M.attack, day) >= 0.25) continue;
    const f = FLOODS[Math.floor(u01(p.key, M.attack, day + 100000) * 3)]!;
    const t = th[f.key];
    const pps = Math.round(50 + 7950 * u01(p.key, M.attack, day + 200000) ** 1.5);
    if (pps < t.alert_threshold) continue;
    const durationS = 60 + Math.floor(1740 * u01(p.key, M.attack, day + 300000));
    const start = day * DAY + Math.floor(u01(p.key, M.attack, day + 400000) * (DAY - durationS * 1000));
    const end = start + durationS * 1000;
    if (end <= w.start || start >= w.end || start > now) continue;
    // An attack against a device that is down goes nowhere.
    if (overlap(outages, start, end) >= end - start) continue;
    const bps = Math.min(p.mbps * 1e6, pps * f.bytesPerPacket * 8);
    const threshold = pps >= t.max_threshold ? "max" : pps >= t.block_threshold ? "block" : "alert";
    attacks.push({
      src_addr: maliciousIps.length ? maliciousIps[day % maliciousIps.length]!.ip_address : publicIp(mix32(p.key ^ day)),
      status: threshold !== "alert" && s.mitigation ? "mitigated" : "detected",
      start_time: iso(start),
      duration: durationS,
      attack_throughput: Math.round(bps),
      attack_volume: Math.round((bps / 8) * durationS * 0.7),
      attack_name: f.name,
      attack_count: pps,
      threshold,
      start,
      end,
    });
  }
  attacks.sort((a, b) => b.start - a.start);

  const mitigation: Ddos["mitigation"] = [];
  for (let i = 0; i < w.points; i++) {
    const a = w.first + i * w.step;
    const b = a + w.step;
    let blocked = 0;
    let passed = 0;
    for (const at of attacks) {
      const ov = Math.min(b, at.end) - Math.max(a, at.start);
      if (ov <= 0) continue;
      const avg = (at.attack_throughput * 0.7 * ov) / w.step;
      if (at.status === "mitigated") blocked += avg;
      else passed += avg;
    }
    // Blocked malicious sources: a trickle of dropped probes all the time.
    if (s.blockMalicious && blockedLocs.length) blocked += 2000 + 6000 * u01(p.key, M.attack, Math.floor(a / MINUTE));
    mitigation.push({ timestamp: iso(a), blocked_bps: r3(blocked), passed_bps: r3(passed) });
  }

  return {
    inbound: { node: nodeOf(p, s, inbound), locations: inbound },
    outbound: { node: nodeOf(p, s, outbound), locations: outbound },
    blocked: { node: nodeOf(p, s, inbound), locations: blockedLocs },
    blocked_history: history,
    attacks,
    mitigation,
  };
}
