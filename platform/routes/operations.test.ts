import net from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { opsMessages } from "../contract/operations.ts";
import { execRows } from "../lib/list.ts";
import { addressMessages } from "../webhooks/address.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validForEmptyBody, validVariants, type MalformedPayload } from "../test/malformed.ts";
import { sql } from "drizzle-orm";

/*
 * The operations calls (spec 2 §7 Operations and the additions), on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL. Delivery itself: platform/webhooks/delivery.test.ts.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
afterEach(() => {
  p.deps.config.webhookAllowHosts = [];
});

const post = (a: TestAccount, call: string, body: unknown = {}) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

// A public address literal: checked without DNS, and nothing connects in these tests.
const PUBLIC = "https://93.184.215.14/linkwise-hook";
const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** Saves the settings; answers the signature_key of the answer (whole on the first save only). */
async function saved(a: TestAccount, webhook_url = PUBLIC, email = "ops@example.com") {
  const r = await post(a, "set-account-ops", { webhook_url, email });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.signature_key as string;
}

describe("get-account-ops / set-account-ops", () => {
  it("answers an empty list, then the saved settings with the secret masked; the secret is made once and kept", async () => {
    const a = await p.newAccount();
    expect(await get(a, "get-account-ops")).toEqual({ status: 200, body: [] });
    const r = await post(a, "set-account-ops", { webhook_url: PUBLIC, email: "ops@example.com" });
    expect(r.status).toBe(200);
    expect(r.body.detail).toBe("Account Operations updated.");
    expect(r.body.signature_key).toMatch(secretPattern);
    expect(r.body.signature_key_new).toBe(true);
    const key = r.body.signature_key as string;
    expect((await get(a, "get-account-ops")).body).toEqual([
      {
        webhook_url: PUBLIC,
        email: "ops@example.com",
        signature_key: `whsec_…${key.slice(-4)}`,
        previous_key_expires_at: null,
        webhook_disabled_at: null,
        webhook_disabled_reason: null,
        failing_since: null,
        email_refused_at: null,
        email_refused_answer: null,
      },
    ]);
    // Issue 63 item 9: a later save keeps the secret and answers it masked; it was shown once.
    const later = await post(a, "set-account-ops", { webhook_url: PUBLIC, email: "" });
    expect(later.body).toEqual({ detail: "Account Operations updated.", signature_key: `whsec_…${key.slice(-4)}`, signature_key_new: false });
    expect((await get(a, "get-account-ops")).body[0]).toMatchObject({ email: "", signature_key: `whsec_…${key.slice(-4)}` });
    // Still the same secret: a delivery signs with it (the rotation below makes a new one).
    const [stored] = await execRows<{ signature_key: string }>(p.deps.db, sql`select signature_key from account_ops where account_id = ${a.accountId}`);
    expect(stored?.signature_key).toBe(key);
  });

  it("refuses a bad e-mail and addresses that are not https, carry credentials, or are not public, beside the field", async () => {
    const a = await p.newAccount();
    const refused = async (webhook_url: string, msg: string | RegExp) => {
      const r = await post(a, "set-account-ops", { webhook_url, email: "" });
      expect(r.status, webhook_url).toBe(422);
      expect(r.body.detail[0].loc, webhook_url).toEqual(["body", "webhook_url"]);
      expect(r.body.detail[0].msg, webhook_url).toMatch(msg);
    };
    await refused("http://93.184.215.14/hook", addressMessages.scheme);
    await refused("ftp://93.184.215.14/hook", addressMessages.scheme);
    await refused("not a url", addressMessages.invalid);
    await refused("https://user:secret@93.184.215.14/hook", addressMessages.credentials);
    await refused("https://127.0.0.1/hook", /resolves to 127\.0\.0\.1, a loopback, private, link-local or reserved address/);
    await refused("https://10.0.0.1/hook", /resolves to 10\.0\.0\.1/);
    await refused("https://169.254.169.254/latest/meta-data", /resolves to 169\.254\.169\.254/);
    await refused("https://[::1]:8443/hook", /resolves to ::1/);
    await refused("https://[::ffff:127.0.0.1]/hook", /loopback, private/);
    await refused("https://0.0.0.0/hook", /resolves to 0\.0\.0\.0/);
    // A name resolving to a loopback address.
    await refused("https://localhost/hook", /resolves to (127\.0\.0\.1|::1)/);
    const bad = await post(a, "set-account-ops", { webhook_url: "", email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["body", "email"], msg: "Enter a valid email address." });
    expect((await get(a, "get-account-ops")).body).toEqual([]);
  });

  it("makes no connection when it refuses a private address", async () => {
    const a = await p.newAccount();
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"]) {
        expect((await post(a, "set-account-ops", { webhook_url: `https://${host}:${port}/hook`, email: "" })).status).toBe(422);
      }
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("allows http and private addresses to the hosts the operator allows", async () => {
    const a = await p.newAccount();
    p.deps.config.webhookAllowHosts = ["127.0.0.1", "::1"];
    expect((await post(a, "set-account-ops", { webhook_url: "http://127.0.0.1:9/hook", email: "" })).status).toBe(200);
    expect((await post(a, "set-account-ops", { webhook_url: "http://[::1]:9/hook", email: "" })).status).toBe(200);
    expect((await post(a, "set-account-ops", { webhook_url: "http://10.0.0.1/hook", email: "" })).status).toBe(422);
  });

  it("403 for a readonly user; the settings are per account", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro, "set-account-ops", { webhook_url: PUBLIC, email: "" })).status).toBe(403);
    const admin = await p.newIamUser(a, "admin");
    expect((await post(admin, "set-account-ops", { webhook_url: PUBLIC, email: "" })).status).toBe(200);
    expect((await get(ro, "get-account-ops")).body).toHaveLength(1);
    const b = await p.newAccount();
    expect((await get(b, "get-account-ops")).body).toEqual([]);
  });
});

describe("rotate-account-ops-secret", () => {
  it("409 before a save; then a new secret, the previous one signing for 24 hours", async () => {
    const a = await p.newAccount();
    expect((await post(a, "rotate-account-ops-secret")).status).toBe(409);
    const first = await saved(a);
    const r = await post(a, "rotate-account-ops-secret");
    expect(r.status).toBe(200);
    expect(r.body.signature_key).toMatch(secretPattern);
    expect(r.body.signature_key_new).toBe(true);
    expect(r.body.signature_key).not.toBe(first);
    const [ops] = (await get(a, "get-account-ops")).body;
    expect(ops.signature_key).toBe(`whsec_…${r.body.signature_key.slice(-4)}`);
    const until = Date.parse(ops.previous_key_expires_at);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro, "rotate-account-ops-secret")).status).toBe(403);
  });
});

describe("send-account-ops-test-event / list-account-ops-deliveries / redeliver / enable", () => {
  it("queues a test event, which the delivery log lists; other accounts see nothing of it", async () => {
    const a = await p.newAccount();
    expect((await post(a, "send-account-ops-test-event")).status).toBe(409);
    await saved(a, "", "ops@example.com");
    expect((await post(a, "send-account-ops-test-event")).body).toEqual({ detail: "Set a webhook address first." });
    await saved(a);
    const r = await post(a, "send-account-ops-test-event");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ detail: "Test event sent.", event_id: expect.stringMatching(/^msg-/) });
    const log = await get(a, "list-account-ops-deliveries");
    expect(log.status).toBe(200);
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({ event_id: r.body.event_id, event_type: "webhook.test", url: PUBLIC, status: "pending", attempt: 0, http_status: null });
    const page = await get(a, "list-account-ops-deliveries", { page: "1", size: "10", sort: "-created_at" });
    expect(page.body).toMatchObject({ total: 1, items: [{ event_id: r.body.event_id }] });
    expect((await get(a, "list-account-ops-deliveries", { q: "webhook.test" })).body.total).toBe(1);
    expect((await get(a, "list-account-ops-deliveries", { sort: "nope" })).status).toBe(422);
    const b = await p.newAccount();
    expect((await get(b, "list-account-ops-deliveries")).body).toEqual([]);
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro, "send-account-ops-test-event")).status).toBe(403);
    expect((await get(ro, "list-account-ops-deliveries")).body).toHaveLength(1);
  });

  it("redelivers a failed delivery; 404 for another account's; 409 for one that has not failed", async () => {
    const a = await p.newAccount();
    await saved(a);
    const { event_id } = (await post(a, "send-account-ops-test-event")).body;
    const [d] = (await get(a, "list-account-ops-deliveries")).body;
    expect((await post(a, "redeliver-account-ops-delivery", { delivery_id: d.delivery_id })).status).toBe(409);
    await p.deps.db.execute(sql`update ops_deliveries set status = 'failed', attempt = 8, http_status = 500, next_attempt_at = null where delivery_id = ${d.delivery_id}`);
    const b = await p.newAccount();
    expect((await post(b, "redeliver-account-ops-delivery", { delivery_id: d.delivery_id })).status).toBe(404);
    expect((await post(a, "redeliver-account-ops-delivery", { delivery_id: "dlv-nope" })).status).toBe(404);
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro, "redeliver-account-ops-delivery", { delivery_id: d.delivery_id })).status).toBe(403);
    expect(await post(a, "redeliver-account-ops-delivery", { delivery_id: d.delivery_id })).toEqual({ status: 200, body: { detail: "Delivery queued again." } });
    const [again] = (await get(a, "list-account-ops-deliveries")).body;
    expect(again).toMatchObject({ event_id, status: "pending", attempt: 7 });
    expect(again.next_attempt_at).not.toBeNull();
  });

  it("enables a disabled endpoint again", async () => {
    const a = await p.newAccount();
    expect((await post(a, "enable-account-ops-webhook")).status).toBe(409);
    await saved(a);
    await p.deps.db.execute(sql`insert into ops_webhooks (account_id, disabled_at, disabled_reason, failing_since) values (${a.accountId}, now(), 'The endpoint answered 410 Gone.', now())`);
    expect((await get(a, "get-account-ops")).body[0]).toMatchObject({ webhook_disabled_reason: "The endpoint answered 410 Gone." });
    // Issue 63 item 8: no "Test event sent." while nothing would be sent; the way back is named.
    const refused = await post(a, "send-account-ops-test-event");
    expect(refused).toEqual({ status: 409, body: { detail: opsMessages.testDisabled } });
    expect((await get(a, "list-account-ops-deliveries")).body).toHaveLength(0);
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro, "enable-account-ops-webhook")).status).toBe(403);
    expect(await post(a, "enable-account-ops-webhook")).toEqual({ status: 200, body: { detail: "Webhook deliveries enabled again." } });
    expect((await get(a, "get-account-ops")).body[0]).toMatchObject({ webhook_disabled_at: null, failing_since: null });
    expect((await post(a, "send-account-ops-test-event")).body).toMatchObject({ detail: opsMessages.testSent });
  });
});

describe("malformed payloads get a 4xx", () => {
  async function expectRefused(call: string, example: Record<string, unknown>, a: TestAccount, legit?: (m: MalformedPayload) => boolean) {
    const variants = malformedPayloads(example).filter((m) => !legit?.(m));
    // The call's schema variants (platform/routes/malformed.test.ts sends the parser's once): at least 15
    // for a body with fields, the 4 that are not an object for `{}`.
    expect(variants.length).toBeGreaterThanOrEqual(Object.keys(example).length ? 15 : 4);
    for (const m of variants) {
      const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
      expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
    }
  }

  it("set-account-ops", async () => {
    const a = await p.newAccount();
    await expectRefused("set-account-ops", { webhook_url: PUBLIC, email: "ops@example.com" }, a, validVariants({ emptyAllowed: ["webhook_url", "email"] }));
  });

  it("redeliver-account-ops-delivery", async () => {
    const a = await p.newAccount();
    await expectRefused("redeliver-account-ops-delivery", { delivery_id: "dlv-x" }, a);
  });

  it("the calls without a body refuse what is not an empty JSON object", async () => {
    const a = await p.newAccount();
    await saved(a);
    for (const call of ["rotate-account-ops-secret", "send-account-ops-test-event", "enable-account-ops-webhook"]) {
      for (const m of malformedPayloads({}).filter((m) => !validForEmptyBody(m))) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        expect(r.status, `${call} ${m.name}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${call} ${m.name}`).toBeLessThan(500);
      }
    }
  });
});
