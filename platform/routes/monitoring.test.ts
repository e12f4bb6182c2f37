import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summaryItems } from "../contract/monitoring.ts";
import { eventsOf, fleetObjectOf, requireNode } from "../domain/devices.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/*
 * /main-dashboard's monitoring feeds (platform/routes/monitoring.ts): the numbers are the fleet's
 * for the device as stored, another account's device is 404, and the post-mortem is the same text
 * whole, streamed (resumable by Last-Event-ID) and as a multi-page A4 PDF.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
// A test that stops Date (its figures beside the fleet's of the same instant) starts it again.
afterEach(() => void vi.useRealTimers());

const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });
const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });

async function cpe(a: TestAccount, name: string, extra: Record<string, unknown> = {}) {
  const r = await post(a, "create_cpe", {
    cpe_name: name,
    prod_code: "BN-CPE-500",
    site_address: "1 Martin Place, Sydney NSW 2000",
    latitude: -33.8675,
    longitude: 151.2099,
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // Its record began 90 days ago (as the demo's devices' do): it has the outages these feeds show.
  await p.deps.db.execute(sql`update cpes set created_at = now() - interval '90 days' where cpe_id = ${r.body.cpe_id as string}`);
  return r.body.cpe_id as string;
}

async function metro(a: TestAccount, name: string) {
  const r = await post(a, "create_metro", {
    metro_name: name,
    prod_code: "BN-METRO-1000F",
    site_address: "100 King St W, Toronto",
    latitude: 43.6487,
    longitude: -79.3817,
    wan_cir_mbps: 200,
    wan_eir_mbps: 50,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.metro_id as string;
}

/** The fleet's view of a stored device, as the domain builds it. */
async function fleetView(a: TestAccount, id: string) {
  const d = await requireNode(p.deps.db, a.accountId, id);
  const events = await eventsOf(p.deps.db, d);
  return {
    obj: fleetObjectOf(d),
    events,
    opts: { events, target: d.ipMonitorTarget ?? undefined },
  };
}

/** An outage of the device in the last 90 days (the fleet gives ~3 a month). */
async function someOutage(a: TestAccount, id: string) {
  const { obj, opts } = await fleetView(a, id);
  const now = Date.now();
  const list = fleetOf(p.deps).outages(obj, { start: now - 90 * 86_400_000, end: now }, now, opts);
  expect(list.length).toBeGreaterThan(0);
  return list.find((o) => o.end_time) ?? list[0]!;
}

const stream = (a: TestAccount, query: Record<string, string>, lastEventId?: string) =>
  p.app.fetch(
    new Request(`http://platform.test/api/v1/dashboard_stream_post_mortem?${new URLSearchParams(query)}`, {
      headers: {
        authorization: `Bearer ${a.token}`,
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      },
    }),
    undefined,
  );

async function events(res: Response) {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.includes("data:"))
    .map((b) => ({
      event: /^event: ?(.*)$/m.exec(b)?.[1],
      id: /^id: ?(.*)$/m.exec(b)?.[1],
      data: /^data: ?(.*)$/m.exec(b)![1]!,
    }));
}

describe("dashboard_get_summary", () => {
  it("counts the account's devices (by entity when asked), their regions and the Private Access objects", async () => {
    const a = await p.newAccount();
    const other = await p.newAccount();
    await cpe(other, "Not mine");
    const empty = await get(a, "dashboard_get_summary");
    expect(empty.status).toBe(200);
    expect(Object.keys(empty.body.global)).toEqual([...summaryItems]);
    expect(Object.values(empty.body.global)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(empty.body).toMatchObject({ regions: [], devices: [] });

    expect(
      (
        await post(a, "create_entity", {
          entity_name: "Branches",
          description: "",
          parent_entity_name: "",
        })
      ).status,
    ).toBe(200);
    const sydney = await cpe(a, "Sydney", { entity_name: "Branches" });
    const nowhere = await cpe(a, "Nowhere", {
      latitude: undefined,
      longitude: undefined,
    });
    const toronto = await metro(a, "Toronto");
    const r = await get(a, "dashboard_get_summary");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.global).toMatchObject({
      "Internet NIDs": 2,
      "Metro Ethernet NIDs": 1,
    });
    expect(r.body.global["Devices Up"] + r.body.global["Devices Down"]).toBeLessThanOrEqual(3);
    expect(r.body.devices.map((d: { id: string }) => d.id).sort()).toEqual([sydney, nowhere, toronto].sort());
    const syd = r.body.devices.find((d: { id: string }) => d.id === sydney);
    expect(syd).toMatchObject({
      name: "Sydney",
      kind: "cpe",
      prod_code: "BN-CPE-500",
      address: "1 Martin Place, Sydney NSW 2000",
      latitude: -33.8675,
      longitude: 151.2099,
    });
    expect(r.body.devices.find((d: { id: string }) => d.id === nowhere)).toMatchObject({ latitude: null, longitude: null });
    expect(r.body.regions.reduce((s: number, x: { devices: number }) => s + x.devices, 0)).toBe(3);
    expect(r.body.regions.map((x: { region: string }) => x.region)).toContain("Unknown");

    const branches = await get(a, "dashboard_get_summary", {
      entity_name: "Branches",
    });
    expect(branches.body.global).toMatchObject({
      "Internet NIDs": 1,
      "Metro Ethernet NIDs": 0,
    });
    expect(branches.body.devices.map((d: { id: string }) => d.id)).toEqual([sydney]);
    const unknown = await get(a, "dashboard_get_summary", {
      entity_name: "Nope",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("Entity Nope not found.");
  });
});

describe("one device's feeds", () => {
  it("WAN Link Health and Utilization are the fleet's figures for the stored device; another account's device is 404", async () => {
    const a = await p.newAccount();
    const id = await cpe(a, "Sydney");
    const m = await metro(a, "Toronto");
    const fleet = fleetOf(p.deps);
    // The platform's figures and the fleet's at one instant: Date stands still in this test. (While
    // a device is down its current bucket, peak hour and path change from one millisecond to the next.)
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = Date.now();
    for (const node of [id, m]) {
      const h = await get(a, "dashboard_get_wan_link_health", {
        node_id: node,
        range: "1w",
      });
      expect(h.status, JSON.stringify(h.body)).toBe(200);
      const { obj, events, opts } = await fleetView(a, node);
      expect(h.body).toMatchObject({ device_id: node, range: "1w" });
      expect(h.body.health).toHaveLength(168);
      expect(h.body.health[0]).toEqual({
        timestamp: expect.any(String),
        health: expect.any(Number),
        RTT_ms: expect.any(Number),
        "Loss Rate": expect.any(Number),
      });
      // The same buckets as the fleet's.
      expect(h.body.health).toEqual(fleet.wanHealth(obj, "1w", now, events));
      // Uptime and history: the availability's record of the week ending now (availability-surfaces.test.ts compares every surface).
      const week = { start: now - 7 * 86_400_000, end: now };
      expect(h.body.uptime_percent).toBe(fleet.uptime(obj, week, now, events));
      expect(h.body.outage_history).toEqual(fleet.outageHistory(obj, week, now, opts));
      expect(h.body.performance_tests.length).toBeGreaterThanOrEqual(6);
      expect(h.body.performance_tests[0]).toEqual({
        timestamp: expect.any(String),
        "tx.mbps": expect.any(Number),
        "rx.mbps": expect.any(Number),
      });

      const u = await get(a, "dashboard_get_wan_link_utilization", {
        node_id: node,
      });
      expect(u.status).toBe(200);
      expect(u.body.range).toBe("1d");
      expect(u.body.utilization).toHaveLength(144);
      const ratios = u.body.utilization.flatMap((s: Record<string, number>) => ["rx_avg_util", "rx_peak_util", "tx_avg_util", "tx_peak_util"].map((k) => s[k]!));
      expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...ratios)).toBeLessThanOrEqual(1);
      expect(u.body.peak_hours).toEqual(fleet.peakHours(obj, "1d", now, events));

      const route = await get(a, "dashboard_get_route", { node_id: node });
      expect(route.status).toBe(200);
      expect(route.body).toEqual(fleet.route(obj, now, opts));
      // Today's path: the hops that answer now, or, while the device is down (in its outages, ~3 a
      // month: at random times in a run), where the path stopped, which may be no hop at all.
      if (fleet.currentOutage(obj, now, events) === null) expect(route.body.up_hops.length).toBeGreaterThan(2);
      else expect(route.body).toMatchObject({ up_hops: route.body.down_hops, up_timestamp_utc: route.body.down_timestamp_utc });
    }
    const other = await p.newAccount();
    for (const call of ["dashboard_get_wan_link_health", "dashboard_get_wan_link_utilization", "dashboard_get_route"]) {
      const r = await get(other, call, { node_id: id });
      expect(r.status, call).toBe(404);
    }
    expect(
      (
        await get(a, "dashboard_get_wan_link_health", {
          node_id: id,
          range: "2d",
        })
      ).body.detail[0].msg,
    ).toBe("Range must be one of: 1h, 3h, 12h, 1d, 3d, 1w");
  });

  it("the post-mortem: whole, streamed to the end (and resumed after Last-Event-ID), and a multi-page A4 PDF", async () => {
    const a = await p.newAccount();
    const id = await cpe(a, "Sydney");
    const o = await someOutage(a, id);
    const q = { node_id: id, outage_id: o.outage_id };
    const whole = await get(a, "dashboard_get_post_mortem", q);
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body).toMatchObject({
      device_id: id,
      outage_id: o.outage_id,
      start_time: o.start_time,
      end_time: o.end_time,
    });
    expect(whole.body.markdown).toContain(`# Post-mortem: outage of Sydney (${id})`);
    expect(whole.body.markdown).toContain(o.self_diagnosis);

    const res = await stream(a, q);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const evs = await events(res);
    const chunks = evs.filter((e) => e.event === "chunk");
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((e) => JSON.parse(e.data)).join("")).toBe(whole.body.markdown);
    expect(evs[evs.length - 1]).toMatchObject({
      event: "end",
      data: String(whole.body.markdown.length),
    });
    // Resumed after the second chunk (any instance: nothing is held in memory), and mid-chunk.
    const second = chunks[1]!.id!;
    const rest = (await events(await stream(a, q, second))).filter((e) => e.event === "chunk");
    expect(rest.map((e) => JSON.parse(e.data)).join("")).toBe(whole.body.markdown.slice(Number(second)));
    const mid = (await events(await stream(a, q, "250"))).filter((e) => e.event === "chunk");
    expect(mid.map((e) => JSON.parse(e.data)).join("")).toBe(whole.body.markdown.slice(250));

    const pdf = await get(a, "dashboard_get_post_mortem_pdf", q);
    expect(pdf.status).toBe(200);
    const raw = await p.app.fetch(
      new Request(`http://platform.test/api/v1/dashboard_get_post_mortem_pdf?${new URLSearchParams(q)}`, { headers: { authorization: `Bearer ${a.token}` } }),
      undefined,
    );
    expect(raw.headers.get("content-type")).toBe("application/pdf");
    expect(raw.headers.get("content-disposition")).toBe('attachment; filename="analysis.pdf"');
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const file = join(mkdtempSync(join(tmpdir(), "pm-")), "analysis.pdf");
    writeFileSync(file, bytes);
    const info = execFileSync("pdfinfo", [file]).toString();
    expect(Number(/Pages:\s+(\d+)/.exec(info)![1])).toBeGreaterThanOrEqual(2);
    expect(info).toMatch(/Page size:\s+595\.2\d? x 841\.8\d? pts \(A4\)/);
    const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString();
    expect(text).toContain("Post-mortem: outage of Sydney");
    expect(text).toContain("What failed first");
    expect(text).toContain("Appendix: the path today");
    expect(text).toMatch(/Page 1 of \d/);

    // Another device's outage, an unknown one, another account's device: 404.
    const id2 = await cpe(a, "Perth");
    expect(
      (
        await get(a, "dashboard_get_post_mortem", {
          node_id: id2,
          outage_id: o.outage_id,
        })
      ).body.detail,
    ).toBe("Outage not found.");
    expect((await stream(a, { node_id: id, outage_id: `out-${id}-r1` })).status).toBe(404);
    const other = await p.newAccount();
    expect((await get(other, "dashboard_get_post_mortem", q)).status).toBe(404);
    expect((await get(other, "dashboard_get_post_mortem_pdf", q)).status).toBe(404);
  });
});
