import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { Billing, BillingAdded, BillingCheckout, CheckoutBody, CompleteBody, ProviderBody, SetupBody, StripeEvent, StripeWebhookReceived } from "../contract/billing.shapes.ts";
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
import { defineCall, DetailSchema } from "../lib/openapi.ts";
import { billingMessages } from "../contract/messages.ts";

/*
 * Billing (spec 1 §7 Billing): account sessions only. IAM users, admins included, get 403 on
 * every call (spec 1 §6; docs: docs/roles.md), before their body is read.
 */

const providerErrors = "Card payment provider errors (a declined card…) answer 400 with the provider's message; no STRIPE_SECRET_KEY: 400 'Stripe key not found'.";

const tags = ["Billing"];

export const getBillingsRoute = defineCall({
  method: "get",
  path: "/get-billings",
  tags,
  summary: "The account's billing methods",
  description: "Account sessions only (IAM users: 403). Oldest first; the first added is preferred.",
  only: "owner",
  response: z.array(Billing),
});

/** A change of the account's billing; a card provider's refusal answers 400. */
const change = <const P extends `/${string}`, B extends z.ZodType, R extends z.ZodType>(path: P, summary: string, description: string, body: B, response: R, errors: readonly (404 | 409)[]) =>
  defineCall({ method: "post", path, tags, summary, description, only: "owner", body, response, errors });

export const setupRoute = change(
  "/setup-billing-stripe-subscription",
  "Add a card: Stripe customer, the payment method attached, the subscription",
  `The payment method was created by Stripe.js in the browser. Answers 'Billing successfully added!'. An account has at most one Stripe method (409). ${providerErrors}`,
  SetupBody,
  BillingAdded,
  [404, 409],
);

export const checkoutRoute = change(
  "/create-billing-stripe-checkout",
  "Add a card without JavaScript: a Stripe Checkout Session in setup mode",
  `A Stripe customer with these details and a Checkout Session for it; send the browser to \`url\`. Stripe returns it to /billing?checkout_session_id=… (complete-billing-stripe-checkout) or /billing?checkout=cancelled. ${providerErrors}`,
  CheckoutBody,
  BillingCheckout,
  [404, 409],
);

export const completeRoute = change(
  "/complete-billing-stripe-checkout",
  "Back from Stripe Checkout: the saved card becomes the subscription's",
  `The session (the caller's, else 404) → its SetupIntent → the payment method → the customer's default → the subscription. Answers 'Billing successfully added!'; again for a completed session. ${providerErrors}`,
  CompleteBody,
  BillingAdded,
  [404, 409],
);

export const preferredRoute = change(
  "/set-preferred-billing",
  "Make a billing method the preferred one",
  "Answers 'Preferred billing method updated.'; 404 when the account has no method of that provider.",
  ProviderBody,
  DetailSchema,
  [404],
);

export const removeRoute = change(
  "/remove-billing",
  "Remove a billing method",
  `Answers 'Billing method removed.'. A Stripe method's subscription is cancelled at Stripe. The remaining method, if any, becomes preferred. ${providerErrors}`,
  ProviderBody,
  DetailSchema,
  [404],
);

export const webhookRoute = defineCall({
  method: "post",
  path: "/stripe-webhook",
  tags,
  summary: "Stripe's webhook (public; signed)",
  description: `Verified with the Stripe-Signature header and STRIPE_WEBHOOK_SECRET (stripe.webhooks.constructEvent); unsigned or badly signed: 400. Each event is stored once (its id); a redelivery answers duplicate: true. Acts on ${handledEvents.join(", ")}.`,
  public: true,
  headers: z.object({ "stripe-signature": z.string().optional().openapi({ description: "Stripe's signature of the raw body" }) }),
  body: StripeEvent,
  response: StripeWebhookReceived,
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
    return c.json({ detail: billingMessages.added, billing }, 200);
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
    return c.json({ detail: billingMessages.added, billing }, 200);
  });

  app.openapi(preferredRoute, async (c) => {
    const who = requireOwner(c);
    await setPreferredBilling(c.get("deps").db, who.accountId, c.req.valid("json").provider);
    return c.json({ detail: billingMessages.preferredUpdated }, 200);
  });

  app.openapi(removeRoute, async (c) => {
    const who = requireOwner(c);
    const { db, config } = c.get("deps");
    await removeBilling(db, config.stripe, who.accountId, c.req.valid("json").provider);
    return c.json({ detail: billingMessages.removed }, 200);
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
