import { useEffect, useRef } from "react";
import { Form, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Billing } from "../../../platform/contract/billing.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { Card } from "../../components/card.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { Screen, useScreen } from "../../components/screen.tsx";
import { useIsPending } from "../../components/hooks.ts";
import { apiGetOrThrow } from "../../lib/api.server.ts";
import { requireAccountOwner } from "../../lib/session.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref } from "../../lib/url.ts";
import { CARD_DIALOG, CardDialog } from "./card-form.tsx";
import { billingAction } from "./actions.server.ts";
import { constraints } from "./schemas.server.ts";
import { stripeBrowserConfig } from "./stripe.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Billing (spec 1 §2 Billing screen, §3 Billing, §5 card form, §6, §7 Billing, §8): account
 * sessions only (IAM users: 404, as if the page did not exist).
 * ---------------------------------------------------------------------------------------------- */

const AWS_MARKETPLACE_URL = "https://aws.amazon.com/marketplace";
const HELP_URL = "https://docs.stripe.com/billing/subscriptions/overview";

const providerLabel = (p: string) => (p === "Aws" ? "AWS Marketplace" : p);

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAccountOwner(request);
  const url = new URL(request.url);
  if (url.searchParams.get("checkout") === "cancelled") {
    return redirectWithToast(request, "/billing", { type: "info", message: "The card was not saved: the checkout was cancelled." });
  }
  // Back from Stripe Checkout (the no-JavaScript path): a GET changes nothing (issue 27 item 1).
  // The page offers the completion as a form (intent complete-checkout); with JavaScript it sends
  // itself, without it is one button press.
  const sessionId = url.searchParams.get("checkout_session_id")?.trim() ?? "";
  const checkout = sessionId && sessionId.length <= 200 ? { session_id: sessionId } : null;
  const billings = await apiGetOrThrow(request, "get-billings");
  return { billings, stripe: stripeBrowserConfig(), constraints, checkout };
}

/*
 * The page's Content-Security-Policy allows Stripe (Stripe.js, its frames, Checkout) only when the
 * document itself was loaded at /billing (app/lib/csp.server.ts). Arriving here by a client-side
 * navigation from another page, the document still has that page's policy: load /billing as a
 * document instead.
 */
export async function clientLoader({ serverLoader, request }: Route.ClientLoaderArgs) {
  const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (entry && new URL(entry.name).pathname !== "/billing") {
    window.location.assign(request.url);
    return new Promise<never>(() => {});
  }
  return serverLoader();
}

export const action = billingAction;

/* Component ------------------------------------------------------------------------------------ */

function ExternalLink({ href, children, className = "link link-primary" }: { href: string; children: React.ReactNode; className?: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** Make preferred (set-preferred-billing): the method's provider (the dialogs' constraints test renders it). */
export function PreferredForm({ provider }: { provider: string }) {
  const pending = useIsPending({ intent: "preferred" });
  return (
    <Form method="post" preventScrollReset>
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="intent" value="preferred" />
      <input type="hidden" name="provider" value={provider} />
      <SubmitButton className="btn btn-outline btn-sm" pending={pending}>
        Make preferred<span className="sr-only"> ({providerLabel(provider)})</span>
      </SubmitButton>
    </Form>
  );
}

/** Remove billing method (remove-billing): the method's provider (the dialogs' constraints test renders it). */
export function RemoveDialog({ billing }: { billing: Billing | undefined }) {
  const pending = useIsPending({ intent: "remove" });
  return (
    <UrlDialog name="remove" title="Remove billing method">
      {billing ? (
        <Form method="post" preventScrollReset>
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="provider" value={billing.provider} />
          <p>
            Remove the {providerLabel(billing.provider)} billing method ({billing.subscription_info.customer_identifier})?
            {billing.provider === "Stripe" ? " Its subscription is cancelled." : ""}
          </p>
          <DialogActions>
            <SubmitButton className="btn btn-error" pending={pending}>
              Remove
            </SubmitButton>
          </DialogActions>
        </Form>
      ) : (
        <>
          <p>This billing method no longer exists.</p>
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </UrlDialog>
  );
}

/**
 * Back from Stripe Checkout: the card is saved at Stripe; this POST adds it to the account. With
 * JavaScript the form sends itself once on arrival; without, the button does.
 */
function CompleteCheckout({ sessionId }: { sessionId: string }) {
  const pending = useIsPending({ intent: "complete-checkout" });
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !form.current) return;
    sent.current = true;
    form.current.requestSubmit();
  }, []);
  return (
    <Card id="card-checkout" title="Finish adding your card">
      <Form method="post" ref={form} preventScrollReset className="flex flex-col gap-2">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="complete-checkout" />
        <input type="hidden" name="checkout_session_id" value={sessionId} />
        <p>Your card was saved at Stripe. Add it to your account to start the subscription.</p>
        <div className="card-actions">
          <SubmitButton className="btn btn-primary btn-sm" pending={pending}>
            Add the card
          </SubmitButton>
        </div>
      </Form>
    </Card>
  );
}

function BillingActions({ billing }: { billing: Billing }) {
  const location = useLocation();
  return (
    <div className="flex flex-wrap gap-2">
      {billing.preferred ? null : <PreferredForm provider={billing.provider} />}
      <a href={dialogHref(location, "remove", billing.provider)} className="btn btn-outline btn-error btn-sm">
        Remove<span className="sr-only"> ({providerLabel(billing.provider)})</span>
      </a>
    </div>
  );
}

const billingColumns: SimpleColumn<Billing>[] = [
  { id: "provider", header: "Provider", cell: (b) => providerLabel(b.provider) },
  {
    id: "subscription",
    header: "Subscription Info",
    className: "break-all",
    cell: (b) => (
      <>
        {b.subscription_info.customer_identifier}
        {b.subscription_info.status ? <span className="text-base-content/70 block text-sm">Subscription {b.subscription_info.status}</span> : null}
      </>
    ),
  },
  { id: "preferred", header: "Preferred", cell: (b) => (b.preferred ? "Yes" : "No") },
  { id: "actions", header: "Actions", kind: "actions", cell: (b) => <BillingActions billing={b} /> },
];

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { billings, stripe, checkout } = loaderData;
  const location = useLocation();
  const { dialog, dialogId, result, error } = useScreen(actionData);
  const hasStripe = billings.some((b) => b.provider === "Stripe");

  return (
    <Screen title="Billing" error={error}>

      {checkout && !hasStripe ? <CompleteCheckout sessionId={checkout.session_id} /> : null}

      <div className="grid gap-4 md:grid-cols-2">
        <Card id="card-platform" title="Pay with a card">
          <p>Set up payment on the platform: your card is charged monthly through Stripe.</p>
          {stripe.publishableKey ? null : (
            <p role="status" className="text-error">
              Stripe key not found
            </p>
          )}
          <div className="card-actions">
            {hasStripe ? (
              <p className="text-base-content/70 text-sm">A card is set up. Remove it below to use another.</p>
            ) : (
              <a href={dialogHref(location, CARD_DIALOG)} className="btn btn-primary btn-sm">
                Set up payment
              </a>
            )}
          </div>
        </Card>
        <Card id="card-aws" title="AWS Marketplace">
          <p>Pay through your AWS account: subscribe to the product on AWS Marketplace.</p>
          <div className="card-actions">
            <ExternalLink href={AWS_MARKETPLACE_URL} className="btn btn-outline btn-sm">
              Go to AWS Marketplace
            </ExternalLink>
          </div>
        </Card>
      </div>

      <Card id="billing-methods" title="Billing methods">
        <SimpleTable caption="Billing methods" columns={billingColumns} rows={billings} getRowId={(b) => b.provider} />
      </Card>

      <Card id="billing-help" title="Help" as="aside" className="bg-base-200">
        <p>
          Questions about charges, invoices or subscriptions? Read{" "}
          <ExternalLink href={HELP_URL}>how billing and subscriptions work</ExternalLink>, or open a ticket in the Support Center.
        </p>
      </Card>

      {dialog === CARD_DIALOG ? <CardDialog lastResult={result} stripe={stripe} /> : null}
      {dialog === "remove" ? <RemoveDialog billing={billings.find((b) => b.provider === dialogId)} /> : null}
    </Screen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
