/*
 * The console's Stripe settings (docs/billing.md): STRIPE_PUBLISHABLE_KEY (pk_…) for Stripe.js,
 * and STRIPE_JS_URL, where Stripe.js is loaded from (default Stripe's own; tests: a local double).
 */

/** The Stripe.js release that @stripe/stripe-js 10 expects. */
export const DEFAULT_STRIPE_JS_URL = "https://js.stripe.com/endive/stripe.js";

export function stripeBrowserConfig(env: NodeJS.ProcessEnv = process.env) {
  return {
    publishableKey: env.STRIPE_PUBLISHABLE_KEY?.trim() || null,
    jsUrl: env.STRIPE_JS_URL?.trim() || DEFAULT_STRIPE_JS_URL,
  };
}
