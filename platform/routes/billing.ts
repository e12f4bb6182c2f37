import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { billingLimits, billingProviders, type Billing } from "../contract/billing.ts";
import {
  completeStripeCheckout,
  createStripeCheckout,
  handledEvents,
  listBillings,
  receiveStripeWebhook,
  removeBilling,
  setPreferredBilling,
  setupStripeSubscription,
} from "../domain/billing.ts";
import { requireOwner } from "../lib/context.ts";
import { emailField, expects, isSingleLine, junkMessage, maxMessage, phone, requiredName, text } from "../lib/fields.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";
import type { MiddlewareHandler } from "hono";
import type { Env } from "../lib/context.ts";

/*
 * Billing (spec 1 §7 Billing): account sessions only. IAM users, admins included, get 403 on
 * every call (spec 1 §6; docs: README "Roles"), before their body is read.
 */

const ownerOnly: MiddlewareHandler<Env> = async (c, next) => {
  requireOwner(c);
  await next();
};

const BillingSchema = z
  .object({
    provider: z.enum(billingProviders),
    preferred: z.boolean(),
    subscription_info: z.object({
      customer_identifier: z.string().openapi({ example: "cus_Q1w2e3r4t5y6" }),
      subscription_id: z.string().nullable(),
      status: z.string().nullable().openapi({ description: "Stripe's subscription status, kept current by the webhook" }),
    }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Billing") satisfies z.ZodType<Billing>;

const providerField = () =>
  z
    .enum(billingProviders, {
      error: (iss) => (iss.input === undefined ? "Field required" : `Provider must be one of: ${billingProviders.join(", ")}`),
    })
    .openapi({ description: "Stripe or Aws" });

/** A Stripe object id as Stripe shapes them (pm_…, cs_…): letters, digits, underscores. */
const stripeId = (prefix: string, max: number) =>
  z
    .string({ error: expects("a valid string") })
    .min(1, "Field must not be empty")
    .max(max, maxMessage(max))
    .refine(isSingleLine, junkMessage)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `Must be a Stripe id starting with ${prefix}_`);

const country = z
  .string({ error: expects("a valid string") })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "Country must be a two-letter ISO code")
  .openapi({ example: "US" });

const detailFields = {
  name: requiredName("Name", billingLimits.name),
  email: emailField(),
  phone: phone(),
  street_addr_1: requiredName("Address 1", billingLimits.street),
  street_addr_2: text(billingLimits.street).optional(),
  city: requiredName("City", billingLimits.city),
  state: requiredName("State", billingLimits.state),
  postal_code: requiredName("Postal code", billingLimits.postalCode),
  country,
};

const SetupBody = z
  .strictObject({ ...detailFields, payment_method_id: stripeId("pm", billingLimits.paymentMethodId) })
  .openapi("SetupBillingStripeSubscription");

const CheckoutBody = z.strictObject(detailFields).openapi("CreateBillingStripeCheckout");

const CompleteBody = z
  .strictObject({ checkout_session_id: stripeId("cs", billingLimits.checkoutSessionId) })
  .openapi("CompleteBillingStripeCheckout");

const ProviderBody = z.strictObject({ provider: providerField() }).openapi("BillingProvider");

const BillingAddedSchema = z.object({ detail: z.string(), billing: BillingSchema }).openapi("BillingAdded");

const providerErrors = "Card payment provider errors (a declined card…) answer 400 with the provider's message; no STRIPE_SECRET_KEY: 400 'Stripe key not found'.";

const getBillingsRoute = createRoute({
  method: "get",
  path: "/get-billings",
  tags: ["Billing"],
  summary: "The account's billing methods",
  description: "Account sessions only (IAM users: 403). Oldest first; the first added is preferred.",
  security: bearer,
  middleware: [ownerOnly],
  responses: { ...ok(z.array(BillingSchema)), ...errors(401, 403) },
});

const setupRoute = createRoute({
  method: "post",
  path: "/setup-billing-stripe-subscription",
  tags: ["Billing"],
  summary: "Add a card: Stripe customer, the payment method attached, the subscription",
  description: `The payment method was created by Stripe.js in the browser. Answers 'Billing successfully added!'. An account has at most one Stripe method (409). ${providerErrors}`,
  security: bearer,
  middleware: [ownerOnly],
  request: jsonBody(SetupBody),
  responses: { ...ok(BillingAddedSchema), ...writeResponses, ...errors(409) },
});

const checkoutRoute = createRoute({
  method: "post",
  path: "/create-billing-stripe-checkout",
  tags: ["Billing"],
  summary: "Add a card without JavaScript: a Stripe Checkout Session in setup mode",
  description: `A Stripe customer with these details and a Checkout Session for it; send the browser to \`url\`. Stripe returns it to /billing?checkout_session_id=… (complete-billing-stripe-checkout) or /billing?checkout=cancelled. ${providerErrors}`,
  security: bearer,
  middleware: [ownerOnly],
  request: jsonBody(CheckoutBody),
  responses: {
    ...ok(z.object({ checkout_session_id: z.string(), url: z.string() }).openapi("BillingCheckout")),
    ...writeResponses,
    ...errors(409),
  },
});

const completeRoute = createRoute({
  method: "post",
  path: "/complete-billing-stripe-checkout",
  tags: ["Billing"],
  summary: "Back from Stripe Checkout: the saved card becomes the subscription's",
  description: `The session (the caller's, else 404) → its SetupIntent → the payment method → the customer's default → the subscription. Answers 'Billing successfully added!'; again for a completed session. ${providerErrors}`,
  security: bearer,
  middleware: [ownerOnly],
  request: jsonBody(CompleteBody),
  responses: { ...ok(BillingAddedSchema), ...writeResponses, ...errors(409) },
});

const preferredRoute = createRoute({
  method: "post",
  path: "/set-preferred-billing",
  tags: ["Billing"],
  summary: "Make a billing method the preferred one",
  description: "Answers 'Preferred billing method updated.'; 404 when the account has no method of that provider.",
  security: bearer,
  middleware: [ownerOnly],
  request: jsonBody(ProviderBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const removeRoute = createRoute({
  method: "post",
  path: "/remove-billing",
  tags: ["Billing"],
  summary: "Remove a billing method",
  description: `Answers 'Billing method removed.'. A Stripe method's subscription is cancelled at Stripe. The remaining method, if any, becomes preferred. ${providerErrors}`,
  security: bearer,
  middleware: [ownerOnly],
  request: jsonBody(ProviderBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const webhookRoute = createRoute({
  method: "post",
  path: "/stripe-webhook",
  tags: ["Billing"],
  summary: "Stripe's webhook (public; signed)",
  description: `Verified with the Stripe-Signature header and STRIPE_WEBHOOK_SECRET (stripe.webhooks.constructEvent); unsigned or badly signed: 400. Each event is stored once (its id); a redelivery answers duplicate: true. Acts on ${handledEvents.join(", ")}.`,
  request: {
    headers: z.object({ "stripe-signature": z.string().optional().openapi({ description: "Stripe's signature of the raw body" }) }),
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ id: z.string(), type: z.string(), data: z.object({ object: z.object({}).passthrough() }) }).passthrough().openapi("StripeEvent") } },
    },
  },
  responses: {
    ...ok(z.object({ received: z.literal(true), duplicate: z.boolean(), type: z.string() }).openapi("StripeWebhookReceived")),
    ...errors(400, 413, 422),
  },
});

export function registerBillingCalls(app: PlatformApp) {
  app.openapi(getBillingsRoute, async (c) => {
    const who = requireOwner(c);
    return c.json(await listBillings(c.get("deps").db, who.accountId), 200);
  });

  app.openapi(setupRoute, async (c) => {
    const who = requireOwner(c);
    const { db, config } = c.get("deps");
    const billing = await setupStripeSubscription(db, config.stripe, who.accountId, c.req.valid("json"));
    return c.json({ detail: "Billing successfully added!", billing }, 200);
  });

  app.openapi(checkoutRoute, async (c) => {
    const who = requireOwner(c);
    const { db, config } = c.get("deps");
    return c.json(await createStripeCheckout(db, config.stripe, config.consoleUrl, who.accountId, c.req.valid("json")), 200);
  });

  app.openapi(completeRoute, async (c) => {
    const who = requireOwner(c);
    const { db, config } = c.get("deps");
    const billing = await completeStripeCheckout(db, config.stripe, who.accountId, c.req.valid("json").checkout_session_id);
    return c.json({ detail: "Billing successfully added!", billing }, 200);
  });

  app.openapi(preferredRoute, async (c) => {
    const who = requireOwner(c);
    await setPreferredBilling(c.get("deps").db, who.accountId, c.req.valid("json").provider);
    return c.json({ detail: "Preferred billing method updated." }, 200);
  });

  app.openapi(removeRoute, async (c) => {
    const who = requireOwner(c);
    const { db, config } = c.get("deps");
    await removeBilling(db, config.stripe, who.accountId, c.req.valid("json").provider);
    return c.json({ detail: "Billing method removed." }, 200);
  });

  // The signature covers the exact bytes: the body is read raw, never parsed by a validator first.
  // The route is documented with its body, but registered without a validator (a validator would
  // parse the body first, and the handler would read it re-serialised, not as signed).
  app.openAPIRegistry.registerPath(webhookRoute);
  app.post(webhookRoute.path, async (c) => {
    const { db, config } = c.get("deps");
    const raw = await c.req.text();
    return c.json(await receiveStripeWebhook(db, config.stripe, raw, c.req.header("stripe-signature")), 200);
  });
}
