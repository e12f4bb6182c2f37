import { z } from "zod";
import { billingLimits } from "../../../platform/contract/billing.ts";
import { formConstraints } from "../../components/constraints.server.ts";
import { blankAsMissing, requestForm, requiredText } from "../../lib/form-fields.server.ts";
import { ProviderBody, SetupBody } from "../../../platform/contract/billing.shapes.ts";
import { limits, maxMessage } from "../../../platform/lib/fields.ts";

/*
 * The Billing screen's form schemas (spec 1 §5 'Billing card form'), server-only (README
 * "Validation"): first name, last name, email, phone, address 1, city, state, postal code and the
 * terms checkbox are required; address 2 is optional; country defaults to US. The card element is
 * required too: with JavaScript Stripe.js refuses an empty card before anything is posted; without
 * it the card is entered on Stripe Checkout.
 */

const request = SetupBody.shape;
const PHONE_REQUIRED = "Phone is required.";

/**
 * The card form is the setup/checkout request's billing details (their words and limits), with
 * the form's own fields: first and last name (the request's `name` is the two joined, at most its
 * 200 characters), the phone's blank (the request's `phone()` says a JSON client's 'Field must not
 * be empty'), the terms box, and Stripe.js's payment method (absent without JavaScript: Checkout).
 */
export const CardFormSchema = requestForm(
  z.object({
    first_name: requiredText("First name is required.", 99),
    last_name: requiredText("Last name is required.", 100),
    email: request.email,
    // A blank says the form's words first, then the request's phone checks. The pipe's input
    // carries the request's limit too: the HTML constraints are read from the input side.
    phone: z
      .string({ error: PHONE_REQUIRED })
      .trim()
      .min(1, { message: PHONE_REQUIRED, abort: true })
      .max(limits.phone, maxMessage(limits.phone))
      .pipe(request.phone),
    street_addr_1: request.street_addr_1,
    street_addr_2: request.street_addr_2,
    city: request.city,
    state: request.state,
    postal_code: request.postal_code,
    country: request.country,
    terms: z.literal("on", { error: "Accept the terms to continue." }),
    /** Made by Stripe.js in the browser (the card path); absent without JavaScript (Checkout). */
    payment_method_id: blankAsMissing(
      z
        .string()
        .trim()
        .max(billingLimits.paymentMethodId)
        .regex(/^pm_[A-Za-z0-9_]+$/, "The card could not be read. Enter it again.")
        .optional(),
    ),
  }),
);

/** Make preferred and Remove: set-preferred-billing's and remove-billing's request (the method's provider). */
export const ProviderSchema = requestForm(z.object(ProviderBody.shape));

/** The forms' HTML constraints, from the schemas (the loader hands them to the forms: useConstraint). */
export const constraints = formConstraints({ card: CardFormSchema, preferred: ProviderSchema, remove: ProviderSchema });
