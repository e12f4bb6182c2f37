import { beforeAll, describe, expect, it } from "vitest";
import { consoleOnPlatform, type ConsoleOnPlatform } from "../test/console-platform.ts";

/* The devices' Monitoring tab kept until the newest bucket ends (device-monitoring.server.ts), against the real platform. */

describe("cpeMonitoring: the session's tab kept until the bucket ends", () => {
  let mod: typeof import("./device-monitoring.server.ts");
  let c: ConsoleOnPlatform;
  let cpeId: string;

  beforeAll(async () => {
    c = await consoleOnPlatform();
    const made = await c.p.call<{ cpe_id: string }>("POST", "create_cpe", { token: c.account.token, body: { cpe_name: "Kept NID", prod_code: "BN-CPE-500", site_address: "1 Quay, Dublin" } });
    cpeId = made.body.cpe_id;
    mod = await import("./device-monitoring.server.ts");
  });

  const view = (query = "tab=monitoring") => c.view(`/routers?selected=${cpeId}&${query}`);
  /** Whether the tab is kept: earlyMonitoring starts no call for a kept tab (one it starts is awaited, so that it is counted now). */
  const kept = async (request: Request) => {
    const early = await mod.earlyMonitoring(request, cpeId);
    await early?.answer;
    return early === null;
  };
  const up = (name: string) => ({ name, op_state: "up", admin_state: "active" });
  const monitoringCalls = () => c.callsOf("get_device_monitoring");

  it("asks the platform once, then answers a view within the bucket from memory", async () => {
    const before = monitoringCalls();
    // Not kept: the loader's early call starts at once, and the tab uses it.
    const early = await mod.earlyMonitoring(view(), cpeId);
    expect(early).not.toBeNull();
    const first = await mod.cpeMonitoring(view(), cpeId, up("Kept NID"), early);
    expect(first.error).toBeNull();
    expect(first.charts.map((c) => c.id)).toEqual(["wan-health", "wan-rtt", "wan-loss", "wan-utilization"]);
    expect(await kept(view())).toBe(true);
    const again = await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(again).toBe(first);
    expect(monitoringCalls()).toBe(before + 1);
  });

  it("reads the platform for another range, a renamed device, or a 'Show data' table", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    const before = monitoringCalls();
    expect((await mod.cpeMonitoring(view("tab=monitoring&range=1h"), cpeId, up("Kept NID"))).range).toBe("1h");
    const renamed = await mod.cpeMonitoring(view(), cpeId, up("Renamed NID"));
    expect(renamed.charts[0]!.chart.title).toBe("Renamed NID: WAN link health");
    const table = await mod.cpeMonitoring(view("tab=monitoring&data=wan-rtt"), cpeId, up("Renamed NID"));
    expect(table.charts.find((c) => c.id === "wan-rtt")!.table).toContain("<caption");
    const withTable = await mod.earlyMonitoring(view("tab=monitoring&data=wan-rtt"), cpeId);
    expect(withTable).not.toBeNull();
    await withTable!.answer;
    expect(monitoringCalls()).toBe(before + 4);
  });

  it("reads the platform when the row's op or admin state changed (a device down by itself, or a change made on another instance)", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    const before = monitoringCalls();
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), admin_state: "inactive" });
    expect(monitoringCalls()).toBe(before + 1);
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), admin_state: "inactive" });
    expect(monitoringCalls()).toBe(before + 1);
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), op_state: "down", admin_state: "inactive" });
    expect(monitoringCalls()).toBe(before + 2);
  });

  it("reads the platform on every view of a device that stays down (its uptime falls by the second, not at the bucket's end)", async () => {
    const down = { ...up("Kept NID"), op_state: "down" };
    await mod.cpeMonitoring(view(), cpeId, down);
    const before = monitoringCalls();
    await mod.cpeMonitoring(view(), cpeId, down);
    await mod.cpeMonitoring(view(), cpeId, down);
    expect(monitoringCalls()).toBe(before + 2);
    // Nor does the loader's early call find it kept.
    expect(await kept(view())).toBe(false);
    // Up again: kept as before.
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(await kept(view())).toBe(true);
  });

  it("reads the platform on the view after a change or Refresh (its flash cookie), on any instance", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    const afterChange = await c.afterChange(`/routers?selected=${cpeId}&tab=monitoring`);
    const before = monitoringCalls();
    const early = await mod.earlyMonitoring(afterChange, cpeId);
    expect(early).not.toBeNull();
    await mod.cpeMonitoring(afterChange, cpeId, up("Kept NID"), early);
    expect(monitoringCalls()).toBe(before + 1);
    // What it read is kept: the next plain view answers from memory.
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(monitoringCalls()).toBe(before + 1);
  });

  it("drops all of the session's kept tabs on the view after a change or Refresh, whatever device it shows", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    await mod.cpeMonitoring(view("tab=monitoring&range=1h"), cpeId, up("Kept NID"));
    expect(await kept(view())).toBe(true);
    // The view after a change on another device of the session's (or the list without a selection).
    await mod.earlyMonitoring(await c.afterChange("/routers"), "cpe-another");
    expect(await kept(view())).toBe(false);
    expect(await kept(view("tab=monitoring&range=1h"))).toBe(false);
  });

  it("hands the early call only to the device it was started for", async () => {
    const early = await mod.earlyMonitoring(view("tab=monitoring&range=3h"), cpeId);
    expect(early?.deviceId).toBe(cpeId);
    await early!.answer;
    const before = monitoringCalls();
    const other = await mod.cpeMonitoring(view("tab=monitoring&range=3h"), cpeId, up("Kept NID"), { deviceId: "cpe-another", answer: early!.answer });
    expect(other.error).toBeNull();
    expect(monitoringCalls()).toBe(before + 1);
  });
});
