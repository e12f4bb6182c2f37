import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp } from "../app.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { deviceTestEvents, deviceTests } from "../db/schema.ts";
import { closeTestWaker, listensForTests, notifyTest, waitForTest } from "../domain/device-test-waker.ts";
import { advance, startTest, testReport } from "../domain/device-tests.ts";
import { SAT_PERFORMANCE_FROM_MS } from "../fleet/index.ts";
import { seedDevices } from "../domain/devices-seed.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

/** A test of `performanceS` (default 15 min) started this long ago is over in real time, with 5 s to spare. */
const agoToBeOver = (performanceS = 900) => SAT_PERFORMANCE_FROM_MS + performanceS * 1000 + 5000;

/** The next whole hour (UTC, ISO): announcements start from now on. */
const nextHour = (plus = 1) => new Date((Math.floor(Date.now() / 3_600_000) + plus) * 3_600_000).toISOString();

// What both kinds answer (spec 3 §7.1 node calls), the activation test (ITU-T Y.1564), its
// server-sent event stream (one message per step; from any instance) and its report (JSON, PDF).

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

async function device(a: TestAccount, kind: "cpe" | "metro") {
  const r =
    kind === "cpe"
      ? await post(a, "create_cpe", { cpe_name: "Sydney branch", prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney NSW 2000", latitude: -33.8675, longitude: 151.2099 })
      : await post(a, "create_metro", { metro_name: "Toronto EVC", prod_code: "BN-METRO-1000F", site_address: "100 King St W, Toronto", latitude: 43.6487, longitude: -79.3817, wan_cir_mbps: 200, wan_eir_mbps: 50 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const id: string = r.body.cpe_id ?? r.body.metro_id;
  return id;
}

/** Reads a whole SSE answer: its events' data. */
async function readStream(res: Response) {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.includes("data:"))
    .map((b) => ({ id: /^id: ?(.*)$/m.exec(b)?.[1], data: JSON.parse(/^data: ?(.*)$/m.exec(b)![1]!) }));
}
const stream = (a: TestAccount, kind: "cpe" | "metro", id: string, sseId: string, lastEventId?: string, app = p.app) =>
  app.fetch(
    new Request(`http://platform.test/api/v1/check-test-status/${kind}?${kind}_id=${id}&sse_id=${sseId}`, {
      headers: { authorization: `Bearer ${a.token}`, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    }),
  );

describe("node calls of both kinds", () => {
  it("ping and traceroute output, diagnostics as a JSON string, LAN ports and their reset, device reset", async () => {
    const a = await p.newAccount();
    for (const kind of ["cpe", "metro"] as const) {
      const id = await device(a, kind);
      const ping = await get(a, "run_ping", { node_id: id, ip_address: "8.8.8.8" });
      expect(ping.body.result).toMatch(/^PING 8\.8\.8\.8 \(8\.8\.8\.8\) 56\(84\) bytes of data\./);
      expect(ping.body.result).toMatch(/--- 8\.8\.8\.8 ping statistics ---/);
      expect((await get(a, "run_traceroute", { node_id: id, ip_address: "1.1.1.1" })).body.result).toMatch(/^traceroute to 1\.1\.1\.1 \(1\.1\.1\.1\), 30 hops max/);
      const wrong = await get(a, "run_ping", { node_id: id, ip_address: "8.8.8" });
      expect(wrong.status).toBe(422);
      // The Ping and Traceroute dialog's sentence, for a blank address too (devices-forms).
      expect(JSON.stringify(wrong.body)).toContain("Enter a valid IP address.");
      const diag = await get(a, "run_health_check", { node_id: id });
      expect(diag.status).toBe(200);
      if (diag.body !== "") expect(JSON.parse(diag.body)).toMatchObject({ node_id: id, wan: { interface: "wan0" } });
      const ports = (await get(a, `get_${kind}_lan_interfaces`, { [`${kind}_id`]: id })).body;
      expect(ports[0]).toMatchObject({ name: "lan1", intf: kind === "cpe" ? "eth1" : expect.stringMatching(/^(ge|sfp)1$/) });
      expect((await post(a, "reset_interface", { node_id: id, interface: "" })).body.detail[0].msg).toBe("Please choose an interface first.");
      expect((await post(a, "reset_interface", { node_id: id, interface: "eth9" })).status).toBe(400);
      expect((await post(a, "reset_interface", { node_id: id, interface: "lan1" })).body.detail).toBe("Interface reset.");
      expect((await get(a, `get_${kind}_lan_interfaces`, { [`${kind}_id`]: id })).body[0].operational_state).toBe("DOWN");
      const mon = (await get(a, "get_device_monitoring", { node_id: id })).body;
      expect(mon).toMatchObject({ node_id: id, range: "1d", uptime_percent: expect.any(Number) });
      expect(mon.health.length).toBe(144);
      expect(mon.utilization.length).toBe(144);
      expect((await get(a, "get_device_monitoring", { node_id: id, range: "2d" })).status).toBe(422);
      const reset = await post(a, "reset_node", { node_id: id, hard: true });
      expect(reset.body).toMatchObject({ detail: "Device reset." });
      // Rebooting: down now, so it answers no diagnostics and its ping fails.
      expect((await get(a, "run_health_check", { node_id: id })).body).toBe("");
      expect((await get(a, "run_ping", { node_id: id, ip_address: "8.8.8.8" })).body.result).toContain("100% packet loss");
      expect((await post(a, "reset_node", { node_id: id, hard: false })).status).toBe(422);
    }
    expect((await get(a, "run_ping", { node_id: "sn-1", ip_address: "8.8.8.8" })).status).toBe(404);
  });

  it("a new registration token replaces the old one; 404 and 403 as everywhere", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const id = await device(a, "metro");
    const first = (await post(a, "generate_node_token", { node_id: id })).body;
    expect(first).toMatchObject({ node_id: id, detail: "Registration token generated." });
    const second = (await post(a, "generate_node_token", { node_id: id })).body;
    expect((await p.call("POST", "register_node", { body: { token: first.token } })).status).toBe(401);
    expect((await p.call("POST", "register_node", { body: { token: second.token } })).body).toMatchObject({ node_id: id });
    expect((await get(a, "get_metro_detail", { metro_id: id })).body).toMatchObject({ state: "registered", token_issued_at: expect.any(String) });
    expect((await post(b, "generate_node_token", { node_id: id })).status).toBe(404);
    expect((await get(b, "run_health_check", { node_id: id })).status).toBe(404);
    expect((await get(b, "get_device_monitoring", { node_id: id })).status).toBe(404);
    expect((await post(ro, "generate_node_token", { node_id: id })).status).toBe(403);
    expect((await post(ro, "reset_node", { node_id: id, hard: true })).status).toBe(403);
    expect((await post(ro, "start_metro_test", { metro_id: id, peer_ip: "192.0.2.1" })).status).toBe(403);
  });
});

describe("the activation test (ITU-T Y.1564)", () => {
  it("needs a peer: 'Please enter peer IP address first.'; a metro also takes a MAC and VLAN", async () => {
    const a = await p.newAccount();
    const cpe = await device(a, "cpe");
    const metro = await device(a, "metro");
    expect((await post(a, "start_cpe_test", { cpe_id: cpe })).body.detail[0].msg).toBe("Please enter peer IP address first.");
    expect((await post(a, "start_metro_test", { metro_id: metro })).body.detail[0].msg).toBe("Please enter peer IP address first.");
    const l2 = await post(a, "start_metro_test", { metro_id: metro, peer_mac: "00:11:22:33:44", vlan_id: 5000 });
    expect(l2.body.detail.map((x: Row) => x.msg)).toEqual(["Peer MAC must be a MAC address (00:11:22:33:44:55)", "VLAN id must be a whole number from 1 to 4094."]);
    // devices-forms: an L2 peer left blank and a criterion out of range say the dialog's words.
    const blank = await post(a, "start_metro_test", { metro_id: metro, peer_mac: "", vlan_id: "", flr_max_pct: 101 });
    expect(blank.body.detail.map((x: Row) => x.msg)).toEqual(["Frame loss ratio must be 0–100.", "Please enter the peer MAC address.", "Please enter the VLAN id."]);
    const ok = await post(a, "start_metro_test", { metro_id: metro, peer_mac: "00:11:22:33:44:55", vlan_id: 210 });
    expect(ok.body).toMatchObject({ status: "Activation test started", sse_id: expect.stringMatching(/^sse-/) });
    expect((await post(a, "start_metro_test", { metro_id: metro, peer_ip: "192.0.2.1" })).status).toBe(409);
    expect((await get(a, "get_cpe_test_report", { cpe_id: cpe })).body.detail).toBe("There is no test data.");
    expect((await get(a, "get_cpe_test_report_pdf", { cpe_id: cpe })).status).toBe(404);
  });

  it("one test at a time per device: of concurrent starts exactly one runs, the others are refused (409)", async () => {
    const a = await p.newAccount();
    for (const kind of ["cpe", "metro"] as const) {
      const id = await device(a, kind);
      const started = await Promise.all(Array.from({ length: 8 }, () => post(a, kind === "cpe" ? "start_cpe_test" : "start_metro_test", { [`${kind}_id`]: id, peer_ip: "192.0.2.1" })));
      expect(started.map((r) => r.status).sort(), kind).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      const { sql } = await import("drizzle-orm");
      const rows = await p.deps.db.execute(sql`select count(*)::int as n from device_tests where device_id = ${id}`);
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n, kind).toBe(1);
    }
  });

  it("streams one message per step, resumes after Last-Event-ID, and reports the verdicts (JSON and PDF)", async () => {
    const a = await p.newAccount();
    for (const kind of ["cpe", "metro"] as const) {
      const id = await device(a, kind);
      // Started 15 min and 38 s ago (the checks and the steps last 33 s, the performance test 15 min by default): every message is due.
      const started = await startTest(p.deps, a.accountId, kind, id, { peer_ip: "192.0.2.10" }, undefined, Date.now() - agoToBeOver());
      const res = await stream(a, kind, id, started.sse_id);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const events = await readStream(res);
      expect(events.map((e) => e.data.seq)).toEqual(events.map((_, i) => i + 1));
      const last = events[events.length - 1]!.data;
      if (last.status === "failed") {
        // The device happened to be down (seeded outage): the test fails at once, as a real one.
        expect(last.message).toBe("The link is down: the test cannot run");
        continue;
      }
      const steps = events.filter((e) => e.data.step).map((e) => e.data.step.step);
      expect(steps).toEqual(["cir_25", "cir_50", "cir_75", "cir_100", "cir_eir", "overshoot"]);
      expect(last).toMatchObject({ status: "completed", progress: 100, result: expect.stringMatching(/^(pass|fail)$/), performance: { duration_s: 900 } });
      // The service performance test reported each minute; in real time the steps are its first few percent.
      const minutes = events.filter((e) => e.data.message.startsWith("Service performance test at CIR:"));
      expect(minutes.map((e) => e.data.message.split(",")[0])).toEqual(Array.from({ length: 14 }, (_, i) => `Service performance test at CIR: ${i + 1} min of 15 min`));
      expect(events.find((e) => e.data.step?.step === "overshoot")!.data.progress).toBe(3);
      expect(minutes[6]!.data.progress).toBe(48);
      const offered = events.filter((e) => e.data.step).map((e) => e.data.step.offered_mbps);
      const cir = kind === "cpe" ? 500 : 200;
      const cirEir = kind === "cpe" ? 500 : 250;
      expect(offered).toEqual([cir * 0.25, cir * 0.5, cir * 0.75, cir, cirEir, cirEir * 1.25]);
      // Resumed after the 5th message: the rest only.
      const resumed = await readStream(await stream(a, kind, id, started.sse_id, "5"));
      expect(resumed[0]!.data.seq).toBe(6);
      expect(resumed.length).toBe(events.length - 5);
      const report = (await get(a, `get_${kind}_test_report`, { [`${kind}_id`]: id })).body;
      expect(report).toMatchObject({ device_id: id, status: "completed", cir_mbps: cir, result: last.result, criteria: { ftd_max_ms: 10, fdv_max_ms: 5, flr_max_pct: 0.01 } });
      expect(report.configuration).toHaveLength(6);
      // Ran in real time; a link speed sample per step and per minute of the performance test.
      expect(report).toMatchObject({ performance_duration_s: 900, accelerated: null });
      expect(report.link_speed).toHaveLength(6 + 15);
      expect(report.link_speed[0]).toEqual({ timestamp: events.find((e) => e.data.step)!.data.timestamp, "tx.mbps": cir * 0.25, "rx.mbps": expect.any(Number), phase: "25 % of CIR" });
      expect(report.link_speed[20]).toMatchObject({ "tx.mbps": cir, phase: "Service performance test, 15 min of 15 min" });
      expect((await get(a, kind === "cpe" ? "get_cpe_detail" : "get_metro_detail", { [`${kind}_id`]: id })).body.test_status).toBe(last.result === "pass" ? "passed" : "failed");
      const pdf = await p.app.fetch(new Request(`http://platform.test/api/v1/get_${kind}_test_report_pdf?${kind}_id=${id}`, { headers: { authorization: `Bearer ${a.token}` } }));
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-disposition")).toContain(`activation-test-${id}.pdf`);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      const text = pdfText(bytes);
      if (text !== null) {
        for (const words of ["Service Activation Test Report", "25 % of CIR", "Overshoot, 125 % of CIR + EIR", "Service performance test", `Overall verdict: ${last.result.toUpperCase()}`, "MEG level", "Link speed", "15 min of 15 min"]) expect(text).toContain(words);
        expect(text).toMatch(/Service performance test\s+15 min\b/);
        expect(text).not.toMatch(/accelerated/i);
      }
    }
  }, 120_000);

  it("is another account's: 404 on the stream and the report", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const id = await device(a, "cpe");
    const started = await startTest(p.deps, a.accountId, "cpe", id, { peer_ip: "192.0.2.10" }, undefined, Date.now() - agoToBeOver());
    expect((await stream(b, "cpe", id, started.sse_id)).status).toBe(404);
    expect((await stream(a, "metro", id, started.sse_id)).status).toBe(404);
    expect((await get(b, "get_cpe_test_report", { cpe_id: id })).status).toBe(404);
  });

  it("FLEET_TEST_SPEED and FLEET_SERVICE_PERFORMANCE_SPEED: a 15-minute test over in seconds, its measurements the same, its report saying it was accelerated", async () => {
    const a = await p.newAccount();
    const id = await device(a, "metro");
    const fast: PlatformDeps = { ...p.deps, config: { ...p.deps.config, fleetTestSpeed: 4, fleetPerformanceSpeed: 300 } };
    // The checks and steps 4 times faster (33 s → 8.25 s), the 15-minute performance test 300 times (3 s).
    const length = SAT_PERFORMANCE_FROM_MS / 4 + 900_000 / 300;
    expect(length).toBe(11_250);
    // Started 20 s ago: over, though in real time it would have 15 min to go.
    const startedAt = Date.now() - 20_000;
    const started = await startTest(fast, a.accountId, "metro", id, { peer_ip: "192.0.2.10" }, undefined, startedAt);
    expect(started.performance_duration_s).toBe(900);
    // Another instance configured otherwise replays the test at the pace it started with.
    expect(await advance(p.deps, started.sse_id)).toBeNull();
    const report = await testReport(p.deps, a.accountId, "metro", id);
    const took = Date.parse(report.finished_at!) - Date.parse(report.started_at);
    expect(report.accelerated).toEqual({ configuration: 4, performance: 300 });
    if (report.status === "failed") {
      // The device happened to be down (seeded outage): it fails after the link check, 3 s / 4.
      expect(took).toBe(750);
      return;
    }
    expect(report.status).toBe("completed");
    expect(took).toBe(length);
    expect(report.configuration).toHaveLength(6);
    // The performance test still measured its 15 simulated minutes, sampled each simulated minute.
    expect(report.performance?.duration_s).toBe(900);
    expect(report.link_speed).toHaveLength(6 + 15);
    // The report says so plainly.
    const pdf = await p.app.fetch(new Request(`http://platform.test/api/v1/get_metro_test_report_pdf?metro_id=${id}`, { headers: { authorization: `Bearer ${a.token}` } }));
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    if (text !== null) {
      const flat = text.replace(/\s+/g, " ");
      expect(flat).toContain("Accelerated test: the simulated network ran this test faster than real time");
      expect(flat).toContain("the 15 min service performance test 300 times faster (it took 3 s)");
    }
    // In real time, the same start would still be running.
    const other = await device(a, "metro");
    const slow = await startTest(p.deps, a.accountId, "metro", other, { peer_ip: "192.0.2.10" }, undefined, startedAt);
    const next = await advance(p.deps, slow.sse_id);
    const slowReport = await get(a, "get_metro_test_report", { metro_id: other });
    if (next !== null) expect(slowReport.status).toBe(404); // no finished test yet
  });

  it("offers the service performance test durations of ITU-T Y.1564 only: 15 min (default), 2 h, 24 h", async () => {
    const a = await p.newAccount();
    const cpe = await device(a, "cpe");
    const metro = await device(a, "metro");
    const message = "Service performance test duration must be one of 900, 7200, 86400 seconds (15 min, 2 h, 24 h)";
    for (const bad of [20, 600, 3600, "900", 900.5, null]) {
      const r = await post(a, "start_cpe_test", { cpe_id: cpe, peer_ip: "192.0.2.1", performance_duration_s: bad });
      expect(r.status, String(bad)).toBe(422);
      expect(r.body.detail.map((x: Row) => x.msg), String(bad)).toEqual([message]);
    }
    const started = await post(a, "start_metro_test", { metro_id: metro, peer_ip: "192.0.2.1", performance_duration_s: 7200 });
    expect(started.body).toMatchObject({ status: "Activation test started", performance_duration_s: 7200 });
    const { sql } = await import("drizzle-orm");
    const rows = await p.deps.db.execute(sql`select performance_s, configuration_speed, performance_speed from device_tests where sse_id = ${started.body.sse_id}`);
    expect((rows as unknown as { rows: Row[] }).rows[0]).toEqual({ performance_s: 7200, configuration_speed: 1, performance_speed: 1 });
    // The first message says what was chosen.
    const [first] = await p.deps.db.select({ data: deviceTestEvents.data }).from(deviceTestEvents).where(eq(deviceTestEvents.sseId, started.body.sse_id));
    expect(first?.data.message).toBe("Service activation test (ITU-T Y.1564) started towards 192.0.2.1: the service configuration test, then a 2 h service performance test");
    // A 24-hour test started a day ago: done, sampled every hour.
    const day = await startTest(p.deps, a.accountId, "cpe", cpe, { peer_ip: "192.0.2.10" }, { performanceS: 86_400 }, Date.now() - agoToBeOver(86_400));
    expect(day.performance_duration_s).toBe(86_400);
    const report = await testReport(p.deps, a.accountId, "cpe", cpe);
    expect(report.performance_duration_s).toBe(86_400);
    if (report.status === "failed") return; // down at the start (seeded outage)
    expect(report.performance?.duration_s).toBe(86_400);
    expect(report.link_speed.map((x) => x.phase).slice(6, 8)).toEqual(["Service performance test, 1 h of 24 h", "Service performance test, 2 h of 24 h"]);
    expect(report.link_speed).toHaveLength(6 + 24);
  });
});

describe("malformed payloads of every change", () => {
  it("get a 4xx, never a 500", async () => {
    const a = await p.newAccount();
    const cpe = await device(a, "cpe");
    const metro = await device(a, "metro");
    const iam = await p.newIamUser(a, "admin");
    const thresholds = { alert_threshold: 1, block_threshold: 2, max_threshold: 3 };
    const cases: { call: string; valid: Record<string, unknown>; ok?: (m: MalformedPayload) => boolean; query?: Record<string, string> }[] = [
      { call: "update_cpe_info", valid: { cpe_id: cpe, cpe_name: "n", site_address: "s", provider_service_id: "p", client_circuit_id: "c", ping_dns_ip: "1.1.1.1", ping_email_notification: true, ping_webhook_notification: false, ping_gw_ip: "1.0.0.1" }, ok: validVariants({ emptyAllowed: ["provider_service_id", "client_circuit_id", "ping_dns_ip", "ping_gw_ip"] }) },
      { call: "update_cpe_network_info", valid: { cpe_id: cpe, mode: "ROUTER", wan_addressing: "static", wan_cidr: "192.0.2.2/29", wan_gateway: "192.0.2.1", dns_servers: "1.1.1.1", lan_cidr: "10.0.0.1/24" }, ok: validVariants({ optional: ["dns_servers"], emptyAllowed: ["dns_servers"] }) },
      { call: "cpe_assign_entity", valid: { cpe_id: cpe, new_entity_name: iam.entityName } },
      { call: "set_cpe_scan_interval", valid: { cpe_id: cpe, scan_interval: 5 } },
      { call: "update_cpe_ip_monitor_target", valid: { cpe_id: cpe, ip_monitor_target: "9.9.9.9" } },
      { call: "configure_perf_test_schedule", valid: { cpe_id: cpe, peer_region: "lhr", hour_of_day: 3, enable: true } },
      { call: "update_cpe_shipping_info", valid: { cpe_id: cpe, tracking_number: "1Z" }, ok: validVariants({ emptyAllowed: ["tracking_number"] }) },
      { call: "start_cpe_speedtest_cli", valid: { cpe_id: cpe, test_type: "ookla" } },
      { call: "set_cpe_denial_of_service_thresholds", valid: { tcp_syn_flood_thresholds: thresholds, udp_thresholds: thresholds, icmp_thresholds: thresholds }, query: { cpe_id: cpe } },
      { call: "edit_oam", valid: { metro_id: metro, loopback_enabled: true, ccp_enabled: true, ccm_interval: "1s", md_name: "MD", md_level: 3, md_association: "MA", mep_id: 5, vlan_id: 100 } },
      { call: "update_metro_info", valid: { metro_id: metro, metro_name: "m", prod_code: "BN-METRO-100", wan_cir_mbps: 10 }, ok: (m) => validVariants({ optional: ["wan_cir_mbps"] })(m) || m.name === 'field "wan_cir_mbps": null' },
      { call: "start_metro_test", valid: { metro_id: metro, peer_mac: "00:11:22:33:44:55", vlan_id: 7 } },
      { call: "metro_add_announcement", valid: { metro_id: metro, start_time: nextHour(), duration: 1 } },
      { call: "reset_interface", valid: { node_id: metro, interface: "lan1" } },
      { call: "reset_node", valid: { node_id: metro, hard: true } },
      { call: "generate_node_token", valid: { node_id: metro } },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      for (const m of malformedPayloads(c.valid)) {
        if (c.ok?.(m) || validVariants({})(m)) continue;
        const r = await p.call("POST", c.call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType, query: c.query });
        if (r.status < 400 || r.status >= 500) failures.push(`${c.call} ${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

describe("the demo estate", () => {
  it("seeds a dozen Internet NIDs and Metro NIDs of every product across entities; the support area lists them", async () => {
    const a = await p.newAccount();
    await seedDevices(p.deps, a.accountId);
    const cpes = (await get(a, "get_cpe")).body;
    const metros = (await get(a, "get_metro")).body;
    expect(cpes.length).toBeGreaterThanOrEqual(12);
    expect(new Set(cpes.map((x: Row) => x.prod_code)).size).toBe(4);
    expect(new Set(metros.map((x: Row) => x.prod_code))).toEqual(new Set(["BN-METRO-100", "BN-METRO-1000", "BN-METRO-1000F"]));
    expect(new Set([...cpes, ...metros].map((x: Row) => x.entity_name)).size).toBe(4);
    expect(new Set(cpes.map((x: Row) => x.region)).size).toBeGreaterThanOrEqual(8);
    const names = (await get(a, "dashboard_get_device_names")).body;
    expect(names.cpe).toHaveLength(cpes.length);
    expect(names.metro[0]).toEqual({ name: "Amsterdam Zuidas", id: expect.stringMatching(/^metro-/) });
    const withReport = cpes.find((x: Row) => x.cpe_name === "London Gherkin");
    expect((await get(a, "get_cpe_test_report", { cpe_id: withReport.cpe_id })).status).toBe(200);
    expect((await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: cpes.find((x: Row) => x.cpe_name === "Empire State office").cpe_id, test_type: "ookla" })).status).toBe(200);
  }, 120_000);
});

/** The PDF's text (poppler's pdftotext), or null where it is not installed. */
function pdfText(pdf: Buffer): string | null {
  const file = path.join(os.tmpdir(), `activation-${process.pid}-${Date.now()}.pdf`);
  try {
    fs.writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } catch {
    return null;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

// Two platform instances on one PostgreSQL (each its own pool and LISTEN connection): a test
// started through one streams from the other, woken by NOTIFY; its report outlives both.
const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("the activation test across instances (PostgreSQL)", () => {
  let one: Database;
  let two: Database;
  const depsOf = (d: Database): PlatformDeps => ({ ...p.deps, db: d.db, dbKind: "postgres", config: { ...p.deps.config, databaseUrl: pgUrl } });
  let a: PlatformDeps;
  let b: PlatformDeps;
  beforeAll(async () => {
    one = await openDatabase({ databaseUrl: pgUrl });
    two = await openDatabase({ databaseUrl: pgUrl });
    a = depsOf(one);
    b = depsOf(two);
  });
  afterAll(async () => {
    await closeTestWaker(a);
    await closeTestWaker(b);
    await one?.close();
    await two?.close();
  });

  it("wakes the other instance with NOTIFY", async () => {
    expect(await listensForTests(a)).toBe(true);
    expect(await listensForTests(b)).toBe(true);
    const t0 = Date.now();
    const waiting = waitForTest(b, "sse-wake-test", 20_000, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 100));
    await notifyTest(a, "sse-wake-test");
    await waiting;
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it("streams from instance two a test started on instance one, to the end", async () => {
    const owner = await p.newAccount();
    const id = await device(owner, "metro");
    // Started through instance one 8 s before its end: the rest is written as it happens.
    const started = await startTest(a, owner.accountId, "metro", id, { peer_ip: "192.0.2.20" }, undefined, Date.now() - agoToBeOver() + 13_000);
    const appTwo = createPlatformApp(b);
    const events = await readStream(await stream(owner, "metro", id, started.sse_id, undefined, appTwo));
    expect(events.map((e) => e.data.seq)).toEqual(events.map((_, i) => i + 1));
    expect(["completed", "failed"]).toContain(events[events.length - 1]!.data.status);
    // Every message stored once, and the result is a row: a third instance (a restart) reads it.
    const stored = await one.db.select().from(deviceTestEvents).where(eq(deviceTestEvents.sseId, started.sse_id));
    expect(stored).toHaveLength(events.length);
    const three = await openDatabase({ databaseUrl: pgUrl });
    try {
      const [row] = await three.db.select({ status: deviceTests.status, report: deviceTests.report }).from(deviceTests).where(eq(deviceTests.sseId, started.sse_id));
      expect(row?.status).toBe(events[events.length - 1]!.data.status);
      expect(row?.report).not.toBeNull();
    } finally {
      await three.close();
    }
  }, 120_000);
});
