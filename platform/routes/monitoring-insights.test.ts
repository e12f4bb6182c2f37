import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MALICIOUS_SCORE as FLEET_MALICIOUS_SCORE } from "../fleet/index.ts";
import { createFleet } from "../fleet/index.ts";
import { MALICIOUS_SCORE } from "../contract/monitoring-insights.ts";
import { flowConversation } from "../domain/monitoring-insights.ts";
import { flowReport, toSession } from "../pcap/report.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

// /main-dashboard tabs 4–6: application visibility, the device's flows judged as the PCAP
// analyzer judges a capture, and DDoS protection; their figures are the fleet's for the device.

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
// A test that stops Date (its figures beside the fleet's of the same instant) starts it again.
afterEach(() => void vi.useRealTimers());

const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });
const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });

/** A new account with a CPE, and one of its feeds for a range. */
async function feed(call: string, range: string) {
  const a = await p.newAccount();
  const id = await cpe(a);
  const r = await get(a, call, { node_id: id, range });
  expect(r.status).toBe(200);
  const body: Row = r.body;
  return { a, id, body };
}

async function cpe(a: TestAccount) {
  const r = await post(a, "create_cpe", {
    cpe_name: "Lisbon shop",
    prod_code: "BN-CPE-IP",
    site_address: "Rua Augusta 1, Lisboa",
    latitude: 38.71,
    longitude: -9.14,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cpe_id as string;
}

describe("Application Visibility", () => {
  it("answers the fleet's figures for the device, whose totals add up; another account's device is 404", async () => {
    const { a, id, body: v } = await feed("dashboard_get_app_visibility", "1d");
    expect(v).toMatchObject({ node_id: id, range: "1d" });
    expect(v.total_apps).toBe(v.sessions.length);
    expect(v.total_apps).toBeGreaterThanOrEqual(12);
    expect(v.sessions.reduce((n: number, s: Row) => n + s.bytes, 0)).toBe(v.total_bytes);
    expect(v.sessions.reduce((n: number, s: Row) => n + s.hits, 0)).toBe(v.total_visits);
    expect(v.top_app_by_bytes.length).toBe(10);
    const hits = v.top_app_by_hits.map((x: Row) => x.hits);
    expect(hits).toEqual([...hits].sort((x: number, y: number) => y - x));
    for (const s of v.sessions) expect(s.node_id).toBe(id);
    // The default range is 1d; another range gives other totals.
    expect((await get(a, "dashboard_get_app_visibility", { node_id: id })).body.range).toBe("1d");
    expect(
      (
        await get(a, "dashboard_get_app_visibility", {
          node_id: id,
          range: "1h",
        })
      ).body.total_bytes,
    ).toBeLessThan(v.total_bytes);
    expect(
      (
        await get(a, "dashboard_get_app_visibility", {
          node_id: id,
          range: "2d",
        })
      ).status,
    ).toBe(422);
    const other = await p.newAccount();
    expect((await get(other, "dashboard_get_app_visibility", { node_id: id })).status).toBe(404);
    expect((await get(a, "dashboard_get_app_visibility", { node_id: "cpe-unknown" })).status).toBe(404);
  });
});

describe("App Flows & Performance Analysis", () => {
  it("judges a flow with the PCAP analyzer's thresholds: a lossy link degrades TCP, a clean one does not", () => {
    const flow = {
      start_time: "2026-11-25T10:00:03.000Z",
      end_time: "2026-11-25T10:09:00.000Z",
      src_addr: "10.1.2.3",
      dst_addr: "203.0.113.9",
      src_port: 40000,
      dst_port: 443,
      proto: "TCP",
      app_name: "HTTPS",
      tx_bytes: 2_000_000,
      rx_bytes: 30_000_000,
    };
    const clean = flowConversation(flow, { RTT_ms: 12, "Loss Rate": 0.1 });
    expect(toSession(clean).performance).toBe("good");
    expect(clean.bytes).toBe(32_000_000);
    expect(clean.ack_rtt?.median).toBeCloseTo(0.012, 9);
    const lossy = flowConversation(flow, { RTT_ms: 12, "Loss Rate": 3 });
    const report = flowReport(lossy);
    expect(report.summary.performance_degradation).toBe("yes");
    expect(report.summary.findings.map((f) => f.figure)).toContain("lost_segment_rate");
    expect(report.general_info).toMatchObject({
      protocol: "tcp",
      app_name: "HTTPS",
      client: { addr: "10.1.2.3", port: 40000 },
      server: { addr: "203.0.113.9", port: 443 },
    });
    // A slow path alone (median ACK RTT > 300 ms) degrades it too.
    expect(toSession(flowConversation(flow, { RTT_ms: 420, "Loss Rate": 0 })).performance).toBe("not good");
    // UDP carries no sequence numbers: good unless a request/response protocol went unanswered.
    expect(
      toSession(
        flowConversation(
          {
            ...flow,
            proto: "UDP",
            dst_port: 3478,
            app_name: "Microsoft Teams",
          },
          { RTT_ms: 12, "Loss Rate": 3 },
        ),
      ).performance,
    ).toBe("good");
  });

  it("answers the device's flows, the degraded share, each flow's report and its PDF", async () => {
    // The platform's flows and the fleet's at one instant: Date stands still in this test. (While the
    // device is down, its current bucket's bytes change from one millisecond to the next.)
    vi.useFakeTimers({ toFake: ["Date"] });
    const { a, id, body: f } = await feed("dashboard_get_app_flows", "3h");
    expect(f.sessions.length).toBe(f.summary.sessions);
    expect(f.sessions.length).toBeGreaterThan(20);
    const degraded = f.sessions.filter((s: Row) => s.performance === "not good").length;
    expect(f.summary.degraded_sessions).toBe(degraded);
    expect(f.summary.degraded_percent).toBeCloseTo((degraded / f.sessions.length) * 100, 2);
    // The flows' bytes are the device's traffic: the same figures the Application Visibility tab shares out.
    const fleet = createFleet(p.deps.config.fleetSeed);
    const rows = fleet.netflows({ id, kind: "cpe", lat: 38.71, lon: -9.14, contractedMbps: null }, "3h", Date.now());
    expect(f.summary.bytes).toBe(rows.reduce((n, x) => n + x.tx_bytes + x.rx_bytes, 0));
    const times = f.sessions.map((s: Row) => s.start_time);
    expect(times).toEqual([...times].sort().reverse());
    for (const s of f.sessions) expect(s).toMatchObject({ node_id: id, ep_id: null });

    const one = f.sessions[0];
    const report = await get(a, "dashboard_get_app_flow_report", {
      node_id: id,
      range: "3h",
      session_id: one.session_id,
    });
    expect(report.status).toBe(200);
    expect(report.body.general_info.session_id).toBe(one.session_id);
    expect(report.body.summary.performance_degradation).toBe(one.performance === "good" ? "no" : "yes");
    expect(
      (
        await get(a, "dashboard_get_app_flow_report", {
          node_id: id,
          range: "3h",
          session_id: "0000000000000000",
        })
      ).body,
    ).toEqual({ detail: "There is no test data." });
    expect(
      (
        await get(a, "dashboard_get_app_flow_report", {
          node_id: id,
          session_id: "x",
        })
      ).status,
    ).toBe(422);

    const pdf = await p.app.fetch(
      new Request(`http://platform.test/api/v1/dashboard_get_app_flow_report_pdf?node_id=${id}&range=3h&session_id=${one.session_id}`, {
        headers: { authorization: `Bearer ${a.token}` },
      }),
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const other = await p.newAccount();
    expect((await get(other, "dashboard_get_app_flows", { node_id: id })).status).toBe(404);
    expect(
      (
        await get(other, "dashboard_get_app_flow_report", {
          node_id: id,
          range: "3h",
          session_id: one.session_id,
        })
      ).status,
    ).toBe(404);
  });
});

describe("DDoS Protection Suite", () => {
  it("answers the maps' nodes and cities, blocks only while blocking is on, and judges attacks against the device's thresholds", async () => {
    expect(MALICIOUS_SCORE).toBe(FLEET_MALICIOUS_SCORE);
    const { a, id, body: off } = await feed("dashboard_get_ddos", "1w");
    expect(off).toMatchObject({
      node_id: id,
      range: "1w",
      malicious_ip_block_enabled: false,
      denial_of_service_enabled: false,
    });
    expect(off.inbound.node).toMatchObject({
      node_id: id,
      node_name: "Lisbon shop",
      site_address: "Rua Augusta 1, Lisboa",
      latitude: 38.71,
      longitude: -9.14,
    });
    const ips = off.inbound.locations.flatMap((l: Row) => l.ips);
    expect(off.inbound.node.total_ips).toBe(ips.length);
    expect(off.inbound.node.malicious_ips).toBe(ips.filter((x: Row) => x.malicious_score >= MALICIOUS_SCORE).length);
    expect(off.outbound.node.total_ips).toBe(off.outbound.locations.flatMap((l: Row) => l.ips).length);
    expect(off.blocked.locations).toEqual([]);
    expect(off.blocked_history).toEqual([]);
    expect(off.mitigation.length).toBe(168);
    for (const x of off.dos_history) expect(x.status).toBe("detected");

    // Blocking and mitigation on: the malicious sources are blocked, attacks past the block threshold mitigated.
    for (const call of ["toggle_cpe_malicious_ip_block", "toggle_cpe_denial_of_service"]) {
      expect((await post(a, call, { cpe_id: id, enabled: true })).status).toBe(200);
    }
    const on: Row = (await get(a, "dashboard_get_ddos", { node_id: id, range: "1w" })).body;
    expect(on.malicious_ip_block_enabled).toBe(true);
    expect(on.blocked.locations.flatMap((l: Row) => l.ips).length).toBe(on.inbound.node.malicious_ips);
    expect(on.blocked_history.length).toBe(on.inbound.node.malicious_ips);
    for (const x of on.dos_history) expect(x.status).toBe(x.threshold === "alert" ? "detected" : "mitigated");

    // Thresholds raised above every attack's rate: none is listed.
    const high = {
      alert_threshold: 9_000_000,
      block_threshold: 9_500_000,
      max_threshold: 10_000_000,
    };
    const set = await p.call("POST", "set_cpe_denial_of_service_thresholds", {
      token: a.token,
      query: { cpe_id: id },
      body: {
        tcp_syn_flood_thresholds: high,
        udp_thresholds: high,
        icmp_thresholds: high,
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await get(a, "dashboard_get_ddos", { node_id: id, range: "1w" })).body.dos_history).toEqual([]);

    const other = await p.newAccount();
    expect((await get(other, "dashboard_get_ddos", { node_id: id })).status).toBe(404);
  });
});
