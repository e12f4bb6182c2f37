import { beforeAll, describe, expect, it } from "vitest";
import { consoleOnPlatform, type ConsoleOnPlatform } from "../../test/console-platform.ts";

/* The Monitoring tab kept until the newest bucket ends (monitoring.server.ts), against the real platform. */

describe("cpeMonitoring: the session's tab kept until the bucket ends", () => {
  let mod: typeof import("./monitoring.server.ts");
  let c: ConsoleOnPlatform;
  let cpeId: string;

  beforeAll(async () => {
    c = await consoleOnPlatform();
    const made = await c.p.call<{ cpe_id: string }>("POST", "create_cpe", { token: c.account.token, body: { cpe_name: "Kept NID", prod_code: "BN-CPE-500", site_address: "1 Quay, Dublin" } });
    cpeId = made.body.cpe_id;
    mod = await import("./monitoring.server.ts");
  });

  const view = (query = "tab=monitoring") => c.view(`/routers?selected=${cpeId}&${query}`);
  const up = (name: string) => ({ name, op_state: "up", admin_state: "active" });
  const monitoringCalls = () => c.callsOf("get_device_monitoring");

  it("asks the platform once, then answers a view within the bucket from memory", async () => {
    const before = monitoringCalls();
    expect(await mod.monitoringKept(view(), cpeId)).toBe(false);
    const first = await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(first.error).toBeNull();
    expect(first.charts.map((c) => c.id)).toEqual(["wan-health", "wan-rtt", "wan-loss", "wan-utilization"]);
    expect(await mod.monitoringKept(view(), cpeId)).toBe(true);
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
    expect(await mod.monitoringKept(view("tab=monitoring&data=wan-rtt"), cpeId)).toBe(false);
    expect(monitoringCalls()).toBe(before + 3);
  });

  it("reads the platform when the row's op or admin state changed (a device down by itself, or a change made on another instance)", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    const before = monitoringCalls();
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), op_state: "down" });
    expect(monitoringCalls()).toBe(before + 1);
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), op_state: "down" });
    expect(monitoringCalls()).toBe(before + 1);
    await mod.cpeMonitoring(view(), cpeId, { ...up("Kept NID"), op_state: "down", admin_state: "inactive" });
    expect(monitoringCalls()).toBe(before + 2);
  });

  it("reads the platform on the view after a change or Refresh (its flash cookie), on any instance", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    const afterChange = await c.afterChange(`/routers?selected=${cpeId}&tab=monitoring`);
    expect(await mod.monitoringKept(afterChange, cpeId)).toBe(false);
    const before = monitoringCalls();
    await mod.cpeMonitoring(afterChange, cpeId, up("Kept NID"));
    expect(monitoringCalls()).toBe(before + 1);
    // What it read is kept: the next plain view answers from memory.
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(monitoringCalls()).toBe(before + 1);
  });

  it("forgets the session's tabs on any change or Refresh (the screens' action guard)", async () => {
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(await mod.monitoringKept(view(), cpeId)).toBe(true);
    await mod.forgetKeptMonitoring(view());
    expect(await mod.monitoringKept(view(), cpeId)).toBe(false);
    const before = monitoringCalls();
    await mod.cpeMonitoring(view(), cpeId, up("Kept NID"));
    expect(monitoringCalls()).toBe(before + 1);
  });
});
