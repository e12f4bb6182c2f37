import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import Stripe from "stripe";
import type { Db, DbOrTx } from "../db/client.ts";
import { billingMethods, stripeCheckouts, stripeEvents } from "../db/schema.ts";
import { STRIPE_KEY_NOT_FOUND, type Billing, type BillingDetails, type BillingProvider } from "../contract/billing.ts";
import type { StripeConfig } from "../lib/config.ts";
import { ApiError } from "../lib/errors.ts";
import { observe } from "../../server/observe.mjs";

/*
 * Billing (spec 1 §3 Billing, §7 Billing) through Stripe, with the official `stripe` package.
 * One billing method per provider per account; the first one added is the preferred one.
 *
 * The card path (browser with JavaScript): Stripe.js creates the payment method; its id comes
 * here: customer created → payment method attached → made the customer's default → subscription
 * to STRIPE_PRICE_ID. The no-JavaScript path: a Checkout Session in setup mode for a new customer;
 * on return, the session's SetupIntent gives the payment method, then the same subscription.
 * A provider error (a declined card, an invalid request) is answered 400 with Stripe's message.
 *
 * Concurrency (issue 27 items 1, 2). Adding a card first claims the account's Stripe row (a
 * `billing_methods` row in the state 'setting_up', inserted or not by the primary key): of
 * concurrent set-ups (and checkout completions) one claims it and calls Stripe, the others answer
 * 409 before any Stripe call. Every Stripe create carries an idempotency key of the claim (of the
 * Checkout session for a completion), so a retried call never creates twice. A claim left by a
 * crashed request is taken over after CLAIM_STALE_MS; the request that lost its claim that way
 * cancels what it created. Changes of the preferred flag run under a per-account advisory lock,
 * each ending with exactly one preferred method (when the account has any).
 */

const clients = new Map<string, Stripe>();

/** The Stripe client of this configuration; 'Stripe key not found' (400) without a secret key. */
export function stripeClient(config: StripeConfig): Stripe {
  const key = config.secretKey;
  if (!key) throw new ApiError(400, STRIPE_KEY_NOT_FOUND);
  const cacheKey = `${key}\n${config.apiUrl ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const options: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 20_000, telemetry: false };
    if (config.apiUrl) {
      // Another Stripe API address (the tests' stand-in): host, port and protocol of the package.
      const url = new URL(config.apiUrl);
      options.host = url.hostname;
      options.port = url.port || (url.protocol === "http:" ? 80 : 443);
      options.protocol = url.protocol === "http:" ? "http" : "https";
    }
    client = new Stripe(key, options);
    clients.set(cacheKey, client);
  }
  return client;
}

function requirePrice(config: StripeConfig): string {
  if (!config.priceId) throw new ApiError(400, "Stripe price not found: set STRIPE_PRICE_ID.");
  return config.priceId;
}

/** Runs a Stripe call; its errors become 400 with Stripe's own message (card errors: the decline). */
async function provider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof Stripe.errors.StripeError) {
      const e = error as Stripe.errors.StripeError;
      if (e.type === "StripeConnectionError") throw new ApiError(503, "The card payment provider cannot be reached. Try again later.");
      throw new ApiError(400, e.message || "The card payment provider refused the request.");
    }
    throw error;
  }
}

const rowToBilling = (r: typeof billingMethods.$inferSelect): Billing => ({
  provider: r.provider as BillingProvider,
  preferred: r.preferred,
  subscription_info: {
    customer_identifier: r.customerIdentifier,
    subscription_id: r.subscriptionId,
    status: r.subscriptionStatus,
  },
  created_at: r.createdAt.toISOString(),
});

/** The subscription status of a Stripe row claimed by a set-up in progress (not a method yet). */
const SETTING_UP = "setting_up";
/** A claim older than this belongs to a request that died: the next set-up takes it over. */
const CLAIM_STALE_MS = 10 * 60_000;
/** Rows that are billing methods (not a claim of a set-up in progress). */
const isMethod = sql`${billingMethods.subscriptionStatus} is distinct from ${SETTING_UP}`;

const STRIPE_EXISTS = "A Stripe billing method already exists. Remove it before adding another card.";
const STRIPE_IN_PROGRESS = "A card is being added to this account already. Wait a moment and reload the page.";

/** GET get-billings: the account's billing methods, oldest first. */
export async function listBillings(db: DbOrTx, accountId: string): Promise<Billing[]> {
  const rows = await db
    .select()
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), isMethod))
    .orderBy(asc(billingMethods.createdAt));
  return rows.map(rowToBilling);
}

/** Serialises the account's billing changes within a transaction (released at its end). */
async function lockBilling(tx: DbOrTx, accountId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`billing:${accountId}`}))`);
}

/** Exactly one preferred method when the account has any: the oldest when none is (call under lockBilling). */
async function keepOnePreferred(tx: DbOrTx, accountId: string) {
  const preferred = await tx
    .select({ provider: billingMethods.provider })
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), isMethod, eq(billingMethods.preferred, true)))
    .orderBy(asc(billingMethods.createdAt));
  if (preferred.length === 1) return;
  const [first] = await tx
    .select({ provider: billingMethods.provider })
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), isMethod))
    .orderBy(asc(billingMethods.createdAt))
    .limit(1);
  const keep = preferred[0]?.provider ?? first?.provider;
  if (!keep) return;
  await tx
    .update(billingMethods)
    .set({ preferred: sql`${billingMethods.provider} = ${keep}` })
    .where(and(eq(billingMethods.accountId, accountId), isMethod));
}

async function requireNoStripeMethod(db: DbOrTx, accountId: string) {
  const [existing] = await db
    .select({ status: billingMethods.subscriptionStatus })
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, "Stripe")));
  if (existing) throw new ApiError(409, existing.status === SETTING_UP ? STRIPE_IN_PROGRESS : STRIPE_EXISTS);
}

/** A claim of the account's Stripe row: its id is in the row and in every idempotency key of its Stripe calls. */
interface Claim {
  accountId: string;
  marker: string;
  key: (step: string) => string;
}

/**
 * Claims the account's Stripe row for one set-up (409 when a method exists or another set-up holds
 * it). `keyBase` names the idempotency keys (the Checkout session's id for a completion).
 */
async function claimStripe(db: Db, accountId: string, keyBase?: string): Promise<Claim> {
  const id = randomBytes(12).toString("hex");
  const marker = `claim:${id}`;
  // A claim whose request died (a crash between the claim and its end) is taken over.
  await db
    .delete(billingMethods)
    .where(
      and(
        eq(billingMethods.accountId, accountId),
        eq(billingMethods.provider, "Stripe"),
        eq(billingMethods.subscriptionStatus, SETTING_UP),
        lt(billingMethods.createdAt, new Date(Date.now() - CLAIM_STALE_MS)),
      ),
    );
  const claimed = await db
    .insert(billingMethods)
    .values({ accountId, provider: "Stripe", customerIdentifier: marker, subscriptionStatus: SETTING_UP, preferred: false })
    .onConflictDoNothing()
    .returning({ provider: billingMethods.provider });
  if (claimed.length === 0) await requireNoStripeMethod(db, accountId);
  if (claimed.length === 0) throw new ApiError(409, STRIPE_IN_PROGRESS);
  const base = keyBase ?? id;
  return { accountId, marker, key: (step) => `linkwise-${base}-${step}` };
}

/** Gives the claim up (the set-up failed before anything was stored). */
async function releaseClaim(db: Db, claim: Claim) {
  await db
    .delete(billingMethods)
    .where(and(eq(billingMethods.accountId, claim.accountId), eq(billingMethods.provider, "Stripe"), eq(billingMethods.customerIdentifier, claim.marker)));
}

/** Cancels at Stripe what a set-up created but could not store (its claim was lost): nobody is billed for a method nobody sees. */
async function undoAtStripe(stripe: Stripe, m: { customerId: string; subscription: Stripe.Subscription }) {
  await stripe.subscriptions.cancel(m.subscription.id).catch((error) => observe("platform").logger.error({ err: error, subscription: m.subscription.id }, "could not cancel an orphan subscription"));
  await stripe.customers.del(m.customerId).catch(() => {});
}

function customerParams(d: BillingDetails, accountId: string): Stripe.CustomerCreateParams {
  return {
    name: d.name,
    email: d.email,
    phone: d.phone,
    address: {
      line1: d.street_addr_1,
      line2: d.street_addr_2 || undefined,
      city: d.city,
      state: d.state,
      postal_code: d.postal_code,
      country: d.country,
    },
    metadata: { account_id: accountId },
  };
}

/**
 * Turns the claim into the stored Stripe method (preferred when the account has no other preferred
 * method), in `also`'s transaction. False when the claim was lost (taken over as stale): nothing stored.
 */
async function storeStripeMethod(
  db: Db,
  claim: Claim,
  m: { customerId: string; paymentMethodId: string; subscription: Stripe.Subscription },
  also?: (tx: DbOrTx) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockBilling(tx, claim.accountId);
    const stored = await tx
      .update(billingMethods)
      .set({
        customerIdentifier: m.customerId,
        paymentMethodId: m.paymentMethodId,
        subscriptionId: m.subscription.id,
        subscriptionStatus: m.subscription.status,
        preferred: false,
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(billingMethods.accountId, claim.accountId), eq(billingMethods.provider, "Stripe"), eq(billingMethods.customerIdentifier, claim.marker)))
      .returning({ provider: billingMethods.provider });
    if (stored.length === 0) return false;
    if (also) await also(tx);
    await keepOnePreferred(tx, claim.accountId);
    return true;
  });
}

/** The customer's default payment method and its subscription to the configured price (each call with the claim's idempotency key). */
async function subscribe(stripe: Stripe, config: StripeConfig, claim: Claim, customerId: string, paymentMethodId: string) {
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } }, { idempotencyKey: claim.key("default") });
  return stripe.subscriptions.create(
    {
      customer: customerId,
      items: [{ price: requirePrice(config) }],
      default_payment_method: paymentMethodId,
      metadata: { account_id: claim.accountId },
    },
    { idempotencyKey: claim.key("subscription") },
  );
}

/** Stores what a set-up made at Stripe, or (its claim lost) cancels it there and answers 409. */
async function keepOrUndo(
  db: Db,
  stripe: Stripe,
  claim: Claim,
  m: { customerId: string; paymentMethodId: string; subscription: Stripe.Subscription },
  also?: (tx: DbOrTx) => Promise<void>,
): Promise<Billing> {
  let stored: boolean;
  try {
    stored = await storeStripeMethod(db, claim, m, also);
  } catch (error) {
    // Not stored (the database failed, or `also` refused): not billed either.
    await undoAtStripe(stripe, m);
    await releaseClaim(db, claim).catch(() => {});
    throw error;
  }
  if (!stored) {
    await undoAtStripe(stripe, m);
    throw new ApiError(409, STRIPE_IN_PROGRESS);
  }
  return (await listBillings(db, claim.accountId)).find((b) => b.provider === "Stripe")!;
}

/** POST setup-billing-stripe-subscription with payment_method_id (the card path). */
export async function setupStripeSubscription(
  db: Db,
  config: StripeConfig,
  accountId: string,
  body: BillingDetails & { payment_method_id: string },
): Promise<Billing> {
  const stripe = stripeClient(config);
  requirePrice(config);
  await requireNoStripeMethod(db, accountId);
  const claim = await claimStripe(db, accountId);
  let subscription: Stripe.Subscription;
  try {
    subscription = await provider(async () => {
      const customer = await stripe.customers.create(customerParams(body, accountId), { idempotencyKey: claim.key("customer") });
      try {
        await stripe.paymentMethods.attach(body.payment_method_id, { customer: customer.id }, { idempotencyKey: claim.key("attach") });
        return await subscribe(stripe, config, claim, customer.id, body.payment_method_id);
      } catch (error) {
        // The card was refused: the customer created for it goes too (best effort).
        await stripe.customers.del(customer.id).catch(() => {});
        throw error;
      }
    });
  } catch (error) {
    await releaseClaim(db, claim);
    throw error;
  }
  const customerId = typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id;
  return keepOrUndo(db, stripe, claim, { customerId, paymentMethodId: body.payment_method_id, subscription });
}

/**
 * POST create-billing-stripe-checkout (the no-JavaScript path): a customer with the form's
 * details and a Checkout Session in setup mode for it; the console sends the browser to `url`.
 * Stripe sends it back to /billing?checkout_session_id=… (or /billing?checkout=cancelled).
 */
export async function createStripeCheckout(
  db: Db,
  config: StripeConfig,
  consoleUrl: string,
  accountId: string,
  body: BillingDetails,
): Promise<{ checkout_session_id: string; url: string }> {
  const stripe = stripeClient(config);
  requirePrice(config);
  await requireNoStripeMethod(db, accountId);
  const session = await provider(async () => {
    const customer = await stripe.customers.create(customerParams(body, accountId));
    return stripe.checkout.sessions.create({
      mode: "setup",
      currency: "usd",
      allowed_payment_method_types: ["card"],
      customer: customer.id,
      client_reference_id: accountId,
      metadata: { account_id: accountId },
      success_url: `${consoleUrl}/billing?checkout_session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${consoleUrl}/billing?checkout=cancelled`,
    });
  });
  if (!session.url) throw new ApiError(400, "The card payment provider did not answer a checkout address.");
  const customerId = typeof session.customer === "string" ? session.customer : session.customer?.id;
  await db.insert(stripeCheckouts).values({ sessionId: session.id, accountId, customerId: customerId ?? "" });
  return { checkout_session_id: session.id, url: session.url };
}

/**
 * POST complete-billing-stripe-checkout: back from Checkout. The session (the caller's own, else
 * 404) → its SetupIntent → the payment method → the customer's default and the subscription.
 * Completing a session twice answers the method it added.
 */
export async function completeStripeCheckout(db: Db, config: StripeConfig, accountId: string, sessionId: string): Promise<Billing> {
  const [checkout] = await db
    .select()
    .from(stripeCheckouts)
    .where(and(eq(stripeCheckouts.sessionId, sessionId), eq(stripeCheckouts.accountId, accountId)));
  if (!checkout) throw new ApiError(404, "Checkout session not found");
  const existing = (await listBillings(db, accountId)).find((b) => b.provider === "Stripe");
  if (checkout.completedAt && existing) return existing;
  // Completed once and its method removed since: completing again would subscribe a second time.
  if (checkout.completedAt) throw new ApiError(409, "This checkout was already completed.");
  const stripe = stripeClient(config);
  if (existing) throw new ApiError(409, STRIPE_EXISTS);
  // One completion at a time; the idempotency keys are the session's, so even two claims (one
  // taken over as stale) make one subscription at Stripe.
  const claim = await claimStripe(db, accountId, sessionId);
  let made: { subscription: Stripe.Subscription; paymentMethodId: string; customerId: string };
  try {
    made = await provider(async () => {
      const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["setup_intent"] });
      if (session.status !== "complete") throw new ApiError(400, "The card was not saved: the checkout is not complete.");
      const intent = session.setup_intent;
      const setupIntent = typeof intent === "string" ? await stripe.setupIntents.retrieve(intent) : intent;
      if (!setupIntent || setupIntent.status !== "succeeded" || !setupIntent.payment_method) {
        throw new ApiError(400, "The card was not saved: the card payment provider did not confirm it.");
      }
      const pm = typeof setupIntent.payment_method === "string" ? setupIntent.payment_method : setupIntent.payment_method.id;
      const customer = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? checkout.customerId);
      return { subscription: await subscribe(stripe, config, claim, customer, pm), paymentMethodId: pm, customerId: customer };
    });
  } catch (error) {
    await releaseClaim(db, claim);
    throw error;
  }
  return keepOrUndo(db, stripe, claim, made, async (tx) => {
    const done = await tx
      .update(stripeCheckouts)
      .set({ completedAt: new Date() })
      .where(and(eq(stripeCheckouts.sessionId, sessionId), isNull(stripeCheckouts.completedAt)))
      .returning({ id: stripeCheckouts.sessionId });
    if (done.length === 0) throw new ApiError(409, "This checkout was already completed.");
  });
}

async function requireMethod(db: DbOrTx, accountId: string, provider: BillingProvider) {
  const [row] = await db
    .select()
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, provider), isMethod));
  if (!row) throw new ApiError(404, `No ${provider} billing method found.`);
  return row;
}

/** POST set-preferred-billing {provider}: under the account's billing lock, so a concurrent removal cannot leave none preferred. */
export async function setPreferredBilling(db: Db, accountId: string, provider: BillingProvider) {
  await db.transaction(async (tx) => {
    await lockBilling(tx, accountId);
    await requireMethod(tx, accountId, provider);
    await tx
      .update(billingMethods)
      .set({ preferred: sql`${billingMethods.provider} = ${provider}`, updatedAt: new Date() })
      .where(and(eq(billingMethods.accountId, accountId), isMethod));
  });
}

/**
 * POST remove-billing {provider}. A Stripe method's subscription is cancelled at Stripe first
 * (already gone there: fine). Then, under the account's billing lock, the row goes and exactly one
 * remaining method is preferred: the flag as it is now, not as it was read before the Stripe call
 * (a set-preferred in between moved it; issue 27 item 2).
 */
export async function removeBilling(db: Db, config: StripeConfig, accountId: string, provider: BillingProvider) {
  const row = await requireMethod(db, accountId, provider);
  if (row.provider === "Stripe" && row.subscriptionId && config.secretKey) {
    const stripe = stripeClient(config);
    await provider_cancel(stripe, row.subscriptionId);
  }
  await db.transaction(async (tx) => {
    await lockBilling(tx, accountId);
    await tx.delete(billingMethods).where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, provider), isMethod));
    await keepOnePreferred(tx, accountId);
  });
}

async function provider_cancel(stripe: Stripe, subscriptionId: string) {
  try {
    await stripe.subscriptions.cancel(subscriptionId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && (error as Stripe.errors.StripeError).code === "resource_missing") return;
    await provider(() => Promise.reject(error));
  }
}

/* Webhook ------------------------------------------------------------------------------------ */

/** The events the webhook acts on (others are stored and acknowledged). */
export const handledEvents = [
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
] as const;

/**
 * POST stripe-webhook: the raw body verified with `stripe.webhooks.constructEvent` and
 * STRIPE_WEBHOOK_SECRET (a bad or missing signature: 400). Each event id is stored once; a
 * redelivery is acknowledged and changes nothing. Subscription events update the method's
 * subscription status; a failed payment marks it 'payment_failed' until the next success.
 */
export async function receiveStripeWebhook(
  db: Db,
  config: StripeConfig,
  rawBody: string,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean; type: string }> {
  if (!config.webhookSecret) throw new ApiError(400, "Stripe webhook secret not found");
  if (!signature) throw new ApiError(400, "Missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    // constructEvent needs no API key; the client only provides the package's webhook helper.
    event = Stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
  } catch (error) {
    throw new ApiError(400, `Webhook signature verification failed: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof event?.id !== "string" || typeof event.type !== "string") throw new ApiError(422, "Not a Stripe event");
  const object = (event.data?.object ?? {}) as { customer?: unknown; id?: unknown; status?: unknown; subscription?: unknown };
  const customerId = typeof object.customer === "string" ? object.customer : null;
  const [method] = customerId
    ? await db.select().from(billingMethods).where(eq(billingMethods.customerIdentifier, customerId)).limit(1)
    : [];
  const inserted = await db
    .insert(stripeEvents)
    .values({ eventId: event.id, type: event.type, accountId: method?.accountId ?? null, payload: event })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.eventId });
  if (inserted.length === 0) return { received: true, duplicate: true, type: event.type };
  if (method) {
    let status: string | null | undefined;
    if (event.type.startsWith("customer.subscription.") && object.id === method.subscriptionId) {
      status = event.type === "customer.subscription.deleted" ? "canceled" : typeof object.status === "string" ? object.status : undefined;
    } else if (event.type === "invoice.payment_failed") {
      status = "payment_failed";
    } else if (event.type === "invoice.payment_succeeded") {
      status = "active";
    }
    if (status !== undefined) {
      await db
        .update(billingMethods)
        .set({ subscriptionStatus: status, updatedAt: new Date() })
        .where(and(eq(billingMethods.accountId, method.accountId), eq(billingMethods.provider, method.provider)));
    }
  }
  return { received: true, duplicate: false, type: event.type };
}

/* Demo data ---------------------------------------------------------------------------------- */

/** The demo account pays through AWS Marketplace (a method AWS adds, not a call of this platform). */
export async function seedDemoBilling(db: Db, accountId: string) {
  await db.insert(billingMethods).values({ accountId, provider: "Aws", customerIdentifier: "aws-mp-demo-7Qk2vX9", preferred: true }).onConflictDoNothing();
}
