import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../db/schema.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { newId } from "../lib/ids.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

async function appService(a: TestAccount, name: string) {
  const r = await p.call("POST", "create-app-service", {
    token: a.token,
    body: { app_service_name: name, location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.app_service_id as string;
}

async function endpoint(a: TestAccount, appServiceId: string, name: string) {
  const epId = newId("ep");
  await p.deps.db.insert(endpoints).values({ epId, accountId: a.accountId, epName: name, deployment: "agent", appServiceId, size: "medium" });
  return epId;
}

const day = (from: number, days: number) => ({ start_time: new Date(from).toISOString(), end_time: new Date(from + days * 86_400_000).toISOString() });
const msgs = (r: { body: { detail: unknown } }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: { msg: string }) => d.msg) : [String(r.body.detail)]);

describe("dashboard (spec 2 §7)", () => {
  it("get-account-summary counts the account's objects in SQL, 0 for kinds not built yet", async () => {
    const a = await p.newAccount();
    const empty = await get(a, "get-account-summary");
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ app_services: 0, endpoints: 0, service_nodes: 0, endpoint_nodes: 0, user_agents: 0 });
    const as = await appService(a, "CRM");
    await endpoint(a, as, "Laptops");
    await endpoint(a, as, "Branch");
    const other = await p.newAccount();
    await appService(other, "Not mine");
    const r = await get(a, "get-account-summary");
    expect(r.body).toEqual({ app_services: 1, endpoints: 2, service_nodes: 0, endpoint_nodes: 0, user_agents: 0 });
  });

  it("list-endpoint-dashboard lists the account's endpoints and app services, oldest first", async () => {
    const a = await p.newAccount();
    const as = await appService(a, "CRM");
    const ep1 = await endpoint(a, as, "Laptops");
    const r = await get(a, "list-endpoint-dashboard");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ endpoints: [{ ep_id: ep1, ep_name: "Laptops", app_service_id: as }], app_services: [{ app_service_id: as, app_service_name: "CRM" }] });
  });

  it("get-net-stats answers the fleet's series per id; another account's ids are left out; readonly can read", async () => {
    const a = await p.newAccount();
    const as = await appService(a, "CRM");
    const ep1 = await endpoint(a, as, "Laptops");
    const ep2 = await endpoint(a, as, "Branch");
    const other = await p.newAccount();
    const theirs = await endpoint(other, await appService(other, "Theirs"), "Theirs");
    const end = Date.now() - 3_600_000;
    const q = { ids: `${ep1}, ${as},${theirs},nope`, ...day(end - 86_400_000, 1) };
    const r = await get(a, "get-net-stats", q);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body)).toEqual([ep1, as]);
    expect(r.body[ep1]).toHaveLength(144);
    expect(r.body[ep1][0]).toEqual({ timestamp: expect.any(String), tx_bytes: expect.any(Number), rx_bytes: expect.any(Number) });
    // The fleet's own figures: the endpoint as top talkers sees it, the app service the sum of its endpoints.
    const fleet = fleetOf(p.deps);
    const window = { start: Date.parse(q.start_time), end: Date.parse(q.end_time) };
    expect(r.body[ep1]).toEqual(fleet.netStats([{ id: ep1, kind: "endpoint", contractedMbps: 500 }], window, Date.now())[ep1]);
    expect(r.body[as]).toEqual(fleet.netStats([{ id: as, kind: "app_service", members: [ep1, ep2] }], window, Date.now())[as]);
    expect(r.body[ep1].some((s: { rx_bytes: number }) => s.rx_bytes > 0)).toBe(true);

    const theirsOnly = await get(a, "get-net-stats", { ...q, ids: theirs });
    expect(theirsOnly.status).toBe(200);
    expect(theirsOnly.body).toEqual({});

    const ro = await p.newIamUser(a, "readonly");
    for (const call of ["get-account-summary", "list-endpoint-dashboard"]) expect((await get(ro, call)).status).toBe(200);
    const roStats = await get(ro, "get-net-stats", q);
    expect(roStats.status).toBe(200);
    expect(Object.keys(roStats.body)).toEqual([ep1, as]);
  });

  it("get-net-stats: 422 with a clear detail for > 100 ids, a malformed, reversed or > 400-day range", async () => {
    const a = await p.newAccount();
    const now = Date.now();
    const ids101 = Array.from({ length: 101 }, (_, i) => `ep-${i}`).join(",");
    const cases: [Record<string, string>, string][] = [
      [{ ids: ids101, ...day(now - 86_400_000, 1) }, "At most 100 ids may be asked for at once"],
      [{ ids: "ep-1", start_time: "yesterday", end_time: new Date(now).toISOString() }, "start_time must be an ISO 8601 time or milliseconds since the epoch"],
      [{ ids: "ep-1", start_time: new Date(now).toISOString(), end_time: new Date(now - 60_000).toISOString() }, "end_time must be after start_time"],
      [{ ids: "ep-1", ...day(now - 401 * 86_400_000, 401) }, "The range may span at most 400 days"],
      [{ ids: "ep-1" }, "Field required"],
    ];
    for (const [query, message] of cases) {
      const r = await get(a, "get-net-stats", query);
      expect(r.status, JSON.stringify(query)).toBe(422);
      expect(msgs(r)).toContain(message);
    }
    // 100 ids are fine (none of them the caller's: an empty answer).
    const ok = await get(a, "get-net-stats", { ids: ids101.split(",").slice(0, 100).join(","), ...day(now - 86_400_000, 1) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({});
    expect((await p.call("GET", "get-net-stats", { query: { ids: "x", ...day(now - 86_400_000, 1) } })).status).toBe(401);
  });

  it("the three calls are in OpenAPI", async () => {
    const a = await p.newAccount();
    const doc = await p.call("GET", "openapi.json", { token: a.token });
    for (const path of ["/get-account-summary", "/list-endpoint-dashboard", "/get-net-stats"]) expect(doc.body.paths[`/api/v1${path}`]?.get, path).toBeDefined();
    expect(doc.body.paths["/api/v1/get-net-stats"].get.parameters.map((x: { name: string }) => x.name).sort()).toEqual(["end_time", "ids", "start_time"]);
  });
});
