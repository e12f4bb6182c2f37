import { z } from "@hono/zod-openapi";
import { billingProviders } from "./billing.ts";
import { isoTime } from "./common.shapes.ts";

/** A billing method as GET get-billings answers it. */
export const Billing = z
  .object({
    provider: z.enum(billingProviders),
    preferred: z.boolean(),
    subscription_info: z.object({
      customer_identifier: z.string().openapi({ description: "The provider's customer id (Stripe: cus_…)", example: "cus_Q1w2e3r4t5y6" }),
      subscription_id: z.string().nullable(),
      status: z.string().nullable().openapi({ description: "Stripe's subscription status, kept current by the webhook" }),
    }),
    created_at: isoTime(),
  })
  .openapi("Billing");
export type Billing = z.infer<typeof Billing>;

export const BillingAdded = z.object({ detail: z.string(), billing: Billing }).openapi("BillingAdded");
export type BillingAdded = z.infer<typeof BillingAdded>;

export const BillingCheckout = z.object({ checkout_session_id: z.string(), url: z.string() }).openapi("BillingCheckout");
export type BillingCheckout = z.infer<typeof BillingCheckout>;

/** The Stripe event the webhook is sent (read raw: only its signature decides). */
export const StripeEvent = z
  .object({ id: z.string(), type: z.string(), data: z.object({ object: z.looseObject({}) }) })
  .loose()
  .openapi("StripeEvent");

export const StripeWebhookReceived = z.object({ received: z.literal(true), duplicate: z.boolean(), type: z.string() }).openapi("StripeWebhookReceived");
export type StripeWebhookReceived = z.infer<typeof StripeWebhookReceived>;
