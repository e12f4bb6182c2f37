import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cpes } from "../db/schema.ts";
import { startSpeedTest, speedTestResult } from "../domain/cpe.ts";
import { DEFAULT_DDOS, deviceMessages } from "../contract/devices.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { testPlatform, type CallResult, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

/** The next whole hour (UTC, ISO): announcements start from now on. */
const nextHour = (plus = 1) => new Date((Math.floor(Date.now() / 3_600_000) + plus) * 3_600_000).toISOString();

// Internet NIDs (spec 3 §2.10, §5, §7.1): every call on PGlite (and PostgreSQL with TEST_DATABASE_URL).

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
// A test that sets Date (a result read a second after its test's start) starts it again.
afterEach(() => void vi.useRealTimers());

const post = (a: TestAccount, call: string, body: unknown, query?: Record<string, string>) => p.call("POST", call, { token: a.token, body, query });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

export const cpeBody = (extra: Record<string, unknown> = {}) => ({
  cpe_name: "Lyon office",
  prod_code: "BN-CPE-1000",
  site_address: "12 Rue de la République, 69002 Lyon, France",
  latitude: 45.764,
  longitude: 4.8357,
  provider_service_id: "PS-1001",
  client_circuit_id: "CC-77",
  ...extra,
});

async function createCpe(a: TestAccount, extra: Record<string, unknown> = {}) {
  const r = await post(a, "create_cpe", cpeBody(extra));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.detail).toBe("CPE router created.");
  return r.body.cpe_id as string;
}

const detail = async (a: TestAccount, id: string) => {
  const r = await get(a, "get_cpe_detail", { cpe_id: id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

const messages = (r: CallResult) => JSON.stringify(r.body.detail);

describe("Internet NIDs: create, list, detail", () => {
  it("creates a device of every product, lists and filters them by entity", async () => {
    const a = await p.newAccount();
    const products = (await get(a, "get_cpe_products")).body;
    expect(products.map((x: Row) => x.prod_code)).toEqual(["BN-CPE-IP", "BN-CPE-100", "BN-CPE-500", "BN-CPE-1000"]);
    expect(products[0]).toMatchObject({ service_activation: true, monitoring: false });
    const iam = await p.newIamUser(a, "admin");
    const ids = [];
    for (const x of products) ids.push(await createCpe(a, { prod_code: x.prod_code, cpe_name: `Site ${x.prod_code}`, entity_name: x.prod_code === "BN-CPE-100" ? iam.entityName : undefined }));
    const list = (await get(a, "get_cpe")).body;
    expect(list).toHaveLength(4);
    const ip = list.find((x: Row) => x.prod_code === "BN-CPE-IP");
    expect(ip).toMatchObject({ admin_state: "inactive", mode: "ROUTER", scan_gap: 1, op_state: null, test_status: "none", account_name: "Test Account", region: "PAR" });
    expect(list.find((x: Row) => x.prod_code === "BN-CPE-1000")).toMatchObject({ admin_state: "active", wan_cir_mbps: 1000 });
    const filtered = (await get(a, "get_cpe", { entity_name: iam.entityName })).body;
    expect(filtered.map((x: Row) => x.prod_code)).toEqual(["BN-CPE-100"]);
    expect(filtered[0].entity_name).toBe(iam.entityName);
    // An empty filter filters nothing (issue 63 item 26).
    expect((await get(a, "get_cpe", { entity_name: "" })).body).toHaveLength(4);
    const page = (await get(a, "get_cpe", { size: "2", sort: "-cpe_name", q: "site" })).body;
    expect(page.total).toBe(4);
    expect(page.items).toHaveLength(2);
    expect(page.items[0].cpe_name).toBe("Site BN-CPE-IP");
    const d = await detail(a, ids[3]!);
    expect(d.ports.map((x: Row) => x.role)).toEqual(["wan", "lan", "lan", "lan", "lan"]);
    expect(d.ddos_thresholds).toEqual(DEFAULT_DDOS);
    expect(d.announcements).toEqual([]);
  });

  it("refuses what §5 refuses, with the field named", async () => {
    const a = await p.newAccount();
    let r = await post(a, "create_cpe", cpeBody({ cpe_name: " ", site_address: "" }));
    expect(r.status).toBe(422);
    expect(messages(r)).toContain("Name is required.");
    expect(messages(r)).toContain("Site Address is required.");
    r = await post(a, "create_cpe", cpeBody({ prod_code: "BN-NOPE" }));
    expect(r.status).toBe(422);
    r = await post(a, "create_cpe", cpeBody({ entity_name: "No such entity" }));
    expect(r.status).toBe(404);
    r = await post(a, "create_cpe", cpeBody({ latitude: 91 }));
    expect(messages(r)).toContain("Latitude must be a number from -90 to 90.");
  });
});

describe("Internet NIDs: every setting is stored and read back by get_cpe_detail", () => {
  it("Edit CPE Info, Edit Network Info, Assign Entity, toggles, thresholds, intervals, target, shipping", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    let r = await post(a, "update_cpe_info", {
      cpe_id: id,
      cpe_name: "Lyon HQ",
      site_address: "1 Place Bellecour, Lyon",
      provider_service_id: "PS-2",
      client_circuit_id: "CC-2",
      ping_dns_ip: "1.1.1.1",
      ping_email_notification: true,
      ping_webhook_notification: false,
      ping_gw_ip: "",
    });
    expect(r.body.detail).toBe(deviceMessages.cpeUpdated);
    r = await post(a, "update_cpe_info", { cpe_id: id, cpe_name: "", site_address: "", provider_service_id: "", client_circuit_id: "", ping_dns_ip: "x", ping_email_notification: true, ping_webhook_notification: false, ping_gw_ip: "" });
    expect(r.status).toBe(422);
    expect(messages(r)).toContain("Name is required.");
    expect(messages(r)).toContain("Ping DNS IP must be an IP address.");

    r = await post(a, "update_cpe_network_info", { cpe_id: id, mode: "ROUTER", wan_addressing: "static", wan_cidr: "203.0.113.10/29", wan_gateway: "203.0.113.9", dns_servers: "9.9.9.9, 1.1.1.1", lan_cidr: "10.10.0.1/24" });
    expect(r.body.detail).toBe(deviceMessages.networkUpdated);
    r = await post(a, "update_cpe_network_info", { cpe_id: id, mode: "ROUTER", wan_addressing: "static", wan_cidr: "", wan_gateway: "", dns_servers: "", lan_cidr: "" });
    expect(messages(r)).toContain("WAN address is required for static addressing.");
    expect(messages(r)).toContain("LAN address is required in ROUTER mode.");

    const iam = await p.newIamUser(a, "admin");
    expect((await post(a, "cpe_assign_entity", { cpe_id: id, new_entity_name: "" })).body.detail[0].msg).toBe("Select Entity Name");
    expect((await post(a, "cpe_assign_entity", { cpe_id: id, new_entity_name: "Nope" })).status).toBe(404);
    expect((await post(a, "cpe_assign_entity", { cpe_id: id, new_entity_name: iam.entityName })).body.detail).toBe("Assigned entity successfully.");

    for (const call of ["toggle_cpe_geo_visibility", "toggle_cpe_malicious_ip_block", "toggle_cpe_app_visibility", "toggle_cpe_denial_of_service", "toggle_cpe_appflow", "toggle_cpe_iperf_server"]) {
      expect((await post(a, call, { cpe_id: id, enabled: true })).status, call).toBe(200);
      expect((await post(a, call, { cpe_id: id, enabled: true })).status, `${call} unchanged`).toBe(409);
    }
    r = await post(a, "set_cpe_denial_of_service_thresholds", { ...DEFAULT_DDOS, udp_thresholds: { alert_threshold: 6000, block_threshold: 5000, max_threshold: 4000 } }, { cpe_id: id });
    expect(r.status).toBe(422);
    // In the dialog's words, never the field's path (issue 63 item 16); `loc` names the field.
    expect(r.body.detail.map((x: Row) => x.msg)).toEqual(["UDP flood: Alert must be at most Block.", "UDP flood: Block must be at most Max."]);
    expect(r.body.detail[0].loc).toEqual(["body", "udp_thresholds", "alert_threshold"]);
    r = await post(a, "set_cpe_denial_of_service_thresholds", { ...DEFAULT_DDOS, tcp_syn_flood_thresholds: { alert_threshold: 200, block_threshold: 2000, max_threshold: 10_000_001 } }, { cpe_id: id });
    expect(r.body.detail.map((x: Row) => x.msg)).toEqual(["TCP SYN flood: Max must be a whole number from 0 to 10000000."]);
    r = await post(a, "set_cpe_denial_of_service_thresholds", { ...DEFAULT_DDOS, tcp_syn_flood_thresholds: { alert_threshold: 3000, block_threshold: 2000, max_threshold: 5000 } }, { cpe_id: id });
    expect(r.body.detail.map((x: Row) => x.msg)).toEqual(["TCP SYN flood: Alert must be at most Block."]);
    for (const item of r.body.detail as Row[]) expect(String(item.msg)).not.toMatch(/_threshold|\.[a-z]/);
    const thresholds = { tcp_syn_flood_thresholds: { alert_threshold: 300, block_threshold: 3000, max_threshold: 3000 }, udp_thresholds: DEFAULT_DDOS.udp_thresholds, icmp_thresholds: DEFAULT_DDOS.icmp_thresholds };
    expect((await post(a, "set_cpe_denial_of_service_thresholds", thresholds, { cpe_id: id })).body.detail).toBe("DDoS thresholds updated.");
    expect((await get(a, "get_cpe_denial_of_service_thresholds", { cpe_id: id })).body).toEqual(thresholds);
    const interval = await post(a, "set_cpe_scan_interval", { cpe_id: id, scan_interval: 0 });
    expect(interval.status).toBe(422);
    // The spec's name for it (issue 63 item 23: the answer said "Scan interval").
    expect(interval.body.detail.map((x: Row) => x.msg)).toEqual(["Down notification interval must be a whole number from 1 to 60."]);
    expect((await post(a, "set_cpe_scan_interval", { cpe_id: id, scan_interval: 5 })).status).toBe(200);
    expect((await post(a, "update_cpe_ip_monitor_target", { cpe_id: id, ip_monitor_target: "not an ip" })).status).toBe(422);
    expect((await post(a, "update_cpe_ip_monitor_target", { cpe_id: id, ip_monitor_target: "9.9.9.9" })).status).toBe(200);
    expect((await post(a, "update_cpe_shipping_info", { cpe_id: id, tracking_number: "1Z999AA10123456784" })).status).toBe(200);

    const d = await detail(a, id);
    expect(d).toMatchObject({
      cpe_name: "Lyon HQ",
      site_address: "1 Place Bellecour, Lyon",
      ping_dns_ip: "1.1.1.1",
      ping_email_notification: true,
      mode: "ROUTER",
      wan_addressing: "static",
      wan_cidr: "203.0.113.10/29",
      dns_servers: ["9.9.9.9", "1.1.1.1"],
      lan_cidr: "10.10.0.1/24",
      entity_name: iam.entityName,
      monitor_inbound_pub_ip_enabled: true,
      monitor_outbound_pub_ip_enabled: true,
      malicious_ip_block_enabled: true,
      app_visibility_enabled: true,
      denial_of_service_enabled: true,
      netflow_enabled: true,
      iperf_server: true,
      scan_gap: 5,
      ip_monitor_target: "9.9.9.9",
      tracking_number: "1Z999AA10123456784",
      state: "shipped",
      ddos_thresholds: thresholds,
    });
    expect(d.ports[0]).toMatchObject({ role: "wan", cidr_addr: "203.0.113.10/29" });
  });

  it("daily performance test: start only when not scheduled, stop only when scheduled", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    const regions = (await get(a, "get_peer_regions")).body;
    expect(regions.length).toBeGreaterThan(10);
    let r = await post(a, "configure_perf_test_schedule", { cpe_id: id, enable: true });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toBe("Select the Peer region and hour of day.");
    expect((await post(a, "configure_perf_test_schedule", { cpe_id: id, peer_region: regions[0].peer_region, hour_of_day: 24, enable: true })).status).toBe(422);
    r = await post(a, "configure_perf_test_schedule", { cpe_id: id, peer_region: regions[0].peer_region, hour_of_day: 3, enable: true });
    expect(r.body.detail).toBe("Daily performance test scheduled.");
    expect((await post(a, "configure_perf_test_schedule", { cpe_id: id, peer_region: regions[0].peer_region, hour_of_day: 3, enable: true })).status).toBe(409);
    expect(await detail(a, id)).toMatchObject({ perf_test_scheduled: true, perf_test_hour_of_day: 3, perf_test_peer_region: regions[0].peer_region, perf_test_peer_ip: regions[0].peer_ip });
    expect((await post(a, "configure_perf_test_schedule", { cpe_id: id, enable: false })).body.detail).toBe("Daily performance test stopped.");
    expect((await post(a, "configure_perf_test_schedule", { cpe_id: id, enable: false })).status).toBe(409);
    expect((await post(a, "configure_perf_test_schedule", { cpe_id: id, peer_region: "XXX", hour_of_day: 3, enable: true })).status).toBe(400);
  });

  it("service activation of BN-CPE-IP, refused from the same state and for other products", async () => {
    const a = await p.newAccount();
    const ip = await createCpe(a, { prod_code: "BN-CPE-IP" });
    const other = await createCpe(a);
    expect((await post(a, "stop_cpe_service", { cpe_id: ip })).status).toBe(409);
    expect((await post(a, "start_cpe_speedtest_cli", { cpe_id: ip, test_type: "ookla" })).status).toBe(409);
    expect((await post(a, "activate_cpe_service", { cpe_id: ip })).body.detail).toBe("Service activated.");
    expect((await detail(a, ip)).admin_state).toBe("active");
    expect((await post(a, "activate_cpe_service", { cpe_id: ip })).status).toBe(409);
    expect((await post(a, "stop_cpe_service", { cpe_id: ip })).body.detail).toBe("Service stopped.");
    expect((await post(a, "activate_cpe_service", { cpe_id: other })).status).toBe(400);
  });

  it("concurrent changes to the same value: exactly one is applied, the others are refused (toggles, service, daily test)", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    const ip = await createCpe(a, { prod_code: "BN-CPE-IP" });
    const region = (await get(a, "get_peer_regions")).body[0].peer_region;
    const burst = (call: string, body: unknown) => Promise.all(Array.from({ length: 8 }, () => post(a, call, body)));
    const statuses = (rs: CallResult[]) => rs.map((r) => r.status).sort();
    const once = [200, 409, 409, 409, 409, 409, 409, 409];
    expect(statuses(await burst("toggle_cpe_geo_visibility", { cpe_id: id, enabled: true }))).toEqual(once);
    expect(statuses(await burst("toggle_cpe_geo_visibility", { cpe_id: id, enabled: false }))).toEqual(once);
    expect(statuses(await burst("toggle_cpe_appflow", { cpe_id: id, enabled: true }))).toEqual(once);
    expect(statuses(await burst("activate_cpe_service", { cpe_id: ip }))).toEqual(once);
    expect(statuses(await burst("stop_cpe_service", { cpe_id: ip }))).toEqual(once);
    expect(statuses(await burst("configure_perf_test_schedule", { cpe_id: id, peer_region: region, hour_of_day: 4, enable: true }))).toEqual(once);
    expect(statuses(await burst("configure_perf_test_schedule", { cpe_id: id, enable: false }))).toEqual(once);
    const d = await detail(a, id);
    expect(d).toMatchObject({ perf_test_scheduled: false, monitor_inbound_pub_ip_enabled: false, monitor_outbound_pub_ip_enabled: false, netflow_enabled: true, admin_state: "active" });
    // Another account's device, and one that does not exist, are still 404 (not 409).
    const b = await p.newAccount();
    expect((await post(b, "toggle_cpe_appflow", { cpe_id: id, enabled: false })).status).toBe(404);
    expect((await post(b, "activate_cpe_service", { cpe_id: ip })).status).toBe(404);
    expect((await post(b, "configure_perf_test_schedule", { cpe_id: id, enable: false })).status).toBe(404);
  });

  it("announcements: every field, whole hours, at least 1 hour; listed on the detail", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    let r = await post(a, "cpe_add_announcement", { cpe_id: id });
    expect(r.body.detail.map((x: Row) => x.msg)).toEqual(["Please fill out all fields.", "Please fill out all fields."]);
    const start = nextHour(2);
    expect((await post(a, "cpe_add_announcement", { cpe_id: id, start_time: start.replace(":00:00", ":30:00"), duration: 2 })).status).toBe(422);
    r = await post(a, "cpe_add_announcement", { cpe_id: id, start_time: start, duration: 0 });
    expect(r.body.detail[0].msg).toBe("Duration must be a whole number of hours from 1 to 168.");
    r = await post(a, "cpe_add_announcement", { cpe_id: id, start_time: start, duration: 3 });
    expect(r.body.detail).toBe("Maintenance announcement created.");
    // Times the database cannot hold are refused with a 4xx, never a 500 (issue 63 item 24).
    for (const [call, key, device] of [["cpe_add_announcement", "cpe_id", id]] as const) {
      for (const start_time of ["9999-12-31T23:00:00Z", "9999-12-31T20:00:00Z", "0000-01-01T00:00:00Z", "+010000-01-01T00:00:00Z", "275760-09-13T00:00:00Z"]) {
        const far = await post(a, call, { [key]: device, start_time, duration: 8 });
        expect(far.status, `${start_time}: ${JSON.stringify(far.body)}`).toBe(422);
      }
    }
    // The console shows these in the form's summary: words, not the field's key (issue 63 item 16).
    expect((await post(a, "cpe_add_announcement", { cpe_id: id, start_time: "9999-12-31T23:00:00Z", duration: 8 })).body.detail.map((x: Row) => x.msg)).toEqual(["Start time must be at the latest 9999-12-24 23:00 UTC"]);
    expect((await post(a, "cpe_add_announcement", { cpe_id: id, start_time: start.replace(":00:00", ":30:00"), duration: 2 })).body.detail.map((x: Row) => x.msg)).toEqual(["Start time must be on the hour (00:00 to 23:00 UTC)"]);
    expect((await detail(a, id)).announcements).toMatchObject([{ start_time: start, end_time: new Date(Date.parse(start) + 3 * 3_600_000).toISOString(), duration: 3 }]);
  });
});

describe("Internet NIDs: the speed test", () => {
  it("FLEET_TEST_SPEED: finishes that many times sooner, with the same result", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    const fast = { ...p.deps, config: { ...p.deps.config, fleetTestSpeed: 4 } };
    const t0 = Date.now() - 60_000;
    const real = await startSpeedTest(p.deps, a.accountId, id, "ookla", t0);
    const quick = await startSpeedTest(fast, a.accountId, id, "ookla", t0);
    const length = Date.parse(real.finishes_at) - t0; // 8–14 s
    expect(length).toBeGreaterThanOrEqual(8000);
    expect(Date.parse(quick.finishes_at) - t0).toBe(Math.ceil(length / 4));
    // Just after a quarter of its length: done at 4 times the speed, running in real time (404).
    const at = t0 + Math.ceil(length / 4) + 1;
    const done = await speedTestResult(fast, a.accountId, id, "ookla", at);
    expect(done.status).toMatch(/^(completed|failed)$/);
    // (A test an outage cut short fails, whenever it is read: only a completed one is compared.)
    if (done.status === "completed") await expect(speedTestResult(p.deps, a.accountId, id, "ookla", at)).rejects.toMatchObject({ status: 404 });
    // At its end in real time, the real-time reading is the same test's result.
    expect(await speedTestResult(p.deps, a.accountId, id, "ookla", t0 + length)).toEqual(done);
  });

  it("404 while running, then the Ookla CLI's JSON; a host answers in iperf3's", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    expect((await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: id, test_type: "ookla" })).status).toBe(404);
    expect((await post(a, "start_cpe_speedtest_cli", { cpe_id: id, test_type: "not a host!" })).status).toBe(422);
    vi.useFakeTimers({ toFake: ["Date"] });
    const started = await post(a, "start_cpe_speedtest_cli", { cpe_id: id, test_type: "ookla" });
    expect(started.body.status).toBe("Speed test started");
    // Read a second later: still running (404), or, when the device was down meanwhile (in its
    // outages, ~3 a month: at random times in a run), failed at once.
    const startedAt = Date.parse(started.body.started_at);
    vi.setSystemTime(startedAt + 1000);
    const early = await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: id, test_type: "ookla" });
    if (fleetOf(p.deps).speedTestResult({ id, kind: "cpe" }, "ookla", startedAt, Date.now()).status === "running") expect(early.status).toBe(404);
    else expect(early).toEqual({ status: 200, body: { status: "failed", detail: "The device is offline", data: null } });
    vi.useRealTimers();
    // As if it had started a minute ago (a test takes 8–14 s).
    await p.deps.db.update(cpes).set({ speedtestStartedAt: new Date(Date.now() - 60_000) }).where(eq(cpes.cpeId, id));
    const r = await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: id, test_type: "ookla" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (r.body.status === "completed") {
      const d = r.body.data;
      expect(d.download_speed_mbps).toBeGreaterThan(100);
      expect(d.result_url).toMatch(/^https:\/\/www\.speedtest\.net\/result\/c\//);
      expect(d.raw.download.bandwidth).toBe(Math.round((d.download_speed_mbps * 1e6) / 8));
      expect(d.raw).toMatchObject({ type: "result", ping: { latency: d.ping_latency_ms, jitter: d.ping_jitter_ms }, result: { url: d.result_url } });
      expect(d.raw.server.host).toMatch(/\.example\.net$/);
    } else {
      expect(r.body).toMatchObject({ status: "failed", data: null });
    }
    expect((await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: id, test_type: "192.0.2.5" })).status).toBe(404);
    await post(a, "start_cpe_speedtest_cli", { cpe_id: id, test_type: "iperf.example.net" });
    await p.deps.db.update(cpes).set({ speedtestStartedAt: new Date(Date.now() - 60_000) }).where(eq(cpes.cpeId, id));
    const ip = await get(a, "get_cpe_speedtest_cli_test_result", { cpe_id: id, test_type: "iperf.example.net" });
    if (ip.body.status === "completed") {
      expect(ip.body.data.raw.download.start.connecting_to).toEqual({ host: "iperf.example.net", port: 5201 });
      expect(ip.body.data.raw.upload.end.sum_sent.bits_per_second).toBe(Math.round(ip.body.data.upload_speed_mbps * 1e6));
      expect(ip.body.data.result_url).toBeNull();
    }
  });
});

describe("Internet NIDs: tenancy, roles and malformed payloads", () => {
  it("answers 404 to another account's device and 403 to a readonly user's change", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const id = await createCpe(a);
    const ro = await p.newIamUser(a, "readonly");
    expect((await get(b, "get_cpe_detail", { cpe_id: id })).status).toBe(404);
    expect((await get(b, "get_cpe")).body).toEqual([]);
    for (const [call, body] of [
      ["update_cpe_info", { cpe_id: id, cpe_name: "x", site_address: "y", provider_service_id: "", client_circuit_id: "", ping_dns_ip: "", ping_email_notification: false, ping_webhook_notification: false, ping_gw_ip: "" }],
      ["toggle_cpe_app_visibility", { cpe_id: id, enabled: true }],
      ["cpe_add_announcement", { cpe_id: id, start_time: nextHour(), duration: 1 }],
      ["remove_cpe", { cpe_id: id }],
      ["set_cpe_scan_interval", { cpe_id: id, scan_interval: 2 }],
    ] as const) {
      expect((await post(b, call, body)).status, call).toBe(404);
      expect((await post(ro, call, body)).status, call).toBe(403);
    }
    expect((await get(ro, "get_cpe_detail", { cpe_id: id })).status).toBe(200);
    expect((await post(a, "remove_cpe", { cpe_id: id })).body.detail).toBe("CPE router removed.");
    expect((await get(a, "get_cpe_detail", { cpe_id: id })).status).toBe(404);
  });

  it("refuses the generated malformed payloads with a 4xx", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a);
    const cases: { call: string; valid: Record<string, unknown>; ok: (m: MalformedPayload) => boolean }[] = [
      {
        call: "create_cpe",
        valid: cpeBody(),
        ok: validVariants({ optional: ["latitude", "longitude", "provider_service_id", "client_circuit_id"], emptyAllowed: ["provider_service_id", "client_circuit_id"] }),
      },
      { call: "cpe_add_announcement", valid: { cpe_id: id, start_time: nextHour(), duration: 2 }, ok: validVariants({}) },
      { call: "toggle_cpe_appflow", valid: { cpe_id: id, enabled: false }, ok: validVariants({}) },
      { call: "start_cpe_test", valid: { cpe_id: id, peer_ip: "192.0.2.1" }, ok: validVariants({}) },
    ];
    for (const c of cases) {
      for (const m of malformedPayloads(c.valid)) {
        if (c.ok(m) || /null|numeric string|number as string/.test(m.name)) continue;
        const r = await p.call("POST", c.call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        expect(r.status, `${c.call} ${m.name}: ${JSON.stringify(r.body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${c.call} ${m.name}`).toBeLessThan(500);
      }
    }
  }, 120_000);
});
