import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { appServices } from "../db/schema.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/*
 * Issue #27 item 8: Test Reachability has one rule on both calls. A measurement changes nothing
 * (no health written), so, like a read, readonly users may run it, on an endpoint and on an app
 * service alike; a malformed body is 422 for both, a missing subject 404 for both.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });

async function setup() {
  const owner = await p.newAccount();
  const as = await post(owner, "create-app-service", {
    app_service_name: "Latency svc",
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718",
    port: 443,
  });
  expect(as.status, JSON.stringify(as.body)).toBe(200);
  const appServiceId = as.body.app_service_id as string;
  const ep = await post(owner, "create-endpoint", { ep_name: "Cloud", app_service_id: appServiceId, deployment: "aws", region: "us-east-1", consumer_principle: "arn:aws:iam::123456789012:root" });
  expect(ep.status, JSON.stringify(ep.body)).toBe(200);
  const readonly = await p.newIamUser(owner, "readonly");
  return { owner, readonly, appServiceId, epId: ep.body.ep_id as string };
}

describe("#27 item 8: Test Reachability, one rule for both calls", () => {
  it("readonly users may measure an endpoint and an app service alike", async () => {
    const { readonly, appServiceId, epId } = await setup();
    const ep = await post(readonly, "measure-endpoint-latency", { ep_id: epId });
    const as = await post(readonly, "measure-app-service-latency", { app_service_id: appServiceId });
    expect(ep.status, JSON.stringify(ep.body)).toBe(200);
    expect(as.status, JSON.stringify(as.body)).toBe(200);
  });

  it("answers the same statuses for the same faults", async () => {
    const { owner, readonly } = await setup();
    for (const who of [owner, readonly]) {
      const ep = await post(who, "measure-endpoint-latency", {});
      const as = await post(who, "measure-app-service-latency", {});
      expect([ep.status, as.status]).toEqual([422, 422]);
      const ep404 = await post(who, "measure-endpoint-latency", { ep_id: "ep-nope" });
      const as404 = await post(who, "measure-app-service-latency", { app_service_id: "as-nope" });
      expect([ep404.status, as404.status]).toEqual([404, 404]);
    }
  });

  it("writes nothing: the app service's stored health is unchanged", async () => {
    const { owner, appServiceId } = await setup();
    await p.deps.db.update(appServices).set({ health: 7 }).where(eq(appServices.appServiceId, appServiceId));
    const r = await post(owner, "measure-app-service-latency", { app_service_id: appServiceId });
    expect(r.status).toBe(200);
    const [row] = await p.deps.db.select({ health: appServices.health }).from(appServices).where(eq(appServices.appServiceId, appServiceId));
    expect(Number(row.health)).toBe(7);
  });
});
