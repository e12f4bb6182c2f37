import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { appServices } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import type { UserAgent, UserAgentEndpoint } from "../contract/user-agents.ts";
import type { EndpointDetail } from "../contract/endpoints.ts";

/*
 * The user agents calls (spec 2 §7 User agents) on PGlite, or PostgreSQL with TEST_DATABASE_URL:
 * each call's success, validation, another account's ids (404), a readonly IAM user (403) and the
 * generated malformed bodies (4xx); a concurrent double link holds.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
// A test that stops Date (two reads of the fleet at one instant) starts it again.
afterEach(() => void vi.useRealTimers());

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = <T = unknown>(a: TestAccount, call: string, query?: Record<string, string>) => p.call<T>("GET", call, { token: a.token, query });
type Page = { items: UserAgent[]; total: number };

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function appService(a: TestAccount) {
  const id = newId("as");
  await p.deps.db.insert(appServices).values({ appServiceId: id, accountId: a.accountId, appServiceName: `svc ${id}`, deployment: "onprem", fqdn: "app.example.com", proto: "tcp", port: 443 });
  return id;
}

async function endpoint(a: TestAccount, as: string, ep_name: string) {
  const r = await post(a, "create-endpoint", { ep_name, app_service_id: as, deployment: "agent" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return String(r.body.ep_id);
}

/** An account with an app service and two endpoints ("Laptops", "Office"). */
async function setup() {
  const a = await p.newAccount();
  const as = await appService(a);
  const laptops = await endpoint(a, as, "Laptops");
  const office = await endpoint(a, as, "Office");
  return { a, as, laptops, office };
}

async function createAgent(a: TestAccount, ep_id: string, name = "Alice Laptop") {
  const r = await post(a, "create_user_agent", { name, email: "alice@example.com", description: "Remote worker", ep_id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return String(r.body.user_agent_id);
}

const list = async (a: TestAccount) => (await get<UserAgent[]>(a, "list_user_agent")).body;
const linked = async (a: TestAccount, user_agent_id: string) => (await get<UserAgentEndpoint[]>(a, "user_agent_get_linked_ep", { user_agent_id })).body.map((e) => e.ep_id);
const agentsOf = async (a: TestAccount, ep_id: string) => (await get<EndpointDetail>(a, "get-endpoint-detail", { ep_id })).body.user_agents;

describe("POST create_user_agent", () => {
  it("creates an agent linked to the endpoint, of its app service, with its state from the fleet", async () => {
    const { a, as, laptops } = await setup();
    // Date stands still: the agent's session may begin or end (at a whole minute) between two reads.
    vi.useFakeTimers({ toFake: ["Date"] });
    const r = await post(a, "create_user_agent", { name: "  Alice Laptop ", email: "Alice@Example.com", description: "Remote worker", ep_id: laptops });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user_agent_id: expect.stringMatching(/^ua-/), detail: "User Agent created." });
    const rows = await list(a);
    expect(rows).toEqual([
      {
        user_agent_id: r.body.user_agent_id,
        name: "Alice Laptop",
        email: "Alice@Example.com",
        description: "Remote worker",
        app_service_id: as,
        op_state: expect.stringMatching(/^(up|down)$/),
        op_state_change_at: expect.stringMatching(iso),
        last_auth_status: expect.stringMatching(/^(success|failed)$/),
        last_auth_time: expect.stringMatching(iso),
        created_at: expect.stringMatching(iso),
        ep_ids: [laptops],
      },
    ]);
    // The same figures as the endpoint's Agents tab (one fleet, read at the same instant).
    const { op_state, op_state_change_at, last_auth_status, last_auth_time } = rows[0]!;
    expect(await agentsOf(a, laptops)).toEqual([
      expect.objectContaining({ user_agent_id: r.body.user_agent_id, name: "Alice Laptop", op_state, op_state_change_at, last_auth_status, last_auth_time }),
    ]);
    // The description is optional.
    const bare = await post(a, "create_user_agent", { name: "Bob", email: "bob@example.com", ep_id: laptops });
    expect(bare.status).toBe(200);
    expect((await list(a)).find((u) => u.user_agent_id === bare.body.user_agent_id)!.description).toBe("");
  });

  it("refuses a missing endpoint, name or e-mail with a clear message", async () => {
    const { a, laptops } = await setup();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: "A", email: "a@example.com", ep_id: "" }, "ep_id", "Select an endpoint."],
      [{ name: "A", email: "a@example.com" }, "ep_id", "Field required"],
      [{ name: " ", email: "a@example.com", ep_id: laptops }, "name", "Name is required."],
      [{ name: "A", email: "not an address", ep_id: laptops }, "email", "Enter a valid email address."],
      [{ name: "A".repeat(201), email: "a@example.com", ep_id: laptops }, "name", "Must be at most 200 characters."],
      [{ name: "A", email: "a@example.com", description: "d".repeat(2001), ep_id: laptops }, "description", "Must be at most 2000 characters."],
    ];
    for (const [body, field, msg] of cases) {
      const r = await post(a, "create_user_agent", body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ["body", field], msg })]));
    }
    expect(await list(a)).toEqual([]);
  });

  it("answers 404 for an unknown endpoint or another account's", async () => {
    const { a } = await setup();
    const other = await setup();
    for (const ep_id of ["ep-unknown", other.laptops]) {
      const r = await post(a, "create_user_agent", { name: "A", email: "a@example.com", ep_id });
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe("Endpoint not found");
    }
    expect(await list(a)).toEqual([]);
  });
});

describe("GET list_user_agent", () => {
  it("pages, sorts and searches in SQL; the plain array is newest first", async () => {
    const { a, laptops, office } = await setup();
    const ids: string[] = [];
    for (const [i, name] of ["Zed", "amy", "Mo"].entries()) ids.push(await createAgent(a, i === 2 ? office : laptops, name));
    expect((await list(a)).map((u) => u.name)).toEqual(["Mo", "amy", "Zed"]);
    const page = (await get(a, "list_user_agent", { sort: "name", page: "1", size: "2" })).body;
    expect(page).toEqual({ items: [expect.objectContaining({ name: "amy" }), expect.objectContaining({ name: "Mo" })], total: 3 });
    expect((await get<Page>(a, "list_user_agent", { sort: "-name", page: "2", size: "2" })).body.items.map((u) => u.name)).toEqual(["amy"]);
    expect((await get(a, "list_user_agent", { q: "ZED" })).body).toEqual({ items: [expect.objectContaining({ user_agent_id: ids[0] })], total: 1 });
    expect((await get<Page>(a, "list_user_agent", { q: ids[1]! })).body.total).toBe(1);
    expect((await get<Page>(a, "list_user_agent", { ids: `${ids[2]},ua-unknown` })).body.items.map((u) => u.name)).toEqual(["Mo"]);
    expect((await get(a, "list_user_agent", { sort: "op_state" })).status).toBe(422);
    expect((await get(a, "list_user_agent", { size: "1000" })).status).toBe(422);
    // Another account sees none of them.
    const other = await p.newAccount();
    expect(await list(other)).toEqual([]);
    expect((await get(other, "list_user_agent", { ids: ids.join(",") })).body).toEqual({ items: [], total: 0 });
  });

  it("exports every agent the search selects as NDJSON", async () => {
    const { a, laptops } = await setup();
    await createAgent(a, laptops, "Alpha");
    await createAgent(a, laptops, "Beta");
    const r = await get<string | UserAgent>(a, "export-user-agents", { q: "alpha" });
    expect(r.status).toBe(200);
    // One line is parsed as JSON by the harness already.
    const lines = typeof r.body === "string" ? r.body.trim().split("\n").map((l) => JSON.parse(l)) : [r.body];
    expect(lines).toEqual([expect.objectContaining({ name: "Alpha", ep_ids: [laptops], op_state: expect.any(String) })]);
  });
});

describe("linking and unlinking", () => {
  it("links an agent to several endpoints; the lists of linked and unlinked endpoints follow", async () => {
    const { a, laptops, office } = await setup();
    // Before any agent: every endpoint of the account may be linked, by name.
    expect((await get<UserAgentEndpoint[]>(a, "user_agent_get_unlinked_ep")).body.map((e) => e.ep_name)).toEqual(["Laptops", "Office"]);
    const ua = await createAgent(a, laptops);
    expect((await get(a, "user_agent_get_unlinked_ep", { user_agent_id: ua })).body).toEqual([{ ep_id: office, ep_name: "Office", deployment: "agent", app_service_id: expect.any(String) }]);
    expect(await linked(a, ua)).toEqual([laptops]);

    const r = await post(a, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ detail: "User agent linked to endpoint." });
    expect(await linked(a, ua)).toEqual([laptops, office]);
    expect((await get(a, "user_agent_get_unlinked_ep", { user_agent_id: ua })).body).toEqual([]);
    expect((await list(a))[0]!.ep_ids).toEqual([laptops, office]);
    expect((await agentsOf(a, office)).map((u) => u.user_agent_id)).toEqual([ua]);

    const again = await post(a, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("User agent is already linked to this endpoint.");

    const u1 = await post(a, "unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: laptops });
    expect(u1.status).toBe(200);
    expect(u1.body).toEqual({ detail: "User agent unlinked from endpoint." });
    expect(await linked(a, ua)).toEqual([office]);
    expect((await agentsOf(a, laptops))).toEqual([]);
    // Not linked to that one (any more): 404; linked to none: the spec's words.
    expect((await post(a, "unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: laptops })).body.detail).toBe("User agent is not linked to this endpoint.");
    expect((await post(a, "unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: office })).status).toBe(200);
    const none = await post(a, "unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: office });
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe("User agent has no endpoints linked.");
    expect(await linked(a, ua)).toEqual([]);
  });

  it("holds when the same agent is linked to the same endpoint concurrently: one link, one 200, the rest 409", async () => {
    const { a, laptops, office } = await setup();
    const ua = await createAgent(a, laptops);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(a, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await linked(a, ua)).toEqual([laptops, office]);
    // Concurrent unlinks of the same link: one 200; the others find it gone.
    const unlinks = await Promise.all(Array.from({ length: 4 }, () => post(a, "unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: office })));
    expect(unlinks.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    expect(await linked(a, ua)).toEqual([laptops]);
  });

  it("refuses a missing endpoint and answers 404 for another account's agent or endpoint", async () => {
    const { a, laptops, office } = await setup();
    const other = await setup();
    const ua = await createAgent(a, laptops);
    const theirs = await createAgent(other.a, other.laptops);
    for (const call of ["link_user_agent_to_ep", "unlink_user_agent_from_ep"]) {
      const blank = await post(a, call, { user_agent_id: ua, ep_id: "" });
      expect(blank.status).toBe(422);
      expect(blank.body.detail).toEqual([expect.objectContaining({ loc: ["body", "ep_id"], msg: "Select an endpoint." })]);
      expect((await post(a, call, { user_agent_id: ua })).status).toBe(422);
      for (const body of [
        { user_agent_id: theirs, ep_id: office },
        { user_agent_id: "ua-unknown", ep_id: office },
        { user_agent_id: ua, ep_id: other.office },
        { user_agent_id: ua, ep_id: "ep-unknown" },
      ]) {
        expect((await post(a, call, body)).status, `${call} ${JSON.stringify(body)}`).toBe(404);
      }
    }
    // Another account's agent: not even its endpoints are told.
    for (const call of ["user_agent_get_linked_ep", "user_agent_get_unlinked_ep"]) {
      const r = await get<{ detail: string }>(a, call, { user_agent_id: theirs });
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe("User agent not found");
    }
    expect((await get(a, "user_agent_get_linked_ep")).status).toBe(422);
    expect(await linked(a, ua)).toEqual([laptops]);
    expect(await linked(other.a, theirs)).toEqual([other.laptops]);
  });
});

describe("POST remove_user_agent", () => {
  it("removes the agent and its links; another account's: 404", async () => {
    const { a, laptops, office } = await setup();
    const other = await setup();
    const ua = await createAgent(a, laptops);
    await post(a, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office });
    const theirs = await createAgent(other.a, other.laptops);
    expect((await post(a, "remove_user_agent", { user_agent_id: theirs })).status).toBe(404);
    expect(await list(other.a)).toHaveLength(1);
    const r = await post(a, "remove_user_agent", { user_agent_id: ua });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ detail: "User Agent removed." });
    expect(await list(a)).toEqual([]);
    expect((await agentsOf(a, office))).toEqual([]);
    expect((await post(a, "remove_user_agent", { user_agent_id: ua })).status).toBe(404);
    expect((await post(a, "remove_user_agent", { user_agent_id: "" })).status).toBe(422);
  });

  it("goes with its endpoint's links when an endpoint is removed", async () => {
    const { a, laptops, office } = await setup();
    const ua = await createAgent(a, laptops);
    await post(a, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office });
    expect((await post(a, "remove-endpoint", { ep_id: office })).status).toBe(200);
    expect(await linked(a, ua)).toEqual([laptops]);
  });
});

describe("user agents: permissions", () => {
  it("a readonly IAM user reads but gets 403 on every change; an admin may change", async () => {
    const { a, laptops, office } = await setup();
    const ua = await createAgent(a, laptops);
    const ro = await p.newIamUser(a, "readonly");
    expect((await get(ro, "list_user_agent")).body).toHaveLength(1);
    expect((await get(ro, "user_agent_get_linked_ep", { user_agent_id: ua })).status).toBe(200);
    expect((await get(ro, "user_agent_get_unlinked_ep", { user_agent_id: ua })).status).toBe(200);
    const writes: Array<[string, Record<string, unknown>]> = [
      ["create_user_agent", { name: "X", email: "x@example.com", ep_id: laptops }],
      ["link_user_agent_to_ep", { user_agent_id: ua, ep_id: office }],
      ["unlink_user_agent_from_ep", { user_agent_id: ua, ep_id: laptops }],
      ["remove_user_agent", { user_agent_id: ua }],
    ];
    for (const [call, body] of writes) expect((await post(ro, call, body)).status, call).toBe(403);
    // Refused before the body is read: a malformed body is a 403 too.
    expect((await p.call("POST", "remove_user_agent", { token: ro.token, rawBody: "{nope" })).status).toBe(403);
    expect(await linked(a, ua)).toEqual([laptops]);
    expect(await list(a)).toHaveLength(1);
    const admin = await p.newIamUser(a, "admin");
    expect((await post(admin, "link_user_agent_to_ep", { user_agent_id: ua, ep_id: office })).status).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expect((await p.call("GET", "list_user_agent")).status).toBe(401);
    expect((await p.call("POST", "create_user_agent", { body: {} })).status).toBe(401);
  });
});

describe("user agents: malformed payloads", () => {
  type Ids = { ua: string; laptops: string; office: string };
  const cases: Array<{ call: string; valid: (ids: Ids) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    {
      call: "create_user_agent",
      valid: ({ laptops }) => ({ name: "Carol", email: "carol@example.com", description: "Desk", ep_id: laptops }),
      validVariant: validVariants({ optional: ["description"], multiline: ["description"] }),
    },
    { call: "link_user_agent_to_ep", valid: ({ ua, office }) => ({ user_agent_id: ua, ep_id: office }), validVariant: validVariants({}) },
    { call: "unlink_user_agent_from_ep", valid: ({ ua, laptops }) => ({ user_agent_id: ua, ep_id: laptops }), validVariant: validVariants({}) },
    { call: "remove_user_agent", valid: ({ ua }) => ({ user_agent_id: ua }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: every malformed body gets a 4xx and changes nothing`, async () => {
      const { a, laptops, office } = await setup();
      const ua = await createAgent(a, laptops);
      const example = valid({ ua, laptops, office });
      const payloads = malformedPayloads(example).filter((m) => !validVariant(m));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const snapshot = async () => [await list(a), await linked(a, ua)];
      const before = await snapshot();
      const notRefused: string[] = [];
      for (const m of payloads) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      // The fleet's figures move with the clock: compare what the calls store.
      const stored = (s: unknown[]) => JSON.stringify(s).replace(/"(op_state|op_state_change_at|last_auth_status|last_auth_time)":"[^"]*"/g, "");
      expect(stored(await snapshot())).toBe(stored(before));
      expect((await post(a, call, example)).status).toBe(200);
    });
  }
});

describe("user agents: demo data", () => {
  it("seeds agents on the demo endpoints, one linked to several", async () => {
    const { seedEndpoints } = await import("../domain/endpoints-seed.ts");
    const { seedUserAgents } = await import("../domain/user-agents-seed.ts");
    const a = await p.newAccount();
    await seedEndpoints(p.deps, a.accountId);
    await seedUserAgents(p.deps, a.accountId);
    const rows = await list(a);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.some((u) => u.ep_ids.length > 1)).toBe(true);
  });
});
