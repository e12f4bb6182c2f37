import { beforeAll, describe, expect, it } from "vitest";
import { consoleOnPlatform, type ConsoleOnPlatform } from "../test/console-platform.ts";

/* /dashboard's charts kept until the newest bucket ends (dashboard-traffic.server.ts), against the real platform. */

describe("the dashboard's charts: kept for the session until the bucket ends", () => {
  let data: typeof import("./dashboard-traffic.server.ts");
  let c: ConsoleOnPlatform;

  beforeAll(async () => {
    c = await consoleOnPlatform();
    const made = await c.p.call("POST", "create-app-service", {
      token: c.account.token,
      body: { app_service_name: "CRM", location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    data = await import("./dashboard-traffic.server.ts");
  });

  const statsCalls = () => c.callsOf("get-net-stats");
  const charts = (request: Request, dataParam: string | null = null) => data.charts(request, c.account.token, "1d", dataParam);

  it("asks for the traffic once, then answers a view within the bucket from memory", async () => {
    const before = statsCalls();
    const first = await charts(c.view("/dashboard?range=1d"));
    expect(first.error).toBeNull();
    expect(first.charts.some((x) => !x.chart.empty)).toBe(true);
    const again = await charts(c.view("/dashboard?range=1d"));
    expect(again.charts).toEqual(first.charts);
    expect(statsCalls()).toBe(before + 1);
  });

  it("reads afresh for a 'Show data' table and on the view after a change or Refresh (its flash cookie) on any instance", async () => {
    await charts(c.view("/dashboard?range=1d"));
    const before = statsCalls();
    const id = (await charts(c.view("/dashboard?range=1d"))).charts[0]!.id;
    expect((await charts(c.view(`/dashboard?range=1d&data=${id}`), id)).charts[0]!.table).toContain("<caption");
    expect(statsCalls()).toBe(before + 1);
    // Refresh (on this instance or another): this one still holds the charts, but the redirect's view carries the flash cookie.
    await charts(await c.afterChange("/dashboard?range=1d"));
    expect(statsCalls()).toBe(before + 2);
    // What it read is kept: the next plain view answers from memory.
    await charts(c.view("/dashboard?range=1d"));
    expect(statsCalls()).toBe(before + 2);
  });
});
