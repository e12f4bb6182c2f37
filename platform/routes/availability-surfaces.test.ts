import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { n3, uptimeText, type Availability, type SlaReport } from "../contract/availability.ts";
import { monthWindow } from "../domain/availability.ts";
import { recordAnnouncement } from "../domain/devices.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { createFleetClock, createInProcessBus, fleetKinds } from "../fleet/index.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { slaCsvText } from "../../app/routes/sla/csv.ts";
import { deviceMessages } from "../contract/devices.ts";

/*
 * Issue 63, "Figures a customer relies on": one record per device. For the same device and window
 * every surface that shows its outages or availability (get_availability, get_sla_report, the
 * SLA CSV and PDF, get_outage_history, each outage record's SLA impact, the WAN Link Health card,
 * the Monitoring tab) counts the same outages, to the second; a device's record starts at its
 * creation; N/A says why; announcements start from now; a device never registered is not up.
 * On PGlite and PostgreSQL.
 */

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
afterEach(() => void vi.useRealTimers());

const DAY = 86_400_000;
const HOUR = 3_600_000;
const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });
const lastMonth = (now: number) => new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const minutes = (ms: number) => Math.round((ms / 60_000) * 1000) / 1000;

async function createCpe(a: TestAccount, name: string): Promise<string> {
  const r = await post(a, "create_cpe", { cpe_name: name, prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney", latitude: -33.87, longitude: 151.21 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cpe_id as string;
}

const setCreatedAt = (id: string, at: number) => p.deps.db.execute(sql`update cpes set created_at = ${new Date(at).toISOString()}::timestamptz where cpe_id = ${id}`);

/** The PDF's text (poppler's pdftotext). */
function pdfText(pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `sla-${process.pid}-${Date.now()}.pdf`);
  try {
    fs.writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
  } finally {
    fs.rmSync(file, { force: true });
  }
}

describe("one record per device, every surface (issue 63 items 1 and 2)", () => {
  it("the outages availability counts are the outages the history lists, less announced maintenance, on every surface", async () => {
    const a = await p.newAccount();
    // Date stands still: every surface is read at the same instant.
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = Date.now();
    const month = lastMonth(now);
    const mw = monthWindow(month);
    // A device whose record began 70 days ago, with outages in the last week and last month.
    let id = "";
    for (let i = 0; i < 40 && !id; i++) {
      const candidate = await createCpe(a, `Sydney ${i}`);
      await setCreatedAt(candidate, now - 70 * DAY);
      const f = fleetOf(p.deps);
      const week = f.outages({ id: candidate, kind: "cpe" }, { start: now - 7 * DAY, end: now }, now).filter((o) => o.end <= now);
      const inMonth = f.outages({ id: candidate, kind: "cpe" }, mw, now);
      if (week.length >= 1 && inMonth.length >= 2) id = candidate;
      else expect((await post(a, "remove_cpe", { cpe_id: candidate })).status).toBe(200);
    }
    expect(id, "a device with outages last week and last month").not.toBe("");
    // Announced maintenance (history: stored as it was announced then) over part of last month's first outage.
    const monthOutages = fleetOf(p.deps).outages({ id, kind: "cpe" }, mw, now);
    const first = monthOutages[0]!;
    const mStart = Math.floor(first.start / HOUR) * HOUR;
    await recordAnnouncement(p.deps.db, a.accountId, id, new Date(mStart), 1);
    const maintEnd = mStart + HOUR;

    // --- A month: get_availability, get_sla_report, CSV, PDF, each outage record.
    const avail = (await get(a, "get_availability", { node_id: id, month })).body as Row;
    const report = (await get(a, "get_sla_report", { node_id: id, month })).body as Row;
    const { devices, ...figures } = avail;
    expect(report).toMatchObject(figures);
    expect(report.devices).toEqual(devices);
    // The list is the history's: every outage of the month, each counted outside maintenance.
    expect(report.outage_list.map((o: Row) => o.outage_id)).toEqual(monthOutages.map((o) => o.outage_id));
    const counted = monthOutages.map((o) => {
      const a0 = Math.max(mw.start, o.start);
      const b0 = Math.min(mw.end, o.end);
      const inMaint = Math.max(0, Math.min(b0, maintEnd) - Math.max(a0, mStart));
      return b0 - a0 - inMaint;
    });
    expect(report.outage_list.map((o: Row) => o.counted_minutes)).toEqual(counted.map(minutes));
    expect(avail.outages).toBe(counted.filter((c) => c > 0).length);
    expect(avail.downtime_minutes).toBe(minutes(counted.reduce((s, c) => s + c, 0)));
    expect(avail.maintenance_minutes).toBe(60);
    // The whole month counts (the record began before it), and its allowance is the month's less maintenance.
    expect(avail.window_minutes).toBe(minutes(mw.end - mw.start));
    expect(avail.slo_budget_minutes).toBe(minutes(((mw.end - mw.start - HOUR) * 0.1) / 100));
    // Each outage record's SLA impact is the report's counted minutes; the one under maintenance shows it.
    for (const o of report.outage_list as Row[]) {
      const record = (await get(a, "get_outage", { outage_id: o.outage_id })).body as Row;
      expect(record.sla_impact.month).toBe(month);
      expect(record.sla_impact.minutes).toBe(o.counted_minutes);
      if (o.outage_id === first.outage_id) expect(record.maintenance).toEqual([{ start: new Date(mStart).toISOString(), end: new Date(maintEnd).toISOString() }]);
      else if (Date.parse(o.start_time) >= maintEnd) expect(record.maintenance).toEqual([]);
    }
    // The CSV the console serves: the report's figures.
    // why the cast: the JSON answer as its contract type (openapi.test.ts validates the answers against it).
    const csv = slaCsvText(report as SlaReport)
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .map((l) => l.split(","));
    expect(csv).toHaveLength(2);
    const col = (h: string) => csv[1]![csv[0]!.indexOf(h)];
    expect(col("Availability excl. maintenance (%)")).toBe(String(avail.uptime_percent));
    expect(col("Downtime (minutes)")).toBe(String(avail.downtime_minutes));
    expect(col("Outages")).toBe(String(avail.outages));
    expect(col("Announced Maintenance (minutes)")).toBe("60");
    expect(col("SLO Budget (minutes)")).toBe(String(avail.slo_budget_minutes));
    // The PDF's text (pdftotext): the same figures and every outage with its counted minutes.
    const res = await p.app.fetch(new Request(`http://platform.test/api/v1/get_sla_report_pdf?node_id=${id}&month=${month}`, { headers: { authorization: `Bearer ${a.token}` } }));
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    // why the cast: as above.
    expect(text).toContain(`Availability ${uptimeText(avail as Availability, true)} (excl. maintenance)`);
    expect(text).toContain(`Downtime counted (minutes) ${n3(avail.downtime_minutes)}`);
    expect(text).toContain(`Outages counted ${avail.outages}`);
    expect(text).toContain(`budget (minutes) ${n3(avail.slo_budget_minutes)}`);
    expect(text).toContain(`Outages (${monthOutages.length})`);
    // Each outage's counted minutes (a cell may wrap its "(maintenance)" note onto the next line).
    for (const o of report.outage_list as Row[]) expect(text).toContain(` ${n3(o.counted_minutes)}`);

    // --- A named range: get_availability, the Outage History, the WAN Link Health card, the Monitoring tab.
    const week = (await get(a, "get_availability", { node_id: id, range: "1w" })).body as Row;
    const history = (await get(a, "get_outage_history", { node_id: id, range: "1w" })).body as Row[];
    const card = (await get(a, "dashboard_get_wan_link_health", { node_id: id, range: "1w" })).body as Row;
    const tab = (await get(a, "get_device_monitoring", { node_id: id, range: "1w" })).body as Row;
    const weekOutages = fleetOf(p.deps).outages({ id, kind: "cpe" }, { start: now - 7 * DAY, end: now }, now);
    const listed = [...new Set(history.map((h) => h.outage_id))];
    expect(listed.sort()).toEqual(weekOutages.map((o) => o.outage_id).sort());
    expect(week.outages).toBe(listed.length);
    // Each outage's part in the week, less the announced hour where last month's first outage falls in the week too.
    const overlap = (from: number, to: number, a0: number, a1: number) => Math.max(0, Math.min(to, a1) - Math.max(from, a0));
    const weekFrom = now - 7 * DAY;
    const countedInWeek = (o: { start: number; end: number }) => {
      const from = Math.max(weekFrom, o.start);
      const to = Math.min(now, o.end);
      return Math.max(0, to - from) - overlap(from, to, mStart, maintEnd);
    };
    expect(week.downtime_minutes).toBe(minutes(weekOutages.reduce((s, o) => s + countedInWeek(o), 0)));
    expect(week.window_minutes).toBe(7 * 1440);
    // 0.1 % of the week's counted time: the announced hour, where it falls in the week, is not counted.
    expect(week.slo_budget_minutes * 60).toBeCloseTo((7 * 1440 * 60 - overlap(weekFrom, now, mStart, maintEnd) / 1000) * 0.001, 3);
    expect(card.outage_history).toEqual(history);
    expect(card.uptime_percent).toBe(week.uptime_percent);
    expect(card.connection_status.history.filter((h: Row) => h.status === "down").map((h: Row) => h["@timestamp"])).toEqual(history.filter((h) => h.status === "down").map((h) => h.timestamp));
    expect(card.connection_status.percent).toBe(week.uptime_percent);
    expect(tab.uptime_percent).toBe(week.uptime_percent);
    // A one-hour window allows 3.6 seconds at 99.9 %.
    expect((((await get(a, "get_availability", { node_id: id, range: "1h" })).body as Row).slo_budget_minutes * 60) as number).toBeCloseTo(3.6, 3);
  });

  it("a device created now has no past outages on any surface; its record starts at its creation", async () => {
    const a = await p.newAccount();
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = Date.now();
    // A device whose id has outages in the last week: created an hour ago, none of them is its.
    let id = "";
    for (let i = 0; i < 40 && !id; i++) {
      const candidate = await createCpe(a, `New ${i}`);
      if (fleetOf(p.deps).outages({ id: candidate, kind: "cpe" }, { start: now - 7 * DAY, end: now - 2 * HOUR }, now).length) id = candidate;
      else expect((await post(a, "remove_cpe", { cpe_id: candidate })).status).toBe(200);
    }
    expect(id).not.toBe("");
    await setCreatedAt(id, now - HOUR);
    const history = (await get(a, "get_outage_history", { node_id: id, range: "1w" })).body as Row[];
    const week = (await get(a, "get_availability", { node_id: id, range: "1w" })).body as Row;
    const card = (await get(a, "dashboard_get_wan_link_health", { node_id: id, range: "1w" })).body as Row;
    expect(history.filter((h) => Date.parse(h.timestamp) < now - HOUR)).toEqual([]);
    expect(card.outage_history).toEqual(history);
    expect(card.health.filter((h: Row) => Date.parse(h.timestamp) < now - 2 * HOUR && h.health === 0)).toEqual([]);
    expect(week.devices[0].counted_from).toBe(new Date(now - HOUR).toISOString());
    expect(week.outages).toBe(new Set(history.map((h) => h.outage_id)).size);
    // The allowance stays the week's.
    expect(week.slo_budget_minutes * 60).toBeCloseTo(604.8, 3);
  });
});

describe("N/A says why (issue 63 item 3)", () => {
  it("a month before the device's record is 'no monitoring data', not announced maintenance", async () => {
    const a = await p.newAccount();
    const id = await createCpe(a, "Fresh");
    const r = (await get(a, "get_availability", { node_id: id, month: lastMonth(Date.now()) })).body as Row;
    expect(r).toMatchObject({ uptime_percent: null, na_reason: "no_data", maintenance_minutes: 0, window_minutes: 0, slo_met: null });
    // why the cast: the JSON answer as its contract type.
    expect(uptimeText(r as Availability)).toBe("N/A: no monitoring data in that month");
    const res = await p.app.fetch(
      new Request(`http://platform.test/api/v1/get_sla_report_pdf?node_id=${id}&month=${lastMonth(Date.now())}`, { headers: { authorization: `Bearer ${a.token}` } }),
    );
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain("N/A: no monitoring data in that month");
    // (a sentence may wrap across lines)
    expect(text.replace(/\s+/g, " ")).toContain("The device's record starts after this window: there is no monitoring data to count.");
    expect(text).not.toContain("announced maintenance (excl.");
  });
});

describe("announcements start from now (issue 63 item 4)", () => {
  it("a start before now (2020, the last hour) is refused with a 422 on start_time; the next hour is accepted; both kinds", async () => {
    const a = await p.newAccount();
    const cpe = await createCpe(a, "Announced");
    const metro = await post(a, "create_metro", { metro_name: "Announced metro", prod_code: "BN-METRO-1000", site_address: "Am Sandtorkai 50, Hamburg", latitude: 53.54, longitude: 9.99 });
    expect(metro.status, JSON.stringify(metro.body)).toBe(200);
    const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
    for (const [call, key, id] of [
      ["cpe_add_announcement", "cpe_id", cpe],
      ["metro_add_announcement", "metro_id", metro.body.metro_id as string],
    ] as const) {
      for (const start of ["2020-01-01T00:00:00Z", new Date(thisHour).toISOString()]) {
        const r = await post(a, call, { [key]: id, start_time: start, duration: 2 });
        expect(r.status, `${call} ${start}`).toBe(422);
        expect(r.body.detail).toEqual([{ loc: ["body", "start_time"], msg: deviceMessages.announcementPast, type: "value_error" }]);
      }
      const ok = await post(a, call, { [key]: id, start_time: new Date(thisHour + HOUR).toISOString(), duration: 2 });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    }
    const rows = await p.deps.db.execute(sql`select count(*)::int as n from device_announcements where account_id = ${a.accountId}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
  });
});

describe("a device never registered is not up (issue 63 item 5)", () => {
  it("the clock leaves ordered devices without op state; Devices Up counts registered ones; op_state_change_at is never before created_at", async () => {
    const a = await p.newAccount();
    const ordered = await createCpe(a, "Ordered");
    const metro = await post(a, "create_metro", { metro_name: "Metro new", prod_code: "BN-METRO-1000", site_address: "Gustav Mahlerplein 2, Amsterdam", latitude: 52.34, longitude: 4.87 });
    expect(metro.status).toBe(200);
    const registered = await createCpe(a, "Registered");
    // Registered through its token, as a device does.
    const token = await post(a, "generate_node_token", { node_id: registered });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect((await p.call("POST", "register_node", { body: { token: token.body.token } })).status).toBe(200);
    // A device of an earlier version: ordered but stored 'up', with a change time before its creation.
    await p.deps.db.execute(sql`update cpes set op_state = 'up', op_state_change_at = created_at - interval '6 hours' where cpe_id = ${ordered}`);

    const clock = createFleetClock({ db: p.deps.db, fleet: fleetOf(p.deps), kinds: fleetKinds, bus: createInProcessBus() });
    await clock.tick();
    await clock.stop();

    const states = await p.deps.db.execute(
      sql`select cpe_id as id, op_state, op_state_change_at >= created_at as after from cpes where account_id = ${a.accountId} union all select metro_id, op_state, op_state_change_at >= created_at from metros where account_id = ${a.accountId}`,
    );
    const byId = Object.fromEntries((states as unknown as { rows: { id: string; op_state: string | null; after: boolean | null }[] }).rows.map((r) => [r.id, r]));
    expect(byId[metro.body.metro_id]!.op_state).toBeNull();
    expect(["up", "down"]).toContain(byId[registered]!.op_state);
    expect(byId[registered]!.after).toBe(true);

    // Every surface: the device tables, the dashboard's counts and map, the Monitoring tab.
    const summary = (await get(a, "dashboard_get_summary")).body as Row;
    expect(summary.global["Devices Up"] + summary.global["Devices Down"]).toBe(1);
    expect(summary.devices.find((d: Row) => d.id === ordered).op_state).toBeNull();
    expect(summary.devices.find((d: Row) => d.id === metro.body.metro_id).op_state).toBeNull();
    const list = (await get(a, "get_cpe")).body as Row[];
    expect(list.find((d) => d.cpe_id === ordered)).toMatchObject({ op_state: null, op_state_change_at: null, state: "ordered" });
    expect(list.find((d) => d.cpe_id === registered)!.state).toBe("registered");
    const metros = (await get(a, "get_metro")).body as Row[];
    expect(metros.find((d) => d.metro_id === metro.body.metro_id)).toMatchObject({ op_state: null });
    expect(((await get(a, "get_device_monitoring", { node_id: ordered, range: "1h" })).body as Row).op_state).toBeNull();
    expect(["up", "down"]).toContain(((await get(a, "get_device_monitoring", { node_id: registered, range: "1h" })).body as Row).op_state);
    // A change time stored before the device existed (an earlier clock's) never reads before its creation.
    await p.deps.db.execute(sql`update cpes set op_state_change_at = created_at - interval '6 hours' where cpe_id = ${registered}`);
    const row = ((await get(a, "get_cpe")).body as Row[]).find((d) => d.cpe_id === registered)!;
    expect(Date.parse(row.op_state_change_at)).toBeGreaterThanOrEqual(Date.parse(row.created_at));
    // A tracking number does not unregister a registered device.
    expect((await post(a, "update_cpe_shipping_info", { cpe_id: registered, tracking_number: "1Z999" })).status).toBe(200);
    expect(((await get(a, "get_cpe")).body as Row[]).find((d) => d.cpe_id === registered)!.state).toBe("registered");
  });
});
