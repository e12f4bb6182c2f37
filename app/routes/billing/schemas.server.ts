import { z } from "zod";
import { billingLimits, billingProviders } from "../../../platform/contract/billing.ts";
import { formConstraints } from "../../components/constraints.server.ts";
import { emailInput } from "../../lib/form-fields.server.ts";
import { fieldMessages } from "../../../platform/contract/messages.ts";

/*
 * The Billing screen's form schemas (spec 1 §5 'Billing card form'), server-only (README
 * "Validation"): first name, last name, email, phone, address 1, city, state, postal code and the
 * terms checkbox are required; address 2 is optional; country defaults to US. The card element is
 * required too: with JavaScript Stripe.js refuses an empty card before anything is posted; without
 * it the card is entered on Stripe Checkout.
 */

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const CardFormSchema = z.object({
  first_name: required("First name", 99),
  last_name: required("Last name", 100),
  email: emailInput(billingLimits.email),
  phone: required("Phone", billingLimits.phone).regex(/^[0-9+()\-./ ]*[0-9][0-9+()\-./ ]*$/, fieldMessages.phoneInvalid),
  street_addr_1: required("Address 1", billingLimits.street),
  street_addr_2: z.string().trim().max(billingLimits.street, `Address 2 must be at most ${billingLimits.street} characters.`).optional(),
  city: required("City", billingLimits.city),
  state: required("State", billingLimits.state),
  postal_code: required("Postal code", billingLimits.postalCode),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Choose a country.")
    .default("US"),
  terms: z.literal("on", { error: "Accept the terms to continue." }),
  /** Made by Stripe.js in the browser (the card path); absent without JavaScript (Checkout). */
  payment_method_id: z
    .string()
    .trim()
    .max(billingLimits.paymentMethodId)
    .regex(/^pm_[A-Za-z0-9_]+$/, "The card could not be read. Enter it again.")
    .optional(),
});

export const ProviderSchema = z.object({
  provider: z.enum(billingProviders, { error: "Unknown billing method." }),
});

/** The card form's HTML constraints, from the schema (the loader hands them to the form: useConstraint). */
export const constraints = formConstraints({ card: CardFormSchema });
