import { beforeAll, describe, expect, it } from "vitest";
import { consoleOnPlatform, type ConsoleOnPlatform } from "../test/console-platform.ts";

/* The nodes' Monitoring tab kept until the newest bucket ends (node-monitoring.server.ts), against the real platform. */

describe("nodeMonitoring: the session's charts kept until the bucket ends", () => {
  let mod: typeof import("./node-monitoring.server.ts");
  let c: ConsoleOnPlatform;
  let nodeId: string;

  beforeAll(async () => {
    c = await consoleOnPlatform();
    const made = await c.p.call<{ service_node_id: string }>("POST", "create-service-node", {
      token: c.account.token,
      body: { service_node_name: "Kept node", new_service_node_group: true, service_node_group_name: "Kept group" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    nodeId = made.body.service_node_id;
    mod = await import("./node-monitoring.server.ts");
  });

  const path = (query = "") => `/service-nodes?selected=${nodeId}&tab=monitoring${query}`;
  const metricsCalls = () => c.callsOf("get-node-metrics");

  it("asks the platform once, then answers a view within the bucket from memory", async () => {
    const before = metricsCalls();
    const first = await mod.nodeMonitoring(c.view(path()), nodeId, "Kept node");
    expect(first.error).toBeNull();
    expect(first.charts.length).toBeGreaterThan(0);
    const again = await mod.nodeMonitoring(c.view(path()), nodeId, "Kept node");
    expect(again.charts).toEqual(first.charts);
    expect(metricsCalls()).toBe(before + 1);
  });

  it("reads the platform for a 'Show data' table, and on the view after a change or Refresh (its flash cookie), on any instance", async () => {
    await mod.nodeMonitoring(c.view(path()), nodeId, "Kept node");
    const before = metricsCalls();
    const id = (await mod.nodeMonitoring(c.view(path()), nodeId, "Kept node")).charts[0]!.id;
    const table = await mod.nodeMonitoring(c.view(path(`&data=${id}`)), nodeId, "Kept node");
    expect(table.charts[0]!.table).toContain("<caption");
    expect(metricsCalls()).toBe(before + 1);
    await mod.nodeMonitoring(await c.afterChange(path()), nodeId, "Kept node");
    expect(metricsCalls()).toBe(before + 2);
    // What it read is kept: the next plain view answers from memory.
    await mod.nodeMonitoring(c.view(path()), nodeId, "Kept node");
    expect(metricsCalls()).toBe(before + 2);
  });
});
