import { isIPv6 } from "node:net";
import { describe, expect, it } from "vitest";
import { createFleet, RANGES, type RangeName } from "./index.ts";
import { DAY, HOUR, MINUTE } from "./time.ts";

const NOW = Date.parse("2026-11-18T15:07:30Z");
const fleet = createFleet(42);
const RANGE_NAMES = Object.keys(RANGES) as RangeName[];

const device = (id: string) => ({ id, kind: "cpe", lat: 48.86, lon: 2.35, contractedMbps: 200 });

/** A device with at least `n` outages in the week before NOW (searched, not assumed). */
function deviceWithOutages(n: number, range: RangeName = "1w", f = fleet) {
  for (let i = 0; i < 500; i++) {
    const d = device(`cpe-test-${i}`);
    if (f.outages(d, range, NOW).length >= n) return d;
  }
  throw new Error("no device with outages found");
}

describe("determinism", () => {
  it("the same seed and time give the same values; another seed gives others", () => {
    const objs = [device("cpe-a"), { id: "ep-1" }, { id: "as-1", kind: "app_service" }];
    const a = fleet.series("cpe", objs, "traffic", "1d", NOW);
    const b = createFleet(42).series("cpe", objs, "traffic", "1d", NOW);
    expect(b).toEqual(a);
    const c = createFleet(43).series("cpe", objs, "traffic", "1d", NOW);
    expect(c["cpe-a"]!.map((s) => s.rx_bytes)).not.toEqual(a["cpe-a"]!.map((s) => s.rx_bytes));
    expect(fleet.deviceDashboard(device("cpe-a"), "1w", NOW)).toEqual(createFleet(42).deviceDashboard(device("cpe-a"), "1w", NOW));
    expect(fleet.outages(device("cpe-a"), "1w", NOW)).toEqual(createFleet(42).outages(device("cpe-a"), "1w", NOW));
  });

  it("a bucket has the same value whichever range asks for it", () => {
    const d = device("cpe-b");
    const day = fleet.wanHealth(d, "1d", NOW);
    const threeHours = fleet.wanHealth(d, { start: NOW - 3 * HOUR, end: NOW }, NOW);
    // The same buckets asked for through an explicit window of the same span and step: identical.
    const explicitDay = fleet.wanHealth(d, { start: Date.parse(day[0]!.timestamp), end: Date.parse(day[0]!.timestamp) + DAY }, NOW);
    expect(explicitDay).toEqual(day);
    expect(threeHours.length).toBe(90);
  });
});

describe("ranges", () => {
  it("every range of the specs gives 60–170 points at its resolution", () => {
    const expected: Record<string, number> = { "1h": MINUTE, "3h": 2 * MINUTE, "12h": 5 * MINUTE, "1d": 10 * MINUTE, "3d": 30 * MINUTE, "1w": HOUR, Day: 10 * MINUTE, Week: HOUR };
    for (const r of RANGE_NAMES) {
      const w = fleet.window(r, NOW);
      expect(w.step).toBe(expected[r]);
      expect(w.points).toBeGreaterThanOrEqual(60);
      expect(w.points).toBeLessThanOrEqual(170);
      expect(w.first + (w.points - 1) * w.step).toBeLessThanOrEqual(NOW);
      expect(w.first + w.points * w.step).toBeGreaterThan(NOW);
      expect(fleet.nodeMetrics("sn-1", r, NOW)).toHaveLength(w.points);
    }
  });

  it("an explicit window stays within 170 points", () => {
    for (const span of [30 * MINUTE, 5 * HOUR, 2 * DAY, 10 * DAY, 40 * DAY]) {
      const w = fleet.window({ start: NOW - span, end: NOW }, NOW);
      expect(w.points).toBeLessThanOrEqual(170);
      expect(w.points).toBeGreaterThan(0);
    }
    expect(() => fleet.window({ start: NOW, end: NOW - 1 }, NOW)).toThrow();
    expect(() => fleet.window({ start: 0, end: NOW }, NOW)).toThrow(/400 days/);
    expect(() => fleet.window({ start: "yesterday", end: NOW }, NOW)).toThrow(RangeError);
  });
});

describe("physical bounds", () => {
  it("health and loss in 0–100 %, utilization ≤ 1, traffic ≤ contracted speed, node metrics in their chart ranges", () => {
    const devices = Array.from({ length: 20 }, (_, i) => ({ id: `cpe-bound-${i}`, kind: "cpe", lat: -60 + i * 7, lon: -170 + i * 17, contractedMbps: 10 + i * 50 }));
    // Plain loops and one assertion per object and range: millions of expect() calls would be slow.
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => void (ok || problems.push(what));
    for (const r of RANGE_NAMES) {
      const traffic = fleet.series("cpe", devices, "traffic", r, NOW);
      const health = fleet.series("cpe", devices, "wan_health", r, NOW);
      const util = fleet.series("cpe", devices, "utilization", r, NOW);
      const metrics = fleet.series("service_node", devices, "node_metrics", r, NOW);
      for (const d of devices) {
        const cap = (d.contractedMbps * 1e6) / 8;
        for (const s of traffic[d.id]!) check(s.rx_bytes >= 0 && s.tx_bytes >= 0 && s.rx_bytes <= cap && s.tx_bytes <= cap, `${r} ${d.id} traffic ${s.timestamp}`);
        for (const h of health[d.id]!) {
          check(h.health >= 0 && h.health <= 100, `${r} ${d.id} health ${h.health}`);
          check(h["Loss Rate"] >= 0 && h["Loss Rate"] <= 100, `${r} ${d.id} loss ${h["Loss Rate"]}`);
          check(h.RTT_ms >= 0, `${r} ${d.id} rtt`);
        }
        for (const u of util[d.id]!) {
          for (const v of [u.rx_avg_util, u.rx_peak_util, u.tx_avg_util, u.tx_peak_util]) check(v >= 0 && v <= 1, `${r} ${d.id} util ${v}`);
          check(u.rx_peak_util >= u.rx_avg_util && u.tx_peak_util >= u.tx_avg_util, `${r} ${d.id} peak below average`);
        }
        for (const m of metrics[d.id]!) {
          for (const v of [m.cpu_p, m["mem.usage"], m.ambient, m.cpu, m.disk]) check(v >= 0 && v <= 100, `${r} ${d.id} metric ${v}`);
          check(m["cpu.fan.rpm"] >= 0 && m["cpu.fan.rpm"] <= 5000, `${r} ${d.id} fan ${m["cpu.fan.rpm"]}`);
          check(m["tx.bytes"] <= cap && m["rx.bytes"] <= cap, `${r} ${d.id} node traffic`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it("CPU follows traffic and the fan follows CPU", () => {
    const m = fleet.nodeMetrics({ id: "sn-corr", kind: "service_node", lat: 40.7, lon: -74 }, "1w", NOW).filter((x) => x.cpu_p > 0);
    const corr = (a: number[], b: number[]) => {
      const ma = a.reduce((x, y) => x + y) / a.length;
      const mb = b.reduce((x, y) => x + y) / b.length;
      let n = 0, da = 0, db = 0;
      for (let i = 0; i < a.length; i++) {
        n += (a[i]! - ma) * (b[i]! - mb);
        da += (a[i]! - ma) ** 2;
        db += (b[i]! - mb) ** 2;
      }
      return n / Math.sqrt(da * db);
    };
    expect(corr(m.map((x) => x["rx.bytes"]), m.map((x) => x.cpu_p))).toBeGreaterThan(0.8);
    expect(corr(m.map((x) => x.cpu_p), m.map((x) => x["cpu.fan.rpm"]))).toBeGreaterThan(0.8);
  });

  it("business hours peak in the site's own time zone and weekends are quieter", () => {
    // Traffic by local hour over a week, for a site in Tokyo and one in New York.
    const mean = (lon: number, lat: number) => {
      const s = fleet.series("cpe", [{ id: "cpe-tz", kind: "endpoint", lat, lon }], "traffic", "1w", NOW)["cpe-tz"]!;
      const byHour = new Array(24).fill(0);
      for (const x of s) byHour[(new Date(x.timestamp).getUTCHours() + Math.round(lon / 15) + 24) % 24] += x.rx_bytes;
      return byHour;
    };
    for (const [lat, lon] of [[35.68, 139.69], [40.71, -74.01]] as const) {
      const h = mean(lon, lat);
      expect(h[13]).toBeGreaterThan(h[3] * 3);
    }
    const week = fleet.series("endpoint", ["ep-weekend"], "traffic", { start: Date.parse("2026-11-02T00:00:00Z"), end: Date.parse("2026-11-30T00:00:00Z") }, NOW + 20 * DAY)["ep-weekend"]!;
    const sum = (pred: (d: number) => boolean) => week.filter((x) => pred(new Date(x.timestamp).getUTCDay())).reduce((a, x) => a + x.rx_bytes, 0);
    expect(sum((d) => d === 0 || d === 6) / 2).toBeLessThan(sum((d) => d >= 1 && d <= 5) / 5 / 2);
  });

  it("RTT grows with the distance to the nearest PoP", () => {
    const near = fleet.wanHealth({ id: "cpe-near", kind: "cpe", lat: 50.1, lon: 8.7 }, "1d", NOW).filter((h) => h.RTT_ms > 0);
    const far = fleet.wanHealth({ id: "cpe-far", kind: "cpe", lat: -54.8, lon: -68.3 }, "1d", NOW).filter((h) => h.RTT_ms > 0);
    const avg = (xs: { RTT_ms: number }[]) => xs.reduce((a, x) => a + x.RTT_ms, 0) / xs.length;
    expect(avg(far)).toBeGreaterThan(avg(near) + 20);
  });
});

describe("outages", () => {
  it("every outage is a zero-health, full-loss, zero-traffic window in the series at the same time", () => {
    for (const r of ["1w", "3d", "1d"] as RangeName[]) {
      const d = deviceWithOutages(1, r);
      const w = fleet.window(r, NOW);
      const outages = fleet.outages(d, r, NOW);
      const health = fleet.wanHealth(d, r, NOW);
      const traffic = fleet.series("cpe", [d], "traffic", r, NOW)[d.id]!;
      const util = fleet.utilization(d, r, NOW);
      const metrics = fleet.nodeMetrics({ ...d, kind: "service_node" }, r, NOW);
      for (let i = 0; i < w.points; i++) {
        const a = w.first + i * w.step;
        const b = a + w.step;
        const cover = outages.reduce((s, o) => s + Math.max(0, Math.min(b, o.end) - Math.max(a, o.start)), 0) / w.step;
        if (cover >= 1) {
          expect(health[i]!.health).toBe(0);
          expect(health[i]!["Loss Rate"]).toBe(100);
          expect(traffic[i]!.rx_bytes).toBe(0);
          expect(traffic[i]!.tx_bytes).toBe(0);
          expect(util[i]!.rx_avg_util).toBe(0);
          expect(metrics[i]!.cpu_p).toBe(0);
          expect(metrics[i]!["rx.bytes"]).toBe(0);
        } else if (cover > 0) {
          expect(health[i]!.health).toBeLessThanOrEqual(100 * (1 - cover) + 1e-6);
          expect(health[i]!["Loss Rate"]).toBeGreaterThanOrEqual(100 * cover - 1e-6);
        } else {
          expect(health[i]!.health).toBeGreaterThan(50);
          expect(health[i]!["Loss Rate"]).toBeLessThan(10);
        }
      }
      // Outages last minutes to a couple of hours.
      for (const o of outages) {
        expect(o.end).toBeGreaterThan(o.start);
        expect(o.duration_s).toBeGreaterThanOrEqual(60);
        expect(o.duration_s).toBeLessThanOrEqual(2 * 3600);
      }
    }
  });

  it("a few outages a month, minutes to a couple of hours", () => {
    let count = 0;
    const devices = 40;
    for (let i = 0; i < devices; i++) count += fleet.outages(device(`cpe-rate-${i}`), { start: NOW - 30 * DAY, end: NOW }, NOW).length;
    expect(count / devices).toBeGreaterThan(1);
    expect(count / devices).toBeLessThan(6);
  });

  it("the uptime percentage is 1 − outage time / range, announced maintenance excluded", () => {
    const d = deviceWithOutages(2);
    const w = fleet.window("1w", NOW);
    const outages = fleet.outages(d, "1w", NOW);
    const end = Math.min(w.end, NOW);
    const down = outages.reduce((s, o) => s + Math.min(end, o.end) - Math.max(w.start, o.start), 0);
    expect(fleet.uptime(d, "1w", NOW)).toBeCloseTo((1 - down / (end - w.start)) * 100, 2);
    expect(fleet.connectionStatus(d, "1w", NOW).percent).toBe(fleet.uptime(d, "1w", NOW));

    // Announce maintenance over the first outage: it no longer counts, and it is marked announced.
    const first = outages[0]!;
    const maintenance = [{ start: first.start - HOUR, end: first.end + HOUR }];
    const events = { maintenance };
    const downOutside = down - (Math.min(end, first.end) - Math.max(w.start, first.start));
    const expected = (1 - downOutside / (end - w.start - (maintenance[0]!.end - maintenance[0]!.start))) * 100;
    expect(fleet.uptime(d, "1w", NOW, events)).toBeCloseTo(expected, 2);
    const withMaint = fleet.outages(d, "1w", NOW, { events });
    expect(withMaint[0]!.announced).toBe(true);
    expect(withMaint.slice(1).every((o) => !o.announced)).toBe(true);
  });

  it("history rows, connection status and route come from the same outages", () => {
    const d = deviceWithOutages(1);
    const outages = fleet.outages(d, "1w", NOW);
    const rows = fleet.outageHistory(d, "1w", NOW);
    for (const o of outages) {
      expect(rows).toContainEqual({ timestamp: o.start_time, status: "down", self_diagnosis: o.self_diagnosis, outage_id: o.outage_id });
      if (o.end_time) expect(rows.some((r) => r.status === "up" && r.timestamp === o.end_time)).toBe(true);
    }
    const cs = fleet.connectionStatus(d, "1w", NOW);
    expect(cs.history.filter((h) => h.status === "down").map((h) => h["@timestamp"]).sort()).toEqual(outages.map((o) => o.start_time).sort());
    const route = fleet.route(d, NOW);
    expect(route.down_timestamp_utc).toBe(outages[outages.length - 1]!.start_time);
    expect(route.up_hops.length).toBeGreaterThan(2);
    expect(route.down_hops).toEqual(outages[outages.length - 1]!.down_hops.map(({ hop, hostname, ip }) => ({ hop, hostname, ip })));
  });

  it("each outage carries a self-diagnosis matching its path: no down hops when the gateway was unreachable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      for (const o of fleet.outages(device(`cpe-cause-${i}`), { start: NOW - 30 * DAY, end: NOW }, NOW)) {
        seen.add(o.cause);
        if (o.cause === "gateway_unreachable") {
          expect(o.down_hops).toEqual([]);
          expect(o.gw_pingable).toBe("no");
        }
        if (o.cause === "upstream_routing_failure") {
          const last = o.down_hops[o.down_hops.length - 1]!;
          expect(o.self_diagnosis).toContain(`hop ${last.hop}`);
          expect(o.self_diagnosis).toContain(String(last.hostname));
        }
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
  });

  it("a reset takes the device down while it boots", () => {
    const d = device("cpe-reset");
    const at = NOW - 30 * MINUTE;
    const effect = fleet.resetEffect(d, at);
    const events = { resets: [at] };
    expect(fleet.isDown(d, at + 1000, events)).toBe(true);
    expect(fleet.isDown(d, Date.parse(effect.up_at), events)).toBe(fleet.isDown(d, Date.parse(effect.up_at)));
    expect(fleet.outages(d, "1h", NOW, { events }).some((o) => o.cause === "device_reset")).toBe(true);
  });

  it("the post-mortem is written from the outage's facts and streamed in chunks", async () => {
    const d = deviceWithOutages(1);
    const o = fleet.outages(d, "1w", NOW)[0]!;
    const affected = { app_services: ["as-1"], endpoints: ["ep-1", "ep-2"] };
    const pm = fleet.postMortem(d, o.outage_id, NOW, { affected, name: "Paris office" })!;
    expect(pm.markdown).toContain("# Post-mortem: outage of Paris office");
    expect(pm.markdown).toContain(o.self_diagnosis);
    expect(pm.markdown).toContain(o.start_time);
    if (o.recovery) expect(pm.markdown).toContain(o.recovery);
    expect(pm.markdown).toContain("ep-2");
    const parts: string[] = [];
    for await (const c of pm.stream) parts.push(c);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join("")).toBe(pm.markdown);
    expect(fleet.postMortem(d, "out-other-1", NOW)).toBeNull();
  });
});

describe("flows", () => {
  it("netflows add up to the endpoint's traffic, and top talkers rank endpoints by those bytes", () => {
    const eps = ["ep-f1", "ep-f2", "ep-f3"];
    for (const r of ["1h", "1d", "1w"] as RangeName[]) {
      const w = fleet.window(r, NOW);
      const talkers = fleet.topTalkers(eps, r, NOW);
      expect(talkers.map((t) => t.total_bytes)).toEqual([...talkers.map((t) => t.total_bytes)].sort((a, b) => b - a));
      for (const ep of eps) {
        const flows = fleet.netflows(ep, r, NOW);
        const series = fleet.netStats([ep], r, NOW)[ep]!;
        const tx = flows.reduce((s, f) => s + f.tx_bytes, 0);
        const rx = flows.reduce((s, f) => s + f.rx_bytes, 0);
        const t = talkers.find((x) => x.epid === ep)!;
        expect(tx).toBe(t.tx_bytes);
        expect(rx).toBe(t.rx_bytes);
        // The series' bytes/s × step give the same total (to rounding).
        expect(Math.abs(series.reduce((s, x) => s + (x.rx_bytes * w.step) / 1000, 0) - rx)).toBeLessThan(w.points * (w.step / 1000));
        for (const f of flows) {
          expect(f.src_addr).toMatch(/^10\.\d+\.\d+\.\d+$/);
          expect(f.dst_addr).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
          expect(f.src_port).toBeGreaterThanOrEqual(32768);
          expect(Date.parse(f.end_time)).toBeGreaterThan(Date.parse(f.start_time));
        }
      }
    }
    expect(fleet.endpointSessions("ep-f1", NOW).length).toBeGreaterThan(0);
  });

  it("an app service with endpoints carries their traffic", () => {
    const as = fleet.netStats([{ id: "as-sum", kind: "app_service", members: ["ep-f1", "ep-f2"] }], "1d", NOW)["as-sum"]!;
    const eps = fleet.netStats(["ep-f1", "ep-f2"], "1d", NOW);
    for (let i = 0; i < as.length; i++) expect(Math.abs(as[i]!.rx_bytes - eps["ep-f1"]![i]!.rx_bytes - eps["ep-f2"]![i]!.rx_bytes)).toBeLessThanOrEqual(1);
  });

  it("traffic through a device stops while the device is down", () => {
    const d = deviceWithOutages(1);
    const o = fleet.outages(d, "1w", NOW).find((x) => x.duration_s >= 3600) ?? fleet.outages(d, "1w", NOW)[0]!;
    const range = { start: o.start - HOUR, end: o.end + HOUR };
    const ep = fleet.netStats([{ id: "ep-via", kind: "endpoint", via: [d] }], range, NOW)["ep-via"]!;
    const alone = fleet.netStats(["ep-via"], range, NOW)["ep-via"]!;
    const w = fleet.window(range, NOW);
    ep.forEach((s, i) => {
      const a = w.first + i * w.step;
      if (a >= o.start && a + w.step <= o.end) expect(s.rx_bytes).toBe(0);
      if (a + w.step <= o.start || a >= o.end) expect(s.rx_bytes).toBe(alone[i]!.rx_bytes);
    });
    expect(ep.some((s) => s.rx_bytes === 0)).toBe(true);
  });

  it("application visibility shares the device's bytes among real applications, Zipf-like", () => {
    const d = device("cpe-apps");
    const v = fleet.appVisibility(d, "1w", NOW);
    const w = fleet.window("1w", NOW);
    const tr = fleet.series("cpe", [d], "traffic", "1w", NOW)[d.id]!;
    const bytes = tr.reduce((s, x) => s + ((x.rx_bytes + x.tx_bytes) * w.step) / 1000, 0);
    expect(Math.abs(v.total_bytes - bytes) / bytes).toBeLessThan(0.001);
    expect(v.sessions.reduce((s, x) => s + x.bytes, 0)).toBe(v.total_bytes);
    expect(v.sessions.reduce((s, x) => s + x.hits, 0)).toBe(v.total_visits);
    expect(v.total_apps).toBe(v.sessions.length);
    expect(v.top_app_by_bytes[0]!.bytes).toBeGreaterThan(v.top_app_by_bytes[4]!.bytes * 2);
    for (const s of v.sessions) {
      expect(["good", "not good"]).toContain(s.performance);
      expect(s.port).toBeGreaterThan(0);
    }
  });
});

describe("DDoS", () => {
  it("attacks are judged against the device's thresholds", () => {
    const d = device("cpe-ddos");
    const range = { start: NOW - 60 * DAY, end: NOW };
    const on = fleet.ddos(d, range, NOW, { mitigation: true, blockMalicious: true });
    expect(on.attacks.length).toBeGreaterThan(3);
    const th = { flood_tcp_syn: { alert_threshold: 200, block_threshold: 2000, max_threshold: 5000 }, flood_udp: { alert_threshold: 1000, block_threshold: 5000, max_threshold: 5000 }, flood_icmp: { alert_threshold: 100, block_threshold: 3000, max_threshold: 3000 } };
    const key = { "TCP SYN flood": "flood_tcp_syn", "UDP flood": "flood_udp", "ICMP flood": "flood_icmp" } as const;
    for (const a of on.attacks) {
      const t = th[key[a.attack_name as keyof typeof key]];
      expect(a.attack_count).toBeGreaterThanOrEqual(t.alert_threshold);
      expect(a.status).toBe(a.attack_count >= t.block_threshold ? "mitigated" : "detected");
      expect(a.attack_throughput).toBeLessThanOrEqual(200e6);
    }
    const off = fleet.ddos(d, range, NOW, { mitigation: false });
    expect(off.attacks.every((a) => a.status === "detected")).toBe(true);
    expect(off.blocked.locations).toEqual([]);
    const high = { alert_threshold: 1e9, block_threshold: 1e9, max_threshold: 1e9 };
    expect(fleet.ddos(d, range, NOW, { thresholds: { flood_tcp_syn: high, flood_udp: high, flood_icmp: high } }).attacks).toEqual([]);
    for (const l of on.blocked.locations) for (const ip of l.ips) expect(ip.malicious_score).toBeGreaterThanOrEqual(70);
    expect(on.inbound.node.total_ips).toBe(on.inbound.locations.reduce((s, l) => s + l.ips.length, 0));
    expect(on.mitigation).toHaveLength(fleet.window(range, NOW).points);
  });
});

describe("device operations", () => {
  it("ping prints like iputils ping, and fails while the device is down", () => {
    const d = device("cpe-ping");
    const out = fleet.pingOutput(d, "8.8.8.8", NOW);
    expect(out).toMatch(/^PING 8\.8\.8\.8 \(8\.8\.8\.8\) 56\(84\) bytes of data\.\n/);
    expect(out).toMatch(/64 bytes from 8\.8\.8\.8: icmp_seq=\d ttl=\d+ time=[\d.]+ ms/);
    expect(out).toMatch(/--- 8\.8\.8\.8 ping statistics ---\n4 packets transmitted, \d received, \d+% packet loss, time \d+ms\nrtt min\/avg\/max\/mdev = [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ ms/);
    const o = fleet.outages(deviceWithOutages(1), "1w", NOW)[0]!;
    const down = fleet.pingOutput(deviceWithOutages(1), "1.1.1.1", o.start + 1000);
    expect(down).toContain("Destination Host Unreachable");
    expect(down).toContain("100% packet loss");
  });

  it("traceroute prints like Linux traceroute", () => {
    const out = fleet.tracerouteOutput(device("cpe-tr"), "1.1.1.1", NOW);
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe("traceroute to 1.1.1.1 (1.1.1.1), 30 hops max, 60 byte packets");
    expect(lines[1]).toMatch(/^ 1 {2}\S+ \(\d+\.\d+\.\d+\.\d+\) {2}[\d.]+ ms {2}[\d.]+ ms {2}[\d.]+ ms$/);
    expect(lines[lines.length - 1]).toMatch(/one\.one\.one\.one \(1\.1\.1\.1\)/);
  });

  it("traceroute and ping to an IPv6 address go over IPv6 (issue 63 item 27)", () => {
    const out = fleet.tracerouteOutput(device("cpe-tr6"), "2606:4700:4700::1111", NOW);
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe("traceroute to 2606:4700:4700::1111 (2606:4700:4700::1111), 30 hops max, 80 byte packets");
    for (const line of lines.slice(1)) {
      if (line.includes("* * *")) continue;
      const ip = /\(([^)]+)\)/.exec(line)![1]!;
      expect(isIPv6(ip), line).toBe(true);
    }
    expect(lines[lines.length - 1]).toContain("(2606:4700:4700::1111)");
    const ping = fleet.pingOutput(device("cpe-tr6"), "2606:4700:4700::1111", NOW);
    expect(ping.split("\n")[0]).toBe("PING 2606:4700:4700::1111 (2606:4700:4700::1111) 56 data bytes");
    expect(ping).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
  });

  it("a speed test runs for several seconds and ends near the device's speed", () => {
    const d = device("cpe-speed");
    const start = fleet.startSpeedTest(d, "ookla", NOW);
    const length = Date.parse(start.finishes_at) - NOW;
    expect(length).toBeGreaterThanOrEqual(5000);
    expect(fleet.speedTestResult(d, "ookla", NOW, NOW + 1000).status).toBe("running");
    const done = fleet.speedTestResult(d, "ookla", NOW, NOW + length);
    expect(done.status).toBe("completed");
    expect(done.data!.download_speed_mbps).toBeGreaterThan(100);
    expect(done.data!.download_speed_mbps).toBeLessThanOrEqual(200);
    expect(done.data!.upload_speed_mbps).toBeLessThanOrEqual(200);
    expect(done.data!.ping_latency_ms).toBeGreaterThan(0);
    expect(done.data!.result_url).toMatch(/^https:\/\//);
  });

  it("the activation test emits progress messages over tens of seconds and ends with a report", async () => {
    const d = device("cpe-act");
    let clock = NOW;
    const waits: number[] = [];
    const messages = [];
    for await (const m of fleet.activationTest(d, { peer_ip: "198.18.12.7" }, NOW, { now: () => clock, sleep: async (t) => void (waits.push(t), (clock += t)) })) messages.push(m);
    const total = clock - NOW;
    expect(total).toBeGreaterThan(20_000);
    expect(total).toBeLessThan(120_000);
    expect(messages.length).toBeGreaterThan(5);
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
    const last = messages[messages.length - 1]!;
    expect(last.status).toBe("completed");
    expect(last.report!.throughput.map((t) => t.frame_size)).toEqual([64, 128, 256, 512, 1024, 1280, 1518]);
    expect(last.report!.delay.length).toBe(7);
    expect(last.report!.link_speed.length).toBeGreaterThan(0);
    for (const t of last.report!.throughput) expect(t.throughput_mbps).toBeLessThanOrEqual(200);
  });

  it("a latency measurement reflects the distance to the PoP, and fails while the object is down", () => {
    const near = fleet.measureLatency({ id: "ep-lat", kind: "endpoint", lat: 50.1, lon: 8.7 }, NOW);
    const far = fleet.measureLatency({ id: "ep-lat", kind: "endpoint", lat: -54.8, lon: -68.3 }, NOW);
    expect(near.received).toBeGreaterThan(7);
    expect(far.avg_ms!).toBeGreaterThan(near.avg_ms! + 20);
    expect(near.min_ms!).toBeLessThanOrEqual(near.avg_ms!);
    const d = deviceWithOutages(1);
    const o = fleet.outages(d, "1w", NOW)[0]!;
    expect(fleet.measureLatency(d, o.start + 1000)).toMatchObject({ received: 0, loss_pct: 100, avg_ms: null });
  });

  it("a user agent is up in its user's working hours and authenticates every few hours", () => {
    // Paris (UTC+1 by longitude): Wednesday 2026-11-18.
    const ua = { id: "ua-1", kind: "user_agent", lat: 48.86, lon: 2.35 };
    const noon = fleet.userAgentStatus(ua, Date.parse("2026-11-18T11:00:00Z"));
    expect(noon.op_state).toBe("up");
    expect(Date.parse(noon.op_state_change_at)).toBeLessThanOrEqual(Date.parse("2026-11-18T11:00:00Z"));
    expect(Date.parse(noon.last_auth_time)).toBeGreaterThanOrEqual(Date.parse(noon.op_state_change_at));
    const night = fleet.userAgentStatus(ua, Date.parse("2026-11-18T23:00:00Z"));
    expect(night.op_state).toBe("down");
    expect(night.op_state_change_at.slice(0, 10)).toBe("2026-11-18");
    const sunday = fleet.userAgentStatus(ua, Date.parse("2026-11-22T11:00:00Z"));
    expect(sunday.op_state).toBe("down");
    // The last session was Friday's.
    expect(sunday.op_state_change_at.slice(0, 10)).toBe("2026-11-20");
    expect(["success", "failed"]).toContain(sunday.last_auth_status);
  });

  it("peer regions are the provider's PoPs, each with a test peer in its own block", () => {
    const regions = fleet.peerRegions();
    expect(regions.length).toBeGreaterThan(10);
    for (const r of regions) expect(r.peer_ip).toMatch(/^198\.18\.\d+\.250$/);
    expect(new Set(regions.map((r) => r.peer_region)).size).toBe(regions.length);
  });

  it("diagnostics, LAN interfaces and health checks describe the device as it is", () => {
    const d = deviceWithOutages(1);
    const o = fleet.outages(d, "1w", NOW)[0]!;
    const diag = fleet.diagnostics(d, NOW);
    expect(JSON.parse(JSON.stringify(diag))).toMatchObject({ node_id: d.id, wan: { interface: "wan0" } });
    expect(fleet.diagnostics(d, o.start + 1000).op_state).toBe("down");
    const lan = fleet.lanInterfaces(d, NOW, { interfaceResets: { eth1: NOW - 1000 } });
    expect(lan.find((l) => l.intf === "eth1")!.operational_state).toBe("DOWN");
    expect(fleet.lanInterfaces(d, NOW + 10_000, { interfaceResets: { eth1: NOW - 1000 } }).find((l) => l.intf === "eth1")!.operational_state).toBe("UP");
    expect(fleet.healthCheck(d, o.start + 1000).status).toBe("unreachable");
    expect(["healthy", "degraded"]).toContain(fleet.healthCheck(d, NOW).status);
  });
});
