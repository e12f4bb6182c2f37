import { beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp, type PlatformApp } from "../app.ts";
import { eq } from "drizzle-orm";
import { contacts, entities } from "../db/schema.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { createFleetClock, createInProcessBus, createKindRegistry } from "../fleet/index.ts";
import { fleetKinds } from "../fleet/kinds.ts";
import { fleetOf } from "../fleet/runtime.ts";
// The device kinds register themselves with the fleet clock here (the test takes the CPE source).
import { deviceEvents } from "../domain/devices.ts";
import { cachedJson, forgetCachedReads } from "./auth.ts";
import type { PlatformDeps } from "./context.ts";

// The caller cache (lib/auth.ts) is on for the embedded PGlite platform. The harness turns it off
// (its tests write to the database directly); here a second app over the same database has it on,
// and every change that could affect a token must still be seen at once.
describe.each(["local", "shared"] as const)("the caller cache (%s)", (mode) => {
  let p: TestPlatform;
  let app: PlatformApp;
  let deps: PlatformDeps;
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
    deps = { ...p.deps, config: { ...p.deps.config, cacheCallers: mode } };
    app = createPlatformApp(deps);
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

  // The read cache (cachedJson): the shell's list-account and the screens' lists between writes.
  const contact = (name: string) => ({ first_name: name, last_name: "Cache", email: `${name.toLowerCase()}@cache.test`, contact_type: "technical", entity_name: "Cache HQ" });
  const withEntity = async <T extends { token: string }>(account: T) => {
    expect((await call("POST", "create_entity", account.token, { entity_name: "Cache HQ" })).status).toBe(200);
    return account;
  };

  it("a remembered list shows a change at once, whoever made it", async () => {
    const owner = await withEntity(await p.newAccount());
    const admin = await p.newIamUser(owner, "admin");
    const names = async (token: string) => ((await call("GET", "get-contact", token)).body as any[]).map((c) => c.first_name).sort();
    expect(await names(owner.token)).toEqual([]);
    expect(await names(owner.token)).toEqual([]);
    expect((await call("POST", "create-contact", admin.token, contact("Ada"))).status).toBe(200);
    expect(await names(owner.token)).toEqual(["Ada"]);
    const [ada] = (await call("GET", "get-contact", owner.token)).body as any[];
    expect((await call("POST", "update-contact", owner.token, { contact_id: ada.contact_id, first_name: "Grace", email: ada.email, contact_type: "technical" })).status).toBe(200);
    expect(await names(admin.token)).toEqual(["Grace"]);
    expect((await call("POST", "remove-contact", owner.token, { contact_id: ada.contact_id })).status).toBe(200);
    expect(await names(owner.token)).toEqual([]);
  });

  it("a remembered page of a paged list shows a change at once", async () => {
    const owner = await withEntity(await p.newAccount());
    const page = async () => (await call("GET", "get-contact?page=1&size=10&sort=first_name", owner.token)).body as { items: any[]; total: number };
    expect((await page()).total).toBe(0);
    expect((await call("POST", "create-contact", owner.token, contact("Ada"))).status).toBe(200);
    expect((await page()).items.map((c) => c.first_name)).toEqual(["Ada"]);
    expect((await page()).total).toBe(1);
    const entity = ((await call("GET", "get_entity?page=1&size=10", owner.token)).body as { items: any[] }).items[0];
    expect((await call("POST", "edit_entity_description", owner.token, { entity_id: entity.entity_id, description: "Changed" })).status).toBe(200);
    const changed = ((await call("GET", "get_entity?page=1&size=10", owner.token)).body as { items: any[] }).items[0];
    expect(changed.description).toBe("Changed");
  });

  it("never answers one account's or one user's remembered read to another", async () => {
    const a = await withEntity(await p.newAccount());
    const b = await p.newAccount();
    expect((await call("POST", "create-contact", a.token, contact("Alice"))).status).toBe(200);
    expect(((await call("GET", "get-contact", a.token)).body as any[]).length).toBe(1);
    expect((await call("GET", "get-contact", b.token)).body).toEqual([]);
    const user = await p.newIamUser(a, "readonly");
    expect((await call("GET", "list-account", a.token)).body.iam_user).toBeNull();
    expect((await call("GET", "list-account", user.token)).body.iam_user.iam_user_id).toBe(user.iamUserId);
    expect((await call("GET", "list-account", a.token)).body.iam_user).toBeNull();
  });

  // The device reads remember their rows (Remember) and add the fleet's figures after: a change to
  // the rows, by a call or by the fleet clock, is seen by the next read.
  const cpe = async (token: string, name: string) => {
    const r = await call("POST", "create_cpe", token, { cpe_name: name, prod_code: "BN-CPE-500", site_address: "1 Cache Street, Dublin", latitude: 53.35, longitude: -6.26 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.cpe_id as string;
  };
  const thresholds = { tcp_syn_flood_thresholds: { alert_threshold: 900, block_threshold: 1900, max_threshold: 2900 }, udp_thresholds: { alert_threshold: 800, block_threshold: 1800, max_threshold: 2800 }, icmp_thresholds: { alert_threshold: 700, block_threshold: 1700, max_threshold: 2700 } };

  it("a device's remembered rows show a change made through a call at once", async () => {
    const owner = await p.newAccount();
    const id = await cpe(owner.token, "Cache NID");
    const reads = async () => {
      const [detail, monitoring, health, ddos, names, availability] = await Promise.all([
        call("GET", `get_cpe_detail?cpe_id=${id}`, owner.token),
        call("GET", `get_device_monitoring?node_id=${id}&range=1d`, owner.token),
        call("GET", `dashboard_get_wan_link_health?node_id=${id}&range=1d`, owner.token),
        call("GET", `dashboard_get_ddos?node_id=${id}&range=1d`, owner.token),
        call("GET", "dashboard_get_device_names", owner.token),
        call("GET", `get_availability?node_id=${id}&range=1d`, owner.token),
      ]);
      for (const r of [detail, monitoring, health, ddos, names, availability]) expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { detail: detail.body, monitoring: monitoring.body, health: health.body, ddos: ddos.body, names: names.body, availability: availability.body };
    };
    const before = await reads();
    expect(await reads()).toMatchObject({ detail: { cpe_name: "Cache NID", announcements: [] }, monitoring: { announcements: [] }, ddos: { malicious_ip_block_enabled: false } });
    expect(before.names.cpe).toEqual([{ name: "Cache NID", id }]);

    const start = new Date(Date.now() + 86_400_000).toISOString().slice(0, 13) + ":00:00Z";
    expect((await call("POST", "cpe_add_announcement", owner.token, { cpe_id: id, start_time: start, duration: 2 })).status).toBe(200);
    expect((await call("POST", `set_cpe_denial_of_service_thresholds?cpe_id=${id}`, owner.token, thresholds)).status).toBe(200);
    expect((await call("POST", "toggle_cpe_malicious_ip_block", owner.token, { cpe_id: id, enabled: true })).status).toBe(200);
    const info = { cpe_id: id, cpe_name: "Renamed NID", site_address: "2 Cache Street, Dublin", provider_service_id: "", client_circuit_id: "", ping_dns_ip: "", ping_email_notification: false, ping_webhook_notification: false, ping_gw_ip: "" };
    expect((await call("POST", "update_cpe_info", owner.token, info)).status).toBe(200);
    const after = await reads();
    expect(after.detail.cpe_name).toBe("Renamed NID");
    expect(after.detail.announcements.map((a: any) => a.duration)).toEqual([2]);
    expect(after.monitoring.announcements).toEqual(after.detail.announcements);
    expect(after.detail.ddos_thresholds).toEqual(thresholds);
    expect(after.detail.malicious_ip_block_enabled).toBe(true);
    expect(after.ddos.malicious_ip_block_enabled).toBe(true);
    expect(after.names.cpe).toEqual([{ name: "Renamed NID", id }]);
    expect(after.availability.name).toBe("Renamed NID");

    expect((await call("POST", "remove_cpe", owner.token, { cpe_id: id })).status).toBe(200);
    expect((await call("GET", `get_cpe_detail?cpe_id=${id}`, owner.token)).status).toBe(404);
    expect((await call("GET", `get_device_monitoring?node_id=${id}&range=1d`, owner.token)).status).toBe(404);
    expect((await call("GET", "dashboard_get_device_names", owner.token)).body.cpe).toEqual([]);
  });

  it("a device's remembered rows show the fleet clock's op state change at once", async () => {
    const owner = await p.newAccount();
    const id = await cpe(owner.token, "Clock NID");
    // The device registers (a device never registered has no op state for the clock to move).
    const token = await call("POST", "generate_node_token", owner.token, { node_id: id });
    expect((await call("POST", "register_node", owner.token, { token: token.body.token })).status).toBe(200);
    const opState = async () => {
      const [detail, summary] = await Promise.all([call("GET", `get_cpe_detail?cpe_id=${id}`, owner.token), call("GET", "dashboard_get_summary", owner.token)]);
      expect(summary.body.devices.map((d: any) => d.op_state)).toEqual([detail.body.op_state]);
      return detail.body.op_state as string | null;
    };
    // Remembered before the clock first sets it (N/A)...
    expect(await opState()).toBeNull();
    expect(await opState()).toBeNull();
    // ...then the clock, over this account's devices only (other tests' rows are theirs), sets it as
    // the running platform's does, telling the read cache.
    const source = fleetKinds.list().find((k) => k.kind === "cpe")!;
    const kinds = createKindRegistry();
    kinds.register({ ...source, list: async (db) => (await source.list(db)).filter((o) => o.accountId === owner.accountId) });
    const replayMs = 10 * 60_000;
    const told: string[][] = [];
    const clock = createFleetClock({ db: deps.db, fleet: fleetOf(deps), kinds, bus: createInProcessBus(), replayMs, onChange: (ids) => (told.push(ids), forgetCachedReads(deps, ids)) });
    // The first tick replays the last ten minutes: an outage start or end in them is a change each
    // (a short outage, both: at random times in a run); else the one change is today's state.
    const at = Date.now();
    const events = (await deviceEvents(deps.db, [id]))[id];
    expect((await clock.tick(at)).changes).toBe(Math.max(1, fleetOf(deps).transitions({ id, kind: "cpe" }, at - replayMs, at, events).length));
    await clock.stop();
    // The clock names the accounts whose devices it changed: the platform forgets only theirs.
    expect(told).toEqual([[owner.accountId]]);
    const now = await opState();
    expect(now === "up" || now === "down").toBe(true);
  });

  it("a remembered service node detail shows its removal at once", async () => {
    const owner = await p.newAccount();
    const made = await call("POST", "create-service-node", owner.token, { service_node_name: "Cache node", new_service_node_group: true, service_node_group_name: `Cache group ${Date.now()}` });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const detail = () => call("GET", `get_service_node_detail?service_node_id=${made.body.service_node_id}`, owner.token);
    expect((await detail()).body.service_node_name).toBe("Cache node");
    expect((await detail()).status).toBe(200);
    expect((await call("POST", "remove_service_node", owner.token, { service_node_id: made.body.service_node_id })).status).toBe(200);
    expect((await detail()).status).toBe(404);
  });

  it("a write forgets its caller's account's reads only; a public call and a change outside a call without accounts, every account's", async () => {
    const a = await withEntity(await p.newAccount());
    const b = await withEntity(await p.newAccount());
    expect((await call("POST", "create-contact", b.token, contact("Bob"))).status).toBe(200);
    const bNames = async () => ((await call("GET", "get-contact", b.token)).body as any[]).map((c) => c.first_name);
    expect(await bNames()).toEqual(["Bob"]);
    const [bob] = (await call("GET", "get-contact", b.token)).body as any[];
    // B's row changes without a platform call: B's remembered answer shows whether it was forgotten.
    const rename = (name: string) => p.deps.db.update(contacts).set({ firstName: name }).where(eq(contacts.contactId, bob.contact_id));
    await rename("Robert");
    expect(await bNames()).toEqual(["Bob"]);
    // A's writes (a change, a refused one, a logout) leave B's answers alone...
    expect((await call("POST", "create-contact", a.token, contact("Ada"))).status).toBe(200);
    expect((await call("POST", "create-contact", a.token, { first_name: "" })).status).toBe(422);
    expect(((await call("GET", "get-contact", a.token)).body as any[]).map((c) => c.first_name)).toEqual(["Ada"]);
    const aSecond = await p.newIamUser(a, "admin");
    expect((await call("POST", "logout", aSecond.token, {})).status).toBe(200);
    expect(await bNames()).toEqual(["Bob"]);
    // ...and so does forgetting A's alone (what the fleet clock does for the accounts it changed)...
    await forgetCachedReads(deps, [a.accountId]);
    expect(await bNames()).toEqual(["Bob"]);
    // ...while forgetting B's shows the change.
    await forgetCachedReads(deps, [b.accountId]);
    expect(await bNames()).toEqual(["Robert"]);
    // A public call may change any account (a sign-in, a password reset, a webhook): every account's
    // answers go, even for a call that fails.
    await rename("Bobby");
    expect(await bNames()).toEqual(["Robert"]);
    const res = await app.fetch(new Request("http://platform.test/api/v1/token", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "nobody@cache.test", password: "wrong" }) }));
    expect(res.status).toBe(401);
    expect(await bNames()).toEqual(["Bobby"]);
    // B's own write forgets B's answers.
    await rename("Roberto");
    expect(await bNames()).toEqual(["Bobby"]);
    expect((await call("POST", "create-contact", b.token, contact("Carol"))).status).toBe(200);
    expect((await bNames()).sort()).toEqual(["Carol", "Roberto"]);
  });

  it("keeps no answer read while its account was being written; another account's write does not stop it being kept", async () => {
    const a = await withEntity(await p.newAccount());
    const b = await withEntity(await p.newAccount());
    // A read whose computing waits, mid-way, for the test to let it go (a slow list, say).
    let release = () => {};
    let waiting = Promise.resolve();
    // Its own app over the same deps (so the same cache): routes can be added only before a first call.
    const own = createPlatformApp(deps);
    own.get("/__slow-contacts", (c) =>
      cachedJson(c, async () => {
        const rows = await p.deps.db.select({ name: contacts.firstName }).from(contacts).where(eq(contacts.accountId, c.get("caller")!.accountId));
        await waiting;
        return rows.map((r) => r.name).sort();
      }),
    );
    const slow = async (who: { token: string }) =>
      (await (await own.fetch(new Request("http://platform.test/api/v1/__slow-contacts", { headers: { authorization: `Bearer ${who.token}` } }))).json()) as string[];
    const hold = () => (waiting = new Promise<void>((r) => (release = r)));

    // A's own write runs, start to end, while A's read is under way: that read's answer is not kept.
    hold();
    const read = slow(a);
    await new Promise((r) => setTimeout(r, 50));
    expect((await call("POST", "create-contact", a.token, contact("Ada"))).status).toBe(200);
    release();
    expect(await read).toEqual([]);
    expect(await slow(a)).toEqual(["Ada"]);

    // B's write meanwhile: A's read is kept (a change made behind the platform's back shows it).
    hold();
    const kept = slow(a);
    await new Promise((r) => setTimeout(r, 50));
    expect((await call("POST", "create-contact", b.token, contact("Bob"))).status).toBe(200);
    release();
    expect(await kept).toEqual(["Ada"]);
    await p.deps.db.update(contacts).set({ firstName: "Grace" }).where(eq(contacts.accountId, a.accountId));
    expect(await slow(a)).toEqual(["Ada"]);
    await forgetCachedReads(deps, [a.accountId]);
    expect(await slow(a)).toEqual(["Grace"]);
  });

  it("keeps no error, and forgets everything when a change is made outside a call", async () => {
    const owner = await withEntity(await p.newAccount());
    // An unknown entity's contacts: 404. The entity then appears without a platform call; a kept
    // 404 would still be answered.
    const entityId = `ent-cache-${Date.now()}`;
    expect((await call("GET", `get-contact?entity_id=${entityId}`, owner.token)).status).toBe(404);
    await p.deps.db.insert(entities).values({ entityId, accountId: owner.accountId, entityName: `Cache ${entityId}` });
    expect((await call("GET", `get-contact?entity_id=${entityId}`, owner.token)).status).toBe(200);
    expect((await call("POST", "create-contact", owner.token, contact("Bob"))).status).toBe(200);
    const [bob] = (await call("GET", "get-contact", owner.token)).body as any[];
    await p.deps.db.update(contacts).set({ firstName: "Robert" }).where(eq(contacts.contactId, bob.contact_id));
    // Still the remembered answer: the change did not go through the platform's calls...
    expect(((await call("GET", "get-contact", owner.token)).body as any[])[0].first_name).toBe("Bob");
    // ...until whoever made it says so.
    await forgetCachedReads(deps);
    expect(((await call("GET", "get-contact", owner.token)).body as any[])[0].first_name).toBe("Robert");
  });
});

// The scaled deployment: several instances over one PostgreSQL database (here two apps over the
// harness's database, each with its own cache). A write on one must be seen by the other's very
// next call: the epoch read with each call's token says whether a remembered answer still holds.
describe("the shared read cache across instances", () => {
  let p: TestPlatform;
  const instances: PlatformApp[] = [];
  const on = (i: number) => async (method: "GET" | "POST", path: string, token: string, body?: unknown) => {
    const res = await instances[i]!.fetch(
      new Request(`http://platform.test/api/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  const a = on(0);
  const b = on(1);

  beforeAll(async () => {
    p = await testPlatform();
    for (let i = 0; i < 2; i++) instances.push(createPlatformApp({ ...p.deps, config: { ...p.deps.config, cacheCallers: "shared" } }));
  });

  it("a list remembered on one instance shows a change made on another at once", async () => {
    const owner = await p.newAccount();
    const names = async () => ((await a("GET", "get_entity?page=1&size=10&sort=entity_name", owner.token)).body.items as any[]).map((e) => e.entity_name);
    expect(await names()).toEqual([]);
    expect(await names()).toEqual([]);
    expect((await b("POST", "create_entity", owner.token, { entity_name: "North" })).status).toBe(200);
    expect(await names()).toEqual(["North"]);
    expect((await b("POST", "create_entity", owner.token, { entity_name: "South" })).status).toBe(200);
    expect(await names()).toEqual(["North", "South"]);
  });

  it("a session logged out, a user demoted or removed on one instance loses its rights on the other at once", async () => {
    const owner = await p.newAccount();
    expect((await a("GET", "list-account", owner.token)).status).toBe(200);
    expect((await b("POST", "logout", owner.token, {})).status).toBe(200);
    expect((await a("GET", "list-account", owner.token)).status).toBe(401);

    const other = await p.newAccount();
    const admin = await p.newIamUser(other, "admin");
    expect((await a("GET", "list-account", admin.token)).body.iam_user.role).toBe("admin");
    expect((await b("POST", "iam-user-update-role", other.token, { iam_user_id: admin.iamUserId, new_role: "readonly" })).status).toBe(200);
    expect((await a("GET", "list-account", admin.token)).body.iam_user.role).toBe("readonly");
    expect((await a("POST", "create_entity", admin.token, { entity_name: "Nope" })).status).toBe(403);
    expect((await b("POST", "remove-iam-user", other.token, { iam_user_id: admin.iamUserId })).status).toBe(200);
    expect((await a("GET", "list-account", admin.token)).status).toBe(401);
  });

  it("the change log remembered on one instance shows the next change made on the other", async () => {
    const owner = await p.newAccount();
    const total = async () => (await a("GET", "get_api_log?page=1&size=10", owner.token)).body.total as number;
    const before = await total();
    expect(await total()).toBe(before);
    expect((await b("POST", "create_entity", owner.token, { entity_name: "Logged" })).status).toBe(200);
    expect(await total()).toBe(before + 1);
  });

  it("a write on one instance ends its account's remembered answers on the other, and no other account's", async () => {
    const owner = await p.newAccount();
    const bystander = await p.newAccount();
    expect((await b("POST", "create_entity", bystander.token, { entity_name: "Steady" })).status).toBe(200);
    const described = async () => ((await a("GET", "get_entity?page=1&size=10", bystander.token)).body.items as any[])[0].description;
    const first = await described();
    await p.deps.db.update(entities).set({ description: "Changed by a job" }).where(eq(entities.accountId, bystander.accountId));
    // Another account's write, on either instance: the bystander's remembered answer holds.
    expect((await b("POST", "create_entity", owner.token, { entity_name: "Busy" })).status).toBe(200);
    expect((await a("POST", "create_entity", owner.token, { entity_name: "Busier" })).status).toBe(200);
    expect(await described()).toBe(first);
    // The bystander's account named by a background job on any instance: seen at once.
    await forgetCachedReads({ ...p.deps, config: { ...p.deps.config, cacheCallers: "shared" } }, [owner.accountId, bystander.accountId]);
    expect(await described()).toBe("Changed by a job");
    // And its own write on the other instance.
    await p.deps.db.update(entities).set({ description: "Changed again" }).where(eq(entities.accountId, bystander.accountId));
    expect(await described()).toBe("Changed by a job");
    expect((await b("POST", "create_entity", bystander.token, { entity_name: "Moved" })).status).toBe(200);
    const items = (await a("GET", "get_entity?page=1&size=10&sort=entity_name", bystander.token)).body.items as any[];
    expect(items.map((e) => [e.entity_name, e.description])).toEqual([["Moved", ""], ["Steady", "Changed again"]]);
  });

  it("a change made outside any call is seen once its maker says so", async () => {
    const owner = await p.newAccount();
    expect((await b("POST", "create_entity", owner.token, { entity_name: "Quiet" })).status).toBe(200);
    const described = async () => ((await a("GET", "get_entity?page=1&size=10", owner.token)).body.items as any[])[0].description;
    const first = await described();
    await p.deps.db.update(entities).set({ description: "Changed by a job" }).where(eq(entities.accountId, owner.accountId));
    expect(await described()).toBe(first);
    // Any instance (here the harness's own deps) moves the epoch: every instance forgets.
    await forgetCachedReads({ ...p.deps, config: { ...p.deps.config, cacheCallers: "shared" } });
    expect(await described()).toBe("Changed by a job");
  });
});
