import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp } from "../app.ts";
import { openDatabase, type Db } from "../db/client.ts";
import { sendTestEvent, setAccountOps } from "../domain/operations.ts";
import { createAccount } from "../domain/accounts.ts";
import { createTicket, addCorrespondence, resolveTicket } from "../domain/support.ts";
import { createFleet, createFleetClock, createInProcessBus, createKindRegistry, fleetOpStateHooks, sqlKindSource, type Outage } from "../fleet/index.ts";
import { DAY } from "../fleet/time.ts";
import { configFromEnv } from "../lib/config.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { outboxMailer } from "../test/mail.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { boundedPayload, enqueueEvent, linkOpsEventsTo, MAX_PAYLOAD_BYTES, opStateEvent, outageUrl } from "./events.ts";
import { createDeliveryWorker, digestMail, retryDelay, RETRY_SCHEDULE_MS, type DeliveryWorker } from "./worker.ts";

/*
 * Deliveries for real: a receiver on 127.0.0.1 (allowed by the operator setting, as in local
 * testing), the fleet clock moved by hand across an outage, the worker's time moved by hand for
 * the retries. On PGlite, and with TEST_DATABASE_URL on PostgreSQL (two instances there).
 */

interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

/** An HTTP receiver: answers with `respond(n)` (n: 1-based request count), 204 by default. */
async function receiver(respond: (n: number, r: Received) => { status: number; headers?: Record<string, string> } | null = () => ({ status: 204 })) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const r = { headers: req.headers as Record<string, string>, body, path: req.url ?? "" };
      got.push(r);
      const answer = respond(got.length, r);
      if (!answer) return; // never answers (time-out)
      res.writeHead(answer.status, answer.headers);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    got,
    port,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

let p: TestPlatform;
const workers: DeliveryWorker[] = [];
const closers: (() => Promise<void>)[] = [];
const mails: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void mails.push(m) };

beforeAll(async () => {
  p = await testPlatform();
});
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  for (const c of closers.splice(0)) await c();
  p.deps.config.webhookAllowHosts = [];
});

const allow = ["127.0.0.1"];
const config = () => ({ webhookAllowHosts: allow, productName: "Linkwise", consoleUrl: "http://console.test" });

// Each test's workers deliver its own accounts' events only: other test files share the database.
const mine: string[] = [];

function worker(db: Db, opts: { now?: () => number; databaseUrl?: string; timeoutMs?: number } = {}) {
  const w = createDeliveryWorker({ db, mailer, config: config(), random: () => 0.5, accounts: mine, ...opts });
  workers.push(w);
  return w;
}

async function account(url: string, email = "") {
  p.deps.config.webhookAllowHosts = allow;
  const a = await p.newAccount();
  const { key: secret } = await setAccountOps(p.deps, a.accountId, { webhook_url: url, email });
  mine.push(a.accountId);
  return { ...a, secret };
}

const deliveries = async (accountId: string) =>
  (
    (await p.deps.db.execute(sql`select d.*, e.type from ops_deliveries d join ops_events e using (event_id) where d.account_id = ${accountId} order by d.created_at`)) as unknown as {
      rows: { delivery_id: string; status: string; attempt: number; http_status: number | null; error: string | null; type: string; next_attempt_at: Date | null }[];
    }
  ).rows;

async function until(cond: () => boolean | Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---------------------------------------------------------------------------------------------
// The fleet: a device of the account in a table made here, with an outage found in the last week.

const NOW = Date.parse("2026-11-18T15:07:30Z");
const fleet = createFleet(7);
const tables: string[] = [];
afterAll(async () => {
  for (const t of tables) await p.deps.db.execute(sql`drop table if exists ${sql.identifier(t)}`);
});

async function device(accountId: string) {
  const db = p.deps.db;
  const table = `ops_test_devices_${Math.random().toString(36).slice(2, 10)}`;
  tables.push(table);
  await db.execute(sql`create table ${sql.identifier(table)} (id text primary key, account_id text not null, name text, op_state text, op_state_change_at timestamptz)`);
  let id = "";
  let outage: Outage | undefined;
  for (let i = 0; i < 500 && !outage; i++) {
    id = `cpe-ops-${table}-${i}`;
    outage = fleet.outages({ id, kind: "cpe" }, "1w", NOW).find((o) => o.end_time && o.start > NOW - 6 * DAY);
  }
  await db.execute(sql`insert into ${sql.identifier(table)} values (${id}, ${accountId}, 'Branch East router', 'up', ${new Date(NOW - 30 * DAY).toISOString()})`);
  const kinds = createKindRegistry();
  kinds.register(sqlKindSource({ kind: "cpe", table, id: "id", accountId: "account_id", name: "name", opState: "op_state", opStateChangeAt: "op_state_change_at" }));
  return { id, outage: outage!, clock: createFleetClock({ db, fleet, kinds, bus: createInProcessBus(), replayMs: 0, hooks: fleetOpStateHooks }) };
}

describe("webhook deliveries", () => {
  it("a receiver gets both events of an outage when the clock moves across it, signed with the shown secret", async () => {
    const rx = await receiver();
    closers.push(rx.close);
    linkOpsEventsTo("https://console.example/");
    closers.push(async () => linkOpsEventsTo(null));
    const a = await account(rx.url);
    const { id, outage, clock } = await device(a.accountId);
    await clock.tick(outage.start - 1000);
    await clock.tick(outage.start);
    await clock.tick(outage.end + 1000);
    expect(await worker(p.deps.db).runOnce()).toBe(2);
    expect(rx.got).toHaveLength(2);
    const wh = new Webhook(a.secret);
    // Deliveries are sent concurrently and may arrive in either order: a receiver orders by timestamp (README).
    const events = rx.got
      .map((r) => wh.verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> })
      .sort((x, y) => Date.parse(x.timestamp) - Date.parse(y.timestamp));
    expect(events.map((e) => e.type)).toEqual(["outage.started", "outage.ended"]);
    expect(events[0]).toEqual({
      type: "outage.started",
      timestamp: outage.start_time,
      data: expect.objectContaining({ kind: "cpe", id, name: "Branch East router", state: "down", previous_state: "up", outage_id: outage.outage_id, announced: false }),
    });
    expect(events[1]!.data).toMatchObject({ state: "up", previous_state: "down", changed_at: outage.end_time });
    // Both link to the outage record in the console (the page of get_outage).
    for (const e of events) expect(e.data.outage_url).toBe(`https://console.example/outages/${encodeURIComponent(outage.outage_id)}`);
    for (const r of rx.got) {
      expect(r.headers["webhook-id"]).toMatch(/^msg-/);
      expect(r.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(r.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
      expect(r.headers["content-type"]).toBe("application/json");
    }
    // A replayed tick announces nothing again.
    await clock.tick(outage.end + 2000);
    expect(await worker(p.deps.db).runOnce()).toBe(0);
    // Another secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(rx.got[0]!.body, rx.got[0]!.headers)).toThrow();
    expect((await deliveries(a.accountId)).map((d) => [d.status, d.attempt, d.http_status])).toEqual([
      ["succeeded", 1, 204],
      ["succeeded", 1, 204],
    ]);
  });

  it("retries on the schedule: a receiver failing twice gets the event on the third attempt, across a restart", async () => {
    const rx = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    closers.push(rx.close);
    const a = await account(rx.url);
    await sendTestEvent(p.deps.db, a.accountId);
    let offset = 0;
    const now = () => Date.now() + offset;
    const first = worker(p.deps.db, { now });
    expect(await first.runOnce()).toBe(1);
    let [d] = await deliveries(a.accountId);
    expect(d).toMatchObject({ status: "pending", attempt: 1, http_status: 500 });
    const wait1 = new Date(d!.next_attempt_at!).getTime() - now();
    expect(wait1).toBeGreaterThan(3500);
    expect(wait1).toBeLessThanOrEqual(5500);
    // Not due yet: nothing sent.
    expect(await first.runOnce()).toBe(0);
    // The platform restarts: a new worker (nothing in memory) picks the delivery up when due.
    await first.stop();
    const second = worker(p.deps.db, { now });
    offset += 6_000;
    expect(await second.runOnce()).toBe(1);
    [d] = await deliveries(a.accountId);
    expect(d).toMatchObject({ status: "pending", attempt: 2, http_status: 500 });
    const wait2 = new Date(d!.next_attempt_at!).getTime() - now();
    expect(wait2).toBeGreaterThan(4 * 60_000);
    expect(wait2).toBeLessThanOrEqual(5.5 * 60_000);
    offset += 6 * 60_000;
    expect(await second.runOnce()).toBe(1);
    [d] = await deliveries(a.accountId);
    expect(d).toMatchObject({ status: "succeeded", attempt: 3, http_status: 200 });
    expect(rx.got).toHaveLength(3);
    expect(new Set(rx.got.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("the schedule is Standard Webhooks' with ±10 % jitter; Retry-After wins on 429 and 503", async () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelay(1, null, 0, () => 0)).toBe(4_500);
    expect(retryDelay(1, null, 0, () => 1)).toBe(5_500);
    expect(retryDelay(3, null, 0, () => 0.5)).toBe(1_800_000);
    expect(retryDelay(20, null, 0, () => 0.5)).toBe(36_000_000);
    expect(retryDelay(1, "120", 0, () => 0.5)).toBe(120_000);
    expect(retryDelay(1, new Date(600_000).toUTCString(), 0, () => 0.5)).toBe(600_000);

    const rx = await receiver((n) => (n === 1 ? { status: 429, headers: { "retry-after": "90" } } : { status: 200 }));
    closers.push(rx.close);
    const a = await account(rx.url);
    await sendTestEvent(p.deps.db, a.accountId);
    const w = worker(p.deps.db);
    await w.runOnce();
    const [d] = await deliveries(a.accountId);
    expect(new Date(d!.next_attempt_at!).getTime() - Date.now()).toBeGreaterThan(80_000);
  });

  it("does not follow redirects, times out after the limit, and 410 disables the endpoint with an e-mail", async () => {
    const other = await receiver();
    closers.push(other.close);
    const rx = await receiver((n) => (n === 1 ? { status: 302, headers: { location: other.url } } : n === 2 ? null : { status: 410 }));
    closers.push(rx.close);
    const a = await account(rx.url, "ops@example.com");
    await sendTestEvent(p.deps.db, a.accountId);
    let offset = 0;
    const w = worker(p.deps.db, { now: () => Date.now() + offset, timeoutMs: 300 });
    await w.runOnce();
    expect((await deliveries(a.accountId))[0]).toMatchObject({ status: "pending", http_status: 302 });
    expect(other.got).toHaveLength(0);
    offset += 6_000;
    await w.runOnce();
    expect((await deliveries(a.accountId))[0]).toMatchObject({ status: "pending", http_status: null, error: "No answer within 0.3 s" });
    offset += 6 * 60_000;
    mails.length = 0;
    await w.runOnce();
    expect((await deliveries(a.accountId))[0]).toMatchObject({ status: "failed", http_status: 410 });
    const [ops] = (await p.call("GET", "get-account-ops", { token: a.token })).body;
    expect(ops.webhook_disabled_reason).toBe("The endpoint answered 410 Gone.");
    expect(mails).toEqual([expect.objectContaining({ to: "ops@example.com", subject: "Linkwise: webhook endpoint disabled" })]);
    // While disabled, new events make no delivery (a test event is refused: issue 63 item 8); enabled again, they do.
    await expect(sendTestEvent(p.deps.db, a.accountId)).rejects.toMatchObject({ status: 409 });
    const ticket = boundedPayload("ticket.created", new Date().toISOString(), { ticket_id: "tkt-while-disabled" });
    await expect(enqueueEvent(p.deps.db, a.accountId, ticket)).resolves.toMatch(/^msg-/);
    expect(await deliveries(a.accountId)).toHaveLength(1);
    expect((await p.call("POST", "enable-account-ops-webhook", { token: a.token, body: {} })).status).toBe(200);
    await sendTestEvent(p.deps.db, a.accountId);
    expect(await deliveries(a.accountId)).toHaveLength(2);
  });

  it("an endpoint failing for 5 days is disabled and the account told", async () => {
    const rx = await receiver(() => ({ status: 500 }));
    closers.push(rx.close);
    const a = await account(rx.url, "ops@example.com");
    await p.deps.db.execute(sql`insert into ops_webhooks (account_id, failing_since) values (${a.accountId}, now() - interval '4 days 23 hours')`);
    await sendTestEvent(p.deps.db, a.accountId);
    let offset = 0;
    const w = worker(p.deps.db, { now: () => Date.now() + offset });
    await w.runOnce();
    expect((await p.call("GET", "get-account-ops", { token: a.token })).body[0].webhook_disabled_at).toBeNull();
    offset += 2 * 3600_000;
    mails.length = 0;
    await w.runOnce();
    const [ops] = (await p.call("GET", "get-account-ops", { token: a.token })).body;
    expect(ops.webhook_disabled_reason).toMatch(/^Every delivery failed for 5 days \(last: HTTP 500\)/);
    expect(mails.map((m) => m.subject)).toEqual(["Linkwise: webhook endpoint disabled"]);
    expect(mails[0]!.text).toContain("http://console.test/operations");
  });

  it("refuses at connect time an address that now resolves to a private address, without connecting", async () => {
    let connections = 0;
    const rx = await receiver(() => {
      connections++;
      return { status: 200 };
    });
    closers.push(rx.close);
    const a = await account("https://93.184.215.14/hook");
    // As if the name had resolved to a public address when saved and to loopback now.
    await p.deps.db.execute(sql`update account_ops set webhook_url = ${`https://localhost:${rx.port}/hook`} where account_id = ${a.accountId}`);
    await sendTestEvent(p.deps.db, a.accountId);
    const w = createDeliveryWorker({ db: p.deps.db, mailer, config: { ...config(), webhookAllowHosts: [] }, accounts: mine });
    workers.push(w);
    await w.runOnce();
    const [d] = await deliveries(a.accountId);
    expect(d!.error).toMatch(/is not allowed/);
    expect(d!.http_status).toBeNull();
    expect(connections).toBe(0);
  });

  it("ticket events go out too, and e-mails are grouped: one per account per 10 minutes", async () => {
    const rx = await receiver();
    closers.push(rx.close);
    const a = await account(rx.url, "ops@example.com");
    const who: Caller = { accountId: a.accountId, accountUsername: a.username, iamUserId: null, iamUsername: null, role: "owner", sessionType: "account", tokenHash: "" };
    const ticket = await createTicket(p.deps.db, who, { title: "Loss at Branch East", description: "2 % loss", priority: "High", category: "Technical" });
    await addCorrespondence(p.deps.db, who, { ticket_id: ticket, correspondence: "Still there." });
    await resolveTicket(p.deps.db, who, ticket);
    let offset = 0;
    const w = worker(p.deps.db, { now: () => Date.now() + offset });
    mails.length = 0;
    await w.runOnce();
    // Sent concurrently: in any order (receivers order by the payload's timestamp).
    const sent = rx.got.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    expect(sent.map((e) => e.type).sort()).toEqual(["ticket.created", "ticket.replied", "ticket.resolved"]);
    expect(sent.find((e) => e.type === "ticket.created")!.data).toMatchObject({ ticket_id: ticket, title: "Loss at Branch East", priority: "High" });
    expect(sent.find((e) => e.type === "ticket.resolved")!.data).toMatchObject({ ticket_id: ticket, state: "Closed" });
    expect(mails.filter((m) => m.to === "ops@example.com")).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Linkwise: 3 events");
    // A flapping device: forty changes in the next minutes make no mail until 10 minutes passed, then one.
    for (let i = 0; i < 40; i++) {
      const change = { type: "op_state_changed" as const, event_id: `flap-${a.accountId}-${i}`, kind: "cpe", id: "cpe-flap", name: "Branch East router", account_id: a.accountId,
        before: i % 2 ? "down" : "up", after: (i % 2 ? "up" : "down") as "up" | "down", at: new Date(Date.now() + i * 1000).toISOString(), outage_id: `o-${i >> 1}`, self_diagnosis: null, announced: false, affected: { app_services: [], endpoints: [] } };
      await p.deps.db.transaction((tx) => enqueueEvent(tx, a.accountId, opStateEvent(change), { sourceKey: `fleet:${change.event_id}`, mail: true }));
    }
    mails.length = 0;
    offset += 60_000;
    await w.runOnce();
    expect(rx.got).toHaveLength(43);
    expect(mails).toHaveLength(0);
    offset += 10 * 60_000;
    await w.runOnce();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Linkwise: 40 events");
    expect(mails[0]!.text).toContain("outage.started  cpe cpe-flap (Branch East router): down");
  });

  it("outage events link to the outage record where the console has one (devices), op state changes and nodes' outages do not", async () => {
    const change = { type: "op_state_changed" as const, event_id: "e-1", kind: "metro", id: "metro-x", name: "Quay", account_id: "a", before: "up", after: "down" as const,
      at: new Date(0).toISOString(), outage_id: "out-metro-x-7", self_diagnosis: null, announced: false, affected: { app_services: [], endpoints: [] } };
    expect(opStateEvent(change).data.outage_url).toBeNull(); // no console address configured
    linkOpsEventsTo("https://console.example");
    closers.push(async () => linkOpsEventsTo(null));
    expect(opStateEvent(change).data.outage_url).toBe("https://console.example/outages/out-metro-x-7");
    expect(opStateEvent({ ...change, kind: "service_node", id: "sn-1", outage_id: "out-sn-1-2" }).data.outage_url).toBeNull();
    expect(opStateEvent({ ...change, outage_id: null }).data.outage_url).toBeNull();
    expect(outageUrl("cpe", "out-cpe-a b-1")).toBe("https://console.example/outages/out-cpe-a%20b-1");
    // The digest e-mail carries the link under the event's line.
    const mail = digestMail("Linkwise", "https://console.example", "ops@example.com", [opStateEvent(change)]);
    expect(mail.text).toContain("outage.started  metro metro-x (Quay): down\n    The outage record: https://console.example/outages/out-metro-x-7");
  });

  it("keeps payloads under 20 KB", () => {
    const big = boundedPayload("outage.started", new Date(0).toISOString(), {
      id: "x",
      self_diagnosis: "y".repeat(50_000),
      affected: { app_services: Array.from({ length: 2000 }, (_, i) => `as-${i}`), endpoints: Array.from({ length: 2000 }, (_, i) => `ep-${i}`) },
    });
    expect(Buffer.byteLength(JSON.stringify(big))).toBeLessThan(MAX_PAYLOAD_BYTES);
  });
});

describe("a platform restart between failures (PGlite on disk)", () => {
  // On PostgreSQL the database outlives the platform anyway: the restart there is the worker's (above).
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))("loses nothing: the delivery is in the database, and the next platform delivers it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-ops-restart-"));
    const rx = await receiver((n) => ({ status: n <= 2 ? 503 : 200 }));
    closers.push(rx.close);
    const open = async () => {
      const database = await openDatabase({ dataDir });
      const deps: PlatformDeps = {
        db: database.db,
        dbKind: "pglite",
        mailer: outboxMailer(path.join(dataDir, "outbox")),
        config: { ...configFromEnv({}), dataDir, seedDemo: false, cacheCallers: "off", webhookAllowHosts: allow },
      };
      createPlatformApp(deps);
      return { database, deps };
    };
    let offset = 0;
    const now = () => Date.now() + offset;
    let { database, deps } = await open();
    const acc = await createAccount(deps, { username: "restart@example.test", password: "correct horse battery", name: "Restart" });
    const { key: secret } = await setAccountOps(deps, acc.accountId, { webhook_url: rx.url, email: "" });
    await sendTestEvent(deps.db, acc.accountId);
    const w1 = createDeliveryWorker({ db: deps.db, mailer, config: config(), now });
    await w1.runOnce();
    await w1.stop();
    await database.close();
    expect(rx.got).toHaveLength(1);

    ({ database, deps } = await open());
    try {
      const w2 = createDeliveryWorker({ db: deps.db, mailer, config: config(), now });
      offset += 6_000;
      await w2.runOnce();
      offset += 6 * 60_000;
      await w2.runOnce();
      await w2.stop();
      expect(rx.got).toHaveLength(3);
      expect(() => new Webhook(secret).verify(rx.got[2]!.body, rx.got[2]!.headers)).not.toThrow();
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two platform instances on PostgreSQL", () => {
  it("deliver each event exactly once, woken by NOTIFY", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const rx = await receiver();
    closers.push(rx.close);
    const a = await account(rx.url);
    const one = await openDatabase({ databaseUrl: url });
    const two = await openDatabase({ databaseUrl: url });
    closers.push(one.close, two.close);
    const w1 = createDeliveryWorker({ db: one.db, mailer, config: config(), databaseUrl: url, sweepMs: 60_000, accounts: mine });
    const w2 = createDeliveryWorker({ db: two.db, mailer, config: config(), databaseUrl: url, sweepMs: 60_000, accounts: mine });
    workers.push(w1, w2);
    w1.start();
    w2.start();
    await new Promise((r) => setTimeout(r, 300));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await sendTestEvent(p.deps.db, a.accountId));
    await until(() => new Set(rx.got.map((r) => r.headers["webhook-id"])).size === 30);
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.got).toHaveLength(30);
    expect(new Set(rx.got.map((r) => r.headers["webhook-id"]))).toEqual(new Set(ids));
    expect((await deliveries(a.accountId)).every((d) => d.status === "succeeded" && d.attempt === 1)).toBe(true);
  });
});
