import type { Submission } from "@conform-to/react";
import { data, redirect } from "react-router";
import { failureReply, failureToasts, intentAction, submitForm, validateForm, type FailedCall } from "../../lib/action.server.ts";
import { apiPost, detailMessages, safeReply } from "../../lib/api.server.ts";
import { requireAccountOwner } from "../../lib/session.server.ts";
import { flashToasts, redirectWithToast } from "../../lib/toast.server.ts";
import { CardFormSchema, ProviderSchema } from "./schemas.server.ts";
import { billingMessages } from "../../../platform/contract/messages.ts";

/* The Billing screen's action (spec 1 §5 card form, §7 Billing, §8): account sessions only. */

const CARD_FIELDS = ["email", "phone", "street_addr_1", "street_addr_2", "city", "state", "postal_code", "country"];

async function card(request: Request, formData: FormData) {
  const form = validateForm(formData, CardFormSchema);
  if (!form.ok) return form.reply;
  const { submission, value: v } = form;
  const details = {
    name: `${v.first_name} ${v.last_name}`,
    email: v.email,
    phone: v.phone,
    street_addr_1: v.street_addr_1,
    ...(v.street_addr_2 ? { street_addr_2: v.street_addr_2 } : {}),
    city: v.city,
    state: v.state,
    postal_code: v.postal_code,
    country: v.country,
  };
  // A 422 names the fields; anything else is the card provider's or the platform's sentence.
  const fields = (status: number) => (status === 422 ? CARD_FIELDS : []);
  if (v.payment_method_id) {
    // With JavaScript: Stripe.js made the payment method.
    const res = await apiPost(request, "setup-billing-stripe-subscription", { ...details, payment_method_id: v.payment_method_id });
    if (!res.ok) return res.status === 422 ? failureReply(request, res, { submission, fields: CARD_FIELDS }) : cardFailure(request, submission, res);
    return redirectWithToast(request, "/billing", { type: "success", message: billingMessages.added });
  }
  // Without JavaScript: Stripe Checkout in setup mode, which comes back to /billing. The page is
  // this answer: an error is in the form's summary, what was typed kept.
  const res = await apiPost(request, "create-billing-stripe-checkout", details);
  if (!res.ok) return failureReply(request, res, { submission, fields: fields(res.status) });
  return redirect(res.data.url, { status: 303 });
}

/**
 * A card provider's refusal on the JavaScript path: persistent toasts (spec 1 §8) and the form
 * stays open with what was typed (nothing lost on a bad card). Answered as 200 so that the page's
 * loaders run again and the toasts show at once; the reply carries the message as a form error too.
 */
async function cardFailure(request: Request, submission: Submission<unknown, string[], unknown>, res: FailedCall) {
  const messages = detailMessages(res.detail);
  const setCookie = await flashToasts(request, messages.map((message) => ({ type: "error" as const, message, persistent: true })));
  return data({ result: safeReply(submission, { formErrors: messages }) }, { status: 200, headers: { "Set-Cookie": setCookie } });
}

const provider = (call: "set-preferred-billing" | "remove-billing", toast: string) => (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: ProviderSchema, call, errors: "toast", toast, redirect: "/billing" });

/**
 * Back from Stripe Checkout, the page's form (never its GET: issue 27 item 1): adds the card the
 * checkout saved. Refused (already completed, not complete yet, another card): the message as a toast.
 */
async function completeCheckout(request: Request, formData: FormData) {
  const sessionId = String(formData.get("checkout_session_id") ?? "").trim();
  if (!sessionId || sessionId.length > 200) return redirectWithToast(request, "/billing", { type: "error", message: "Checkout session not found", persistent: true });
  const res = await apiPost(request, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
  if (!res.ok) return failureToasts(request, res, "/billing");
  return redirectWithToast(request, "/billing", { type: "success", message: billingMessages.added });
}

export const billingAction = intentAction(
  {
    card,
    "complete-checkout": completeCheckout,
    preferred: provider("set-preferred-billing", billingMessages.preferredUpdated),
    remove: provider("remove-billing", billingMessages.removed),
  },
  // IAM users: 404, as if the page did not exist (before the form is read).
  { guard: requireAccountOwner },
);
