import { beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp, type PlatformApp } from "../app.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";

// The caller cache (lib/auth.ts) is on for the embedded PGlite platform. The harness turns it off
// (its tests write to the database directly); here a second app over the same database has it on,
// and every change that could affect a token must still be seen at once.
describe("the caller cache", () => {
  let p: TestPlatform;
  let app: PlatformApp;
  const call = async (method: "GET" | "POST", path: string, token: string, body?: unknown) => {
    const res = await app.fetch(
      new Request(`http://platform.test/api/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    p = await testPlatform();
    app = createPlatformApp({ ...p.deps, config: { ...p.deps.config, cacheCallers: true } });
  });

  it("serves repeated calls with the same token, and a logged-out token is refused at once", async () => {
    const owner = await p.newAccount();
    for (let i = 0; i < 3; i++) expect((await call("GET", "list-account", owner.token)).status).toBe(200);
    expect((await call("POST", "logout", owner.token, {})).status).toBe(200);
    expect((await call("GET", "list-account", owner.token)).status).toBe(401);
  });

  it("an IAM user made readonly cannot change anything on the next call", async () => {
    const owner = await p.newAccount();
    const admin = await p.newIamUser(owner, "admin");
    const create = (name: string) => call("POST", "create_entity", admin.token, { entity_name: name });
    expect((await call("GET", "list-account", admin.token)).body.iam_user.role).toBe("admin");
    expect((await create(`Site ${Date.now()}`)).status).toBe(200);
    const demoted = await call("POST", "iam-user-update-role", owner.token, { iam_user_id: admin.iamUserId, new_role: "readonly" });
    expect(demoted.status).toBe(200);
    expect((await create(`Site ${Date.now()} b`)).status).toBe(403);
  });

  it("a removed IAM user's token stops working at once", async () => {
    const owner = await p.newAccount();
    const user = await p.newIamUser(owner, "readonly");
    expect((await call("GET", "list-account", user.token)).status).toBe(200);
    expect((await call("POST", "remove-iam-user", owner.token, { iam_user_id: user.iamUserId })).status).toBe(200);
    expect((await call("GET", "list-account", user.token)).status).toBe(401);
  });
});
