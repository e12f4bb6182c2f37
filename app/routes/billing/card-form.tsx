import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { lazy, Suspense, useCallback, useRef, useState, type FormEvent } from "react";
import { Form, useSubmit } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ErrorSummary, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { showToast } from "../../components/toaster.tsx";
import type { CardApi } from "./stripe-card.tsx";

// Stripe's React library and Stripe.js: loaded by this form only, after hydration.
const StripeCard = lazy(() => import("./stripe-card.tsx"));


const countries = [
  ["US", "United States"],
  ["CA", "Canada"],
  ["MX", "Mexico"],
  ["GB", "United Kingdom"],
  ["IE", "Ireland"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["NL", "Netherlands"],
  ["ES", "Spain"],
  ["IT", "Italy"],
  ["AU", "Australia"],
  ["NZ", "New Zealand"],
  ["JP", "Japan"],
  ["SG", "Singapore"],
  ["IN", "India"],
  ["BR", "Brazil"],
].map(([value, label]) => ({ value: value!, label: label! }));

export const CARD_DIALOG = "card";

type CardFields = Record<"first_name" | "last_name" | "email" | "phone" | "street_addr_1" | "street_addr_2" | "city" | "state" | "postal_code" | "country" | "terms", string>;

/**
 * Set up payment (spec 1 §2 Billing screen, §5): the billing details, the terms, and the card.
 * With JavaScript the Stripe card element makes a payment method in the browser and only its id
 * is posted (→ setup-billing-stripe-subscription). Without JavaScript the same button posts the
 * details and the action sends the browser to Stripe Checkout (setup mode), which returns to
 * /billing. Card errors of Stripe.js are persistent toasts, as the platform's are.
 */
export function CardDialog({
  lastResult,
  stripe,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  stripe: { publishableKey: string | null; jsUrl: string };
}) {
  const [form, fields] = useForm<CardFields>({ id: "billing-card", lastResult, constraint: useConstraint("card"), defaultValue: { country: "US" } });
  const hydrated = useHydrated();
  const submit = useSubmit();
  const api = useRef<CardApi | null>(null);
  const [reading, setReading] = useState(false);
  const pending = useIsPending({ intent: "card" }) || reading;
  const onApi = useCallback((value: CardApi | null) => {
    api.current = value;
  }, []);
  const formProps = getFormProps(form);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const card = api.current;
    // Without Stripe.js (not loaded): the no-JavaScript path, Checkout.
    if (!card) return formProps.onSubmit(event);
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    const text = (name: string) => String(formData.get(name) ?? "").trim();
    setReading(true);
    try {
      const made = await card.createPaymentMethod({
        name: `${text("first_name")} ${text("last_name")}`.trim(),
        email: text("email"),
        phone: text("phone"),
        address: {
          line1: text("street_addr_1"),
          line2: text("street_addr_2") || undefined,
          city: text("city"),
          state: text("state"),
          postal_code: text("postal_code"),
          country: text("country") || "US",
        },
      });
      if ("error" in made) {
        showToast({ type: "error", message: made.error });
        return;
      }
      formData.set("payment_method_id", made.id);
      submit(formData, { method: "post", preventScrollReset: true });
    } finally {
      setReading(false);
    }
  }

  return (
    <UrlDialog name={CARD_DIALOG} title="Set up payment" size="lg">
      {stripe.publishableKey ? (
        <Form method="post" preventScrollReset {...formProps} onSubmit={onSubmit}>
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="card" />
          <ErrorSummary form={form} />
          <div className="grid gap-x-4 sm:grid-cols-2">
            <TextField field={fields.first_name} label="First name" autoComplete="given-name" />
            <TextField field={fields.last_name} label="Last name" autoComplete="family-name" />
            <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
            <TextField field={fields.phone} label="Phone" type="tel" autoComplete="tel" />
            <TextField field={fields.street_addr_1} label="Address 1" autoComplete="address-line1" className="sm:col-span-2" />
            <TextField field={fields.street_addr_2} label="Address 2" autoComplete="address-line2" className="sm:col-span-2" />
            <TextField field={fields.city} label="City" autoComplete="address-level2" />
            <TextField field={fields.state} label="State" autoComplete="address-level1" />
            <TextField field={fields.postal_code} label="Postal code" autoComplete="postal-code" />
            <SelectField field={fields.country} label="Country" options={countries} placeholder={null} />
          </div>
          {hydrated ? (
            <Suspense fallback={<p className="text-base-content/70 my-2 text-sm">Loading the card form…</p>}>
              <StripeCard jsUrl={stripe.jsUrl} publishableKey={stripe.publishableKey} onApi={onApi} />
            </Suspense>
          ) : (
            <p className="text-base-content/70 my-2 text-sm" id="card-checkout-note">
              You enter your card on Stripe&apos;s secure page next; it brings you back here.
            </p>
          )}
          <CheckboxField field={fields.terms} marked>
            I accept the terms of service and authorize recurring charges to this card.
          </CheckboxField>
          <DialogActions>
            <SubmitButton pending={pending}>Set up payment</SubmitButton>
          </DialogActions>
        </Form>
      ) : (
        <>
          <p role="alert" className="text-error">
            Stripe key not found
          </p>
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </UrlDialog>
  );
}
