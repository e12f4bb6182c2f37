import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { useEffect, useMemo, useState } from "react";

/*
 * The card element of the billing form, with JavaScript (loaded lazily, by this page only): Stripe.js
 * from `jsUrl` (STRIPE_JS_URL; tests serve a double there), the Elements provider and the card
 * element. `onApi` receives the one thing the form needs: make a payment method from the card.
 */

export interface CardApi {
  createPaymentMethod(billing: {
    name: string;
    email: string;
    phone: string;
    address: { line1: string; line2?: string; city: string; state: string; postal_code: string; country: string };
  }): Promise<{ id: string } | { error: string }>;
}

const loaded = new Map<string, Promise<Stripe | null>>();

/** Loads Stripe.js from `jsUrl` once (its script then defines window.Stripe, which loadStripe uses). */
function stripeFrom(jsUrl: string, publishableKey: string): Promise<Stripe | null> {
  const key = `${jsUrl}\n${publishableKey}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      if ((window as { Stripe?: unknown }).Stripe) return resolve();
      const script = document.createElement("script");
      script.src = jsUrl;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error("Stripe.js could not be loaded."));
      document.head.appendChild(script);
    }).then(() => loadStripe(publishableKey));
    loaded.set(key, promise);
  }
  return promise;
}

function Bridge({ onApi }: { onApi: (api: CardApi | null) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    if (!stripe || !elements) return;
    onApi({
      async createPaymentMethod(billing) {
        const card = elements.getElement(CardElement);
        if (!card) return { error: "The card form is not ready yet." };
        const { paymentMethod, error } = await stripe.createPaymentMethod({ type: "card", card, billing_details: billing });
        if (error || !paymentMethod) return { error: error?.message ?? "The card could not be read." };
        return { id: paymentMethod.id };
      },
    });
    return () => onApi(null);
  }, [stripe, elements, onApi]);
  return null;
}

export default function StripeCard({ jsUrl, publishableKey, onApi }: { jsUrl: string; publishableKey: string; onApi: (api: CardApi | null) => void }) {
  const stripePromise = useMemo(() => stripeFrom(jsUrl, publishableKey), [jsUrl, publishableKey]);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    stripePromise.catch((e: Error) => setFailed(e.message));
  }, [stripePromise]);
  if (failed) {
    return (
      <p role="alert" className="text-error text-sm">
        {failed}
      </p>
    );
  }
  return (
    <Elements stripe={stripePromise}>
      <div className="fieldset">
        {/* Named by the word only (as the field frame names a control): the asterisk is hidden from the name. */}
        <span className="fieldset-legend">
          <span id="card-element--label">Card</span>
          <span aria-hidden="true"> *</span>
        </span>
        <div role="group" aria-labelledby="card-element--label" className="rounded-box border-base-300 border p-3">
          <CardElement options={{ hidePostalCode: true }} />
        </div>
      </div>
      <Bridge onApi={onApi} />
    </Elements>
  );
}
