import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { billingMethods, stripeEvents } from "../db/schema.ts";
import { eq } from "drizzle-orm";
import { startStripeStandin, type StripeStandin } from "../../tests/stripe-standin.mjs";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, parserPayloads, validVariants } from "../test/malformed.ts";
import type { StripeConfig } from "../lib/config.ts";

/*
 * Billing (spec 1 §7 Billing) against the local Stripe stand-in: the real `stripe` package talks
 * to it over HTTP (STRIPE_API_URL → host, port, protocol), so every Stripe call below is real.
 */

let p: TestPlatform;
let standin: StripeStandin;
let stripeConfig: StripeConfig;
const WEBHOOK_SECRET = "whsec_test_billing_secret";

beforeAll(async () => {
  p = await testPlatform();
  standin = await startStripeStandin();
  stripeConfig = { secretKey: "sk_test_standin", priceId: "price_standin_monthly", webhookSecret: WEBHOOK_SECRET, apiUrl: standin.url };
  p.deps.config.stripe = stripeConfig;
});
afterAll(async () => {
  await standin?.close();
  // The platform is shared by the worker's other test files: leave it as it was (no Stripe).
  p.deps.config.stripe = {};
});
beforeEach(() => {
  p.deps.config.stripe = stripeConfig;
  standin.reset();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string) => p.call("GET", call, { token: a.token });

const details = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+1 555 0100",
  street_addr_1: "12 Main Street",
  street_addr_2: "Suite 3",
  city: "Springfield",
  state: "IL",
  postal_code: "62701",
  country: "US",
};

async function addCard(a: TestAccount, payment_method_id = "pm_card_visa") {
  const r = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.billing;
}

/** Follows the stand-in's hosted Checkout page the way a browser does: to the success URL. */
async function visitCheckout(url: string, cancel = false) {
  const res = await fetch(cancel ? `${url}?cancel=1` : url, { redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

async function webhook(payload: unknown, opts: { secret?: string; signature?: string | null } = {}) {
  const raw = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature =
    opts.signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: opts.secret ?? WEBHOOK_SECRET }) : opts.signature;
  if (signature !== null) headers["stripe-signature"] = signature;
  const res = await p.app.fetch(new Request("http://platform.test/api/v1/stripe-webhook", { method: "POST", headers, body: raw }));
  return { status: res.status, body: (await res.json()) as any };
}

const event = (type: string, object: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`) => ({
  id,
  object: "event",
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object },
});

describe("billing: the card path (setup-billing-stripe-subscription)", () => {
  it("creates the customer, attaches the card, starts the subscription; the first method is preferred", async () => {
    const a = await p.newAccount();
    expect(await get(a, "get-billings")).toEqual({ status: 200, body: [] });
    const r = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.detail).toBe("Billing successfully added!");

    const calls = standin.requests.map((q) => `${q.method} ${q.path.replace(/(cus|sub)_[0-9a-f]+/, "$1_x")}`);
    expect(calls).toEqual(["POST /v1/customers", "POST /v1/payment_methods/pm_card_visa/attach", "POST /v1/customers/cus_x", "POST /v1/subscriptions"]);
    const [customer, , update, subscription] = standin.requests;
    expect(customer!.body).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+1 555 0100",
      address: { line1: "12 Main Street", line2: "Suite 3", city: "Springfield", state: "IL", postal_code: "62701", country: "US" },
      metadata: { account_id: a.accountId },
    });
    expect(update!.body).toEqual({ invoice_settings: { default_payment_method: "pm_card_visa" } });
    expect(subscription!.body).toMatchObject({ items: [{ price: "price_standin_monthly" }], default_payment_method: "pm_card_visa" });

    const list = (await get(a, "get-billings")).body;
    expect(list).toEqual([
      {
        provider: "Stripe",
        preferred: true,
        subscription_info: { customer_identifier: expect.stringMatching(/^cus_/), subscription_id: expect.stringMatching(/^sub_/), status: "active" },
        created_at: expect.any(String),
      },
    ]);
    expect(r.body.billing).toEqual(list[0]);
  });

  it("a declined card answers the provider's message, stores nothing and deletes the customer it made", async () => {
    const a = await p.newAccount();
    const r = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_chargeDeclined" });
    expect(r).toEqual({ status: 400, body: { detail: "Your card was declined." } });
    expect(standin.requests.at(-1)!.method).toBe("DELETE");
    expect((await get(a, "get-billings")).body).toEqual([]);

    // Any provider error, at any step, is the message shown (here the subscription's).
    standin.reset();
    standin.failNext({ message: "Your card has insufficient funds.", code: "card_declined", decline_code: "insufficient_funds" });
    const funds = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" });
    expect(funds).toEqual({ status: 400, body: { detail: "Your card has insufficient funds." } });
    expect((await get(a, "get-billings")).body).toEqual([]);
  });

  it("one Stripe method per account: a second card is 409 until the first is removed", async () => {
    const a = await p.newAccount();
    await addCard(a);
    standin.reset();
    const again = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" });
    expect(again.status).toBe(409);
    expect(standin.requests).toEqual([]);
  });

  it("without STRIPE_SECRET_KEY: 'Stripe key not found', and the rest keeps working", async () => {
    const a = await p.newAccount();
    await addCard(a);
    standin.reset();
    p.deps.config.stripe = {};
    for (const call of ["setup-billing-stripe-subscription", "create-billing-stripe-checkout"]) {
      const body = call.startsWith("setup") ? { ...details, payment_method_id: "pm_card_visa" } : details;
      expect(await post(a, call, body)).toEqual({ status: 400, body: { detail: "Stripe key not found" } });
    }
    expect(await post(a, "complete-billing-stripe-checkout", { checkout_session_id: "cs_test_unknown" })).toMatchObject({ status: 404 });
    expect((await get(a, "get-billings")).body).toHaveLength(1);
    expect(await post(a, "set-preferred-billing", { provider: "Stripe" })).toEqual({ status: 200, body: { detail: "Preferred billing method updated." } });
    expect(standin.requests).toEqual([]);
  });

  it("without STRIPE_PRICE_ID: a clear 400 before anything is created at Stripe", async () => {
    const a = await p.newAccount();
    p.deps.config.stripe = { ...stripeConfig, priceId: undefined };
    const r = await post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" });
    expect(r).toEqual({ status: 400, body: { detail: "Stripe price not found: set STRIPE_PRICE_ID." } });
    expect(standin.requests).toEqual([]);
  });
});

describe("billing: the no-JavaScript path (Checkout in setup mode)", () => {
  it("creates a setup-mode session with URLs back to /billing; completing it subscribes the saved card, once", async () => {
    const a = await p.newAccount();
    const r = await post(a, "create-billing-stripe-checkout", details);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.checkout_session_id).toMatch(/^cs_test_/);
    const created = standin.requests.find((q) => q.path === "/v1/checkout/sessions")!;
    expect(created.body).toMatchObject({
      mode: "setup",
      currency: "usd",
      success_url: "http://console.test/billing?checkout_session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://console.test/billing?checkout=cancelled",
      client_reference_id: a.accountId,
    });

    // Not complete yet: refused, nothing stored.
    const early = await post(a, "complete-billing-stripe-checkout", { checkout_session_id: r.body.checkout_session_id });
    expect(early).toEqual({ status: 400, body: { detail: "The card was not saved: the checkout is not complete." } });

    const back = await visitCheckout(r.body.url);
    expect(`${back.origin}${back.pathname}`).toBe("http://console.test/billing");
    const sessionId = back.searchParams.get("checkout_session_id")!;
    expect(sessionId).toBe(r.body.checkout_session_id);

    // Another account cannot complete it.
    const other = await p.newAccount();
    expect((await post(other, "complete-billing-stripe-checkout", { checkout_session_id: sessionId })).status).toBe(404);

    standin.reset();
    const done = await post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.detail).toBe("Billing successfully added!");
    expect(standin.requests.map((q) => `${q.method} ${q.path.replace(/(cus|sub|cs_test)_[0-9a-f]+/, "$1_x")}`)).toEqual([
      "GET /v1/checkout/sessions/cs_test_x",
      "POST /v1/customers/cus_x",
      "POST /v1/subscriptions",
    ]);
    expect(standin.requests[2]!.body).toMatchObject({ items: [{ price: "price_standin_monthly" }], default_payment_method: expect.stringMatching(/^pm_/) });
    // A reload of the return page: the same answer, no second subscription.
    standin.reset();
    const twice = await post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
    expect(twice.status).toBe(200);
    expect(twice.body.billing).toEqual(done.body.billing);
    expect(standin.requests).toEqual([]);
    expect((await get(a, "get-billings")).body).toHaveLength(1);
    expect((await get(other, "get-billings")).body).toEqual([]);
  });

  it("a cancelled checkout goes back to /billing?checkout=cancelled and adds nothing", async () => {
    const a = await p.newAccount();
    const r = await post(a, "create-billing-stripe-checkout", details);
    const back = await visitCheckout(r.body.url, true);
    expect(back.searchParams.get("checkout")).toBe("cancelled");
    expect((await get(a, "get-billings")).body).toEqual([]);
  });

  it("provider errors creating the session are the message", async () => {
    const a = await p.newAccount();
    standin.failNext({ message: "Your card was declined." });
    expect(await post(a, "create-billing-stripe-checkout", details)).toEqual({ status: 400, body: { detail: "Your card was declined." } });
  });
});

describe("billing: preferred and removal", () => {
  it("make preferred, remove (the subscription cancelled at Stripe; the other becomes preferred), 404 when absent", async () => {
    const a = await p.newAccount();
    const card = await addCard(a);
    // An AWS Marketplace method (added by AWS, not by a call of this platform).
    await p.deps.db.insert(billingMethods).values({ accountId: a.accountId, provider: "Aws", customerIdentifier: "aws-cust-1" });
    const preferred = async () => ((await get(a, "get-billings")).body as any[]).map((b) => [b.provider, b.preferred]);
    expect(await preferred()).toEqual([["Stripe", true], ["Aws", false]]);

    expect(await post(a, "set-preferred-billing", { provider: "Aws" })).toEqual({ status: 200, body: { detail: "Preferred billing method updated." } });
    expect(await preferred()).toEqual([["Stripe", false], ["Aws", true]]);

    expect(await post(a, "remove-billing", { provider: "Aws" })).toEqual({ status: 200, body: { detail: "Billing method removed." } });
    expect(await preferred()).toEqual([["Stripe", true]]);

    standin.reset();
    expect(await post(a, "remove-billing", { provider: "Stripe" })).toEqual({ status: 200, body: { detail: "Billing method removed." } });
    expect(standin.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`DELETE /v1/subscriptions/${card.subscription_info.subscription_id}`]);
    expect(await preferred()).toEqual([]);

    expect(await post(a, "remove-billing", { provider: "Stripe" })).toEqual({ status: 404, body: { detail: "No Stripe billing method found." } });
    expect(await post(a, "set-preferred-billing", { provider: "Aws" })).toEqual({ status: 404, body: { detail: "No Aws billing method found." } });
    // Removed: a new card may be added.
    await addCard(a);
  });

  it("another account's methods are 404 and untouched", async () => {
    const a = await p.newAccount();
    await addCard(a);
    const b = await p.newAccount();
    expect((await post(b, "set-preferred-billing", { provider: "Stripe" })).status).toBe(404);
    expect((await post(b, "remove-billing", { provider: "Stripe" })).status).toBe(404);
    expect((await get(a, "get-billings")).body).toHaveLength(1);
  });

  it("a removal that Stripe refuses is the message, and the method stays", async () => {
    const a = await p.newAccount();
    await addCard(a);
    standin.failNext({ message: "The subscription could not be cancelled." });
    expect(await post(a, "remove-billing", { provider: "Stripe" })).toEqual({ status: 400, body: { detail: "The subscription could not be cancelled." } });
    expect((await get(a, "get-billings")).body).toHaveLength(1);
  });
});

describe("billing: account sessions only", () => {
  it("IAM users, admin and readonly, get 403 on every billing call and change nothing", async () => {
    const owner = await p.newAccount();
    await addCard(owner);
    for (const role of ["admin", "readonly"] as const) {
      const iam = await p.newIamUser(owner, role);
      expect((await get(iam, "get-billings")).status, role).toBe(403);
      const calls: Array<[string, unknown]> = [
        ["setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" }],
        ["create-billing-stripe-checkout", details],
        ["complete-billing-stripe-checkout", { checkout_session_id: "cs_test_x" }],
        ["set-preferred-billing", { provider: "Stripe" }],
        ["remove-billing", { provider: "Stripe" }],
      ];
      for (const [call, body] of calls) {
        const r = await post(iam, call, body);
        expect(r, `${role} ${call}`).toEqual({ status: 403, body: { detail: "Only the account owner can do this." } });
      }
    }
    expect((await get(owner, "get-billings")).body).toHaveLength(1);
  });

  it("without a token: 401", async () => {
    expect((await p.call("GET", "get-billings")).status).toBe(401);
    expect((await p.call("POST", "remove-billing", { body: { provider: "Stripe" } })).status).toBe(401);
  });
});

describe("billing: Stripe's webhook", () => {
  it("a signed subscription event is accepted once and updates the method's status; redelivery is a no-op", async () => {
    const a = await p.newAccount();
    const card = await addCard(a);
    const info = card.subscription_info;
    const e = event("customer.subscription.updated", { id: info.subscription_id, object: "subscription", customer: info.customer_identifier, status: "past_due" });
    expect(await webhook(e)).toEqual({ status: 200, body: { received: true, duplicate: false, type: "customer.subscription.updated" } });
    expect((await get(a, "get-billings")).body[0].subscription_info.status).toBe("past_due");

    expect(await webhook(e)).toEqual({ status: 200, body: { received: true, duplicate: true, type: "customer.subscription.updated" } });
    const stored = await p.deps.db.select().from(stripeEvents).where(eq(stripeEvents.eventId, e.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.accountId).toBe(a.accountId);

    await webhook(event("invoice.payment_failed", { id: "in_1", object: "invoice", customer: info.customer_identifier }));
    expect((await get(a, "get-billings")).body[0].subscription_info.status).toBe("payment_failed");
    await webhook(event("invoice.payment_succeeded", { id: "in_2", object: "invoice", customer: info.customer_identifier }));
    expect((await get(a, "get-billings")).body[0].subscription_info.status).toBe("active");
    await webhook(event("customer.subscription.deleted", { id: info.subscription_id, object: "subscription", customer: info.customer_identifier, status: "canceled" }));
    expect((await get(a, "get-billings")).body[0].subscription_info.status).toBe("canceled");
    // An event for no known customer is stored and acknowledged.
    expect((await webhook(event("payment_intent.succeeded", { id: "pi_1", object: "payment_intent" }))).status).toBe(200);
  });

  it("refuses a wrong, missing or stale signature, a tampered body, and answers 400 without a webhook secret", async () => {
    const e = event("customer.subscription.updated", { id: "sub_x", customer: "cus_x", status: "active" });
    expect((await webhook(e, { secret: "whsec_someone_else" })).status).toBe(400);
    expect((await webhook(e, { signature: null })).body).toEqual({ detail: "Missing Stripe-Signature header" });
    expect((await webhook(e, { signature: "t=1,v1=deadbeef" })).status).toBe(400);
    const stale = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(e), secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await webhook(e, { signature: stale })).status).toBe(400);
    // Signed for another body.
    const other = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify({ ...e, id: "evt_other" }), secret: WEBHOOK_SECRET });
    expect((await webhook(e, { signature: other })).status).toBe(400);
    const refused = await p.deps.db.select().from(stripeEvents).where(eq(stripeEvents.eventId, e.id));
    expect(refused).toEqual([]);

    p.deps.config.stripe = { ...stripeConfig, webhookSecret: undefined };
    expect(await webhook(e)).toEqual({ status: 400, body: { detail: "Stripe webhook secret not found" } });
  });

  it("signed bodies that are not events, and malformed bodies, get 4xx", async () => {
    for (const payload of [[], "text", { id: 5, type: "x" }, { type: "x" }, null]) {
      const r = await webhook(payload);
      expect(r.status, JSON.stringify(payload)).toBe(422);
    }
    // The webhook reads its body itself (Stripe's signature is over the raw text), not through the
    // calls' JSON parser: the parser's variants as well as the schema's.
    const example = event("invoice.paid", { id: "in_1" });
    for (const m of [...parserPayloads(example), ...malformedPayloads(example)]) {
      const signature = Stripe.webhooks.generateTestHeaderString({ payload: m.rawBody, secret: "whsec_wrong" });
      const res = await p.app.fetch(
        new Request("http://platform.test/api/v1/stripe-webhook", {
          method: "POST",
          headers: { "content-type": m.contentType ?? "application/json", "stripe-signature": signature },
          body: m.rawBody,
        }),
      );
      expect(res.status, m.name).toBeGreaterThanOrEqual(400);
      expect(res.status, m.name).toBeLessThan(500);
    }
  });
});

describe("billing: malformed bodies", () => {
  const cases: Array<{ call: string; valid: () => Record<string, unknown>; optional?: string[]; needsAccount?: "withCard" | "withCheckout" }> = [
    { call: "setup-billing-stripe-subscription", valid: () => ({ ...details, payment_method_id: "pm_card_visa" }), optional: ["street_addr_2"] },
    { call: "create-billing-stripe-checkout", valid: () => details, optional: ["street_addr_2"] },
    { call: "complete-billing-stripe-checkout", valid: () => ({ checkout_session_id: "cs_test_abc" }) },
    { call: "set-preferred-billing", valid: () => ({ provider: "Stripe" }), needsAccount: "withCard" },
    { call: "remove-billing", valid: () => ({ provider: "Stripe" }), needsAccount: "withCard" },
  ];
  for (const { call, valid, optional, needsAccount } of cases) {
    it(`${call}: every malformed body gets a 4xx and changes nothing`, async () => {
      const a = await p.newAccount();
      if (needsAccount === "withCard") await addCard(a);
      const before = (await get(a, "get-billings")).body;
      const isValid = validVariants({ optional });
      const payloads = malformedPayloads(valid()).filter((m) => !isValid(m));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const notRefused: string[] = [];
      for (const m of payloads) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      expect((await get(a, "get-billings")).body).toEqual(before);
    });
  }
});

describe("billing: concurrency (issue 27 items 1 and 2)", () => {
  const active = (accountId: string) => standin.subscriptions(accountId).filter((x) => x.status === "active");

  it("10 concurrent card set-ups: one subscription at Stripe and stored, the others 409, nothing billed invisibly", async () => {
    const a = await p.newAccount();
    standin.setLatency(15);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(results.map((r) => r.body))).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(typeof r.body.detail).toBe("string");
    const stored = (await get(a, "get-billings")).body as any[];
    expect(stored).toHaveLength(1);
    expect(active(a.accountId).map((x) => x.id)).toEqual([stored[0].subscription_info.subscription_id]);
    // No customer left behind at Stripe either, and every create carried an idempotency key.
    expect(standin.customers(a.accountId)).toHaveLength(1);
    for (const q of standin.requests.filter((x) => x.method === "POST")) expect(q.idempotencyKey, q.path).toMatch(/^linkwise-/);
    // remove-billing cancels the one there is.
    expect((await post(a, "remove-billing", { provider: "Stripe" })).status).toBe(200);
    expect(active(a.accountId)).toEqual([]);
  });

  it("a set-up while a checkout is being completed, and concurrent completions of one checkout: one subscription", async () => {
    const a = await p.newAccount();
    const r = await post(a, "create-billing-stripe-checkout", details);
    expect(r.status).toBe(200);
    const back = await visitCheckout(r.body.url);
    const sessionId = back.searchParams.get("checkout_session_id")!;
    standin.setLatency(15);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId })),
      post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" }),
    ]);
    for (const x of results) expect([200, 409], JSON.stringify(x.body)).toContain(x.status);
    expect(results.filter((x) => x.status === 200).length).toBeGreaterThanOrEqual(1);
    const stored = (await get(a, "get-billings")).body as any[];
    expect(stored).toHaveLength(1);
    expect(active(a.accountId).map((x) => x.id)).toEqual([stored[0].subscription_info.subscription_id]);
    // A reload of the return page: the same method when the checkout won (409 when the card path
    // did), and nothing new at Stripe either way.
    const checkoutWon = results.slice(0, 6).some((x) => x.status === 200);
    standin.reset();
    const again = await post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
    expect(again.status).toBe(checkoutWon ? 200 : 409);
    if (checkoutWon) expect(again.body.billing).toEqual(stored[0]);
    expect(standin.requests.filter((q) => q.method === "POST")).toEqual([]);
  });

  it("a set-up that lost its claim (taken over as stale) cancels at Stripe what it created and stores nothing", async () => {
    const a = await p.newAccount();
    standin.setLatency(150);
    const pending = post(a, "setup-billing-stripe-subscription", { ...details, payment_method_id: "pm_card_visa" });
    // Once the request holds its claim (and is at Stripe), do what a takeover does to a claim thought dead.
    for (let i = 0; i < 400; i++) {
      const [claim] = await p.deps.db.select().from(billingMethods).where(eq(billingMethods.accountId, a.accountId));
      if (claim) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await p.deps.db.delete(billingMethods).where(eq(billingMethods.accountId, a.accountId));
    const r = await pending;
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(active(a.accountId)).toEqual([]);
    expect(standin.customers(a.accountId)).toEqual([]);
    expect((await get(a, "get-billings")).body).toEqual([]);
  });

  it("a checkout completed once, whose method was removed, is not completed again (no second subscription)", async () => {
    const a = await p.newAccount();
    const r = await post(a, "create-billing-stripe-checkout", details);
    const sessionId = (await visitCheckout(r.body.url)).searchParams.get("checkout_session_id")!;
    expect((await post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId })).status).toBe(200);
    expect((await post(a, "remove-billing", { provider: "Stripe" })).status).toBe(200);
    standin.reset();
    const again = await post(a, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
    expect(again.status).toBe(409);
    expect(standin.requests.filter((q) => q.path === "/v1/subscriptions")).toEqual([]);
    expect(active(a.accountId)).toEqual([]);
  });

  it("remove-billing {Stripe} and set-preferred-billing {Stripe} 20 ms apart: always exactly one preferred method (5 rounds of 5)", async () => {
    for (let round = 0; round < 5; round++) {
      const accounts = await Promise.all(Array.from({ length: 5 }, () => p.newAccount()));
      for (const a of accounts) {
        await p.deps.db.insert(billingMethods).values({ accountId: a.accountId, provider: "Aws", customerIdentifier: `aws-${a.accountId}`, preferred: true });
        await addCard(a);
        expect(((await get(a, "get-billings")).body as any[]).map((b) => [b.provider, b.preferred])).toEqual([["Aws", true], ["Stripe", false]]);
      }
      standin.setLatency(40);
      await Promise.all(
        accounts.map(async (a) => {
          const removal = post(a, "remove-billing", { provider: "Stripe" });
          await new Promise((resolve) => setTimeout(resolve, 20));
          const preferring = post(a, "set-preferred-billing", { provider: "Stripe" });
          const [removed, preferred] = await Promise.all([removal, preferring]);
          expect(removed.status).toBe(200);
          expect([200, 404]).toContain(preferred.status);
        }),
      );
      standin.setLatency(0);
      for (const a of accounts) {
        const left = (await get(a, "get-billings")).body as any[];
        expect(left.map((b) => [b.provider, b.preferred]), `round ${round}`).toEqual([["Aws", true]]);
      }
    }
  });

  it("set-preferred on one method while the other is removed: exactly one preferred", async () => {
    const a = await p.newAccount();
    await addCard(a);
    await p.deps.db.insert(billingMethods).values({ accountId: a.accountId, provider: "Aws", customerIdentifier: "aws-x" });
    standin.setLatency(30);
    await Promise.all([post(a, "remove-billing", { provider: "Stripe" }), post(a, "set-preferred-billing", { provider: "Aws" }), post(a, "set-preferred-billing", { provider: "Stripe" })]);
    standin.setLatency(0);
    const left = (await get(a, "get-billings")).body as any[];
    expect(left.map((b) => [b.provider, b.preferred])).toEqual([["Aws", true]]);
  });
});
