import { and, asc, eq, isNull, sql } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "../db/client.ts";
import { billingMethods, stripeCheckouts, stripeEvents } from "../db/schema.ts";
import { STRIPE_KEY_NOT_FOUND, type Billing, type BillingDetails, type BillingProvider } from "../contract/billing.ts";
import type { StripeConfig } from "../lib/config.ts";
import { ApiError } from "../lib/errors.ts";

/*
 * Billing (spec 1 §3 Billing, §7 Billing) through Stripe, with the official `stripe` package.
 * One billing method per provider per account; the first one added is the preferred one.
 *
 * The card path (browser with JavaScript): Stripe.js creates the payment method; its id comes
 * here: customer created → payment method attached → made the customer's default → subscription
 * to STRIPE_PRICE_ID. The no-JavaScript path: a Checkout Session in setup mode for a new customer;
 * on return, the session's SetupIntent gives the payment method, then the same subscription.
 * A provider error (a declined card, an invalid request) is answered 400 with Stripe's message.
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

/** GET get-billings: the account's billing methods, oldest first. */
export async function listBillings(db: Db, accountId: string): Promise<Billing[]> {
  const rows = await db.select().from(billingMethods).where(eq(billingMethods.accountId, accountId)).orderBy(asc(billingMethods.createdAt));
  return rows.map(rowToBilling);
}

async function requireNoStripeMethod(db: Db, accountId: string) {
  const [existing] = await db
    .select({ provider: billingMethods.provider })
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, "Stripe")));
  if (existing) throw new ApiError(409, "A Stripe billing method already exists. Remove it before adding another card.");
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

/** Stores the new Stripe method; preferred when the account has no other method. */
async function storeStripeMethod(
  db: Db,
  accountId: string,
  m: { customerId: string; paymentMethodId: string; subscription: Stripe.Subscription },
) {
  await db.transaction(async (tx) => {
    const [other] = await tx
      .select({ provider: billingMethods.provider })
      .from(billingMethods)
      .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.preferred, true)));
    await tx.insert(billingMethods).values({
      accountId,
      provider: "Stripe",
      customerIdentifier: m.customerId,
      paymentMethodId: m.paymentMethodId,
      subscriptionId: m.subscription.id,
      subscriptionStatus: m.subscription.status,
      preferred: !other,
    });
  });
}

/** The customer's default payment method and its subscription to the configured price. */
async function subscribe(stripe: Stripe, config: StripeConfig, accountId: string, customerId: string, paymentMethodId: string) {
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
  return stripe.subscriptions.create({
    customer: customerId,
    items: [{ price: requirePrice(config) }],
    default_payment_method: paymentMethodId,
    metadata: { account_id: accountId },
  });
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
  const subscription = await provider(async () => {
    const customer = await stripe.customers.create(customerParams(body, accountId));
    try {
      await stripe.paymentMethods.attach(body.payment_method_id, { customer: customer.id });
      return await subscribe(stripe, config, accountId, customer.id, body.payment_method_id);
    } catch (error) {
      // The card was refused: the customer created for it goes too (best effort).
      await stripe.customers.del(customer.id).catch(() => {});
      throw error;
    }
  });
  const customerId = typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id;
  await storeStripeMethod(db, accountId, { customerId, paymentMethodId: body.payment_method_id, subscription });
  return (await listBillings(db, accountId)).find((b) => b.provider === "Stripe")!;
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
  const stripe = stripeClient(config);
  if (existing) throw new ApiError(409, "A Stripe billing method already exists. Remove it before adding another card.");
  const { subscription, paymentMethodId, customerId } = await provider(async () => {
    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["setup_intent"] });
    if (session.status !== "complete") throw new ApiError(400, "The card was not saved: the checkout is not complete.");
    const intent = session.setup_intent;
    const setupIntent = typeof intent === "string" ? await stripe.setupIntents.retrieve(intent) : intent;
    if (!setupIntent || setupIntent.status !== "succeeded" || !setupIntent.payment_method) {
      throw new ApiError(400, "The card was not saved: the card payment provider did not confirm it.");
    }
    const pm = typeof setupIntent.payment_method === "string" ? setupIntent.payment_method : setupIntent.payment_method.id;
    const customer = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? checkout.customerId);
    return { subscription: await subscribe(stripe, config, accountId, customer, pm), paymentMethodId: pm, customerId: customer };
  });
  await db.transaction(async (tx) => {
    const done = await tx
      .update(stripeCheckouts)
      .set({ completedAt: new Date() })
      .where(and(eq(stripeCheckouts.sessionId, sessionId), isNull(stripeCheckouts.completedAt)))
      .returning({ id: stripeCheckouts.sessionId });
    if (done.length === 0) throw new ApiError(409, "This checkout was already completed.");
  });
  await storeStripeMethod(db, accountId, { customerId, paymentMethodId, subscription });
  return (await listBillings(db, accountId)).find((b) => b.provider === "Stripe")!;
}

async function requireMethod(db: Db, accountId: string, provider: BillingProvider) {
  const [row] = await db
    .select()
    .from(billingMethods)
    .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, provider)));
  if (!row) throw new ApiError(404, `No ${provider} billing method found.`);
  return row;
}

/** POST set-preferred-billing {provider}. */
export async function setPreferredBilling(db: Db, accountId: string, provider: BillingProvider) {
  await requireMethod(db, accountId, provider);
  await db
    .update(billingMethods)
    .set({ preferred: sql`${billingMethods.provider} = ${provider}`, updatedAt: new Date() })
    .where(eq(billingMethods.accountId, accountId));
}

/**
 * POST remove-billing {provider}. A Stripe method's subscription is cancelled at Stripe first
 * (already gone there: fine). The preferred flag moves to the remaining method, if any.
 */
export async function removeBilling(db: Db, config: StripeConfig, accountId: string, provider: BillingProvider) {
  const row = await requireMethod(db, accountId, provider);
  if (row.provider === "Stripe" && row.subscriptionId && config.secretKey) {
    const stripe = stripeClient(config);
    await provider_cancel(stripe, row.subscriptionId);
  }
  await db.transaction(async (tx) => {
    await tx.delete(billingMethods).where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, provider)));
    if (row.preferred) {
      const [next] = await tx
        .select({ provider: billingMethods.provider })
        .from(billingMethods)
        .where(eq(billingMethods.accountId, accountId))
        .orderBy(asc(billingMethods.createdAt))
        .limit(1);
      if (next) {
        await tx
          .update(billingMethods)
          .set({ preferred: true })
          .where(and(eq(billingMethods.accountId, accountId), eq(billingMethods.provider, next.provider)));
      }
    }
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
