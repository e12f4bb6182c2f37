/*
 * Billing (spec 1 §3 Billing, §5 card form, §7 Billing): the shapes and limits shared by the
 * platform (platform/routes/billing.ts) and the console (app/routes/billing/*). No dependencies.
 */
export type { Billing, BillingAdded, BillingCheckout, StripeWebhookReceived } from "./billing.shapes.ts";

/** The billing providers (spec 1 §6: Stripe, AWS). */
export const billingProviders = ["Stripe", "Aws"] as const;
export type BillingProvider = (typeof billingProviders)[number];

/** The card form's fields (POST setup-billing-stripe-subscription without payment_method_id). */
export interface BillingDetails {
  name: string;
  email: string;
  phone: string;
  street_addr_1: string;
  street_addr_2?: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export const billingLimits = {
  // The e-mail and phone limits are the shared fields' (email(), phone(): limits.email, limits.phone).
  name: 200,
  street: 200,
  city: 100,
  state: 100,
  postalCode: 20,
  /** ISO 3166-1 alpha-2. */
  country: 2,
  paymentMethodId: 255,
  checkoutSessionId: 255,
} as const;

/** What the platform answers while no STRIPE_SECRET_KEY is configured (spec 1 §8). */
export const STRIPE_KEY_NOT_FOUND = "Stripe key not found";
