import { z } from "@hono/zod-openapi";
import { emailField, expects, isSingleLine, junkMessage, maxMessage, phone, text } from "../lib/fields.ts";
import { billingLimits, billingProviders } from "./billing.ts";
import { billingMessages, fieldMessages } from "./messages.ts";
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

// The calls' requests: the platform validates with them and the console's card form is these
// schemas' fields (app/routes/billing/schemas.server.ts).

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
  name: text(billingLimits.name, { min: 1, minMessage: fieldMessages.nameRequired }),
  email: emailField(),
  phone: phone(),
  street_addr_1: text(billingLimits.street, { min: 1, minMessage: billingMessages.streetRequired }),
  street_addr_2: text(billingLimits.street).optional(),
  city: text(billingLimits.city, { min: 1, minMessage: billingMessages.cityRequired }),
  state: text(billingLimits.state, { min: 1, minMessage: billingMessages.stateRequired }),
  postal_code: text(billingLimits.postalCode, { min: 1, minMessage: billingMessages.postalCodeRequired }),
  country,
};

export const SetupBody = z
  .strictObject({ ...detailFields, payment_method_id: stripeId("pm", billingLimits.paymentMethodId) })
  .openapi("SetupBillingStripeSubscription");

export const CheckoutBody = z.strictObject(detailFields).openapi("CreateBillingStripeCheckout");

export const CompleteBody = z
  .strictObject({ checkout_session_id: stripeId("cs", billingLimits.checkoutSessionId) })
  .openapi("CompleteBillingStripeCheckout");

export const ProviderBody = z.strictObject({ provider: providerField() }).openapi("BillingProvider");
