import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useLocation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Billing } from "../../../platform/contract/billing.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { PageTitle, SubmitButton } from "../../components/forms.tsx";
import { usePendingIntent } from "../../components/hooks.ts";
import type { Submission } from "@conform-to/react";
import { apiGetOrThrow, apiPost, safeReply, upstreamReply, type ApiResult } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { requireAccountOwner } from "../../lib/session.server.ts";
import { detailMessages } from "../../lib/api.server.ts";
import { flashToasts, redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref } from "../../lib/url.ts";
import { CARD_DIALOG, CardDialog } from "./card-form.tsx";
import { CardFormSchema, ProviderSchema } from "./schemas.server.ts";
import { stripeBrowserConfig } from "./stripe.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Billing (spec 1 §2 Billing screen, §3 Billing, §5 card form, §6, §7 Billing, §8): account
 * sessions only (IAM users: 404, as if the page did not exist).
 * ---------------------------------------------------------------------------------------------- */

const AWS_MARKETPLACE_URL = "https://aws.amazon.com/marketplace";
const HELP_URL = "https://docs.stripe.com/billing/subscriptions/overview";

const providerLabel = (p: string) => (p === "Aws" ? "AWS Marketplace" : p);

/** A platform error as persistent toasts (card provider errors among them), back on /billing. */
function failureToasts(request: Request, result: Extract<ApiResult<unknown>, { ok: false }>, to = "/billing") {
  const toasts = detailMessages(result.detail).map((message) => ({ type: "error" as const, message, persistent: true }));
  return redirectWithToast(request, to, toasts);
}

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAccountOwner(request);
  const url = new URL(request.url);
  // Back from Stripe Checkout (the no-JavaScript path): complete it, then the plain page.
  const sessionId = url.searchParams.get("checkout_session_id");
  if (sessionId) {
    const res = await apiPost<{ detail: string }>(request, "complete-billing-stripe-checkout", { checkout_session_id: sessionId });
    if (!res.ok) return failureToasts(request, res);
    return redirectWithToast(request, "/billing", { type: "success", message: "Billing successfully added!" });
  }
  if (url.searchParams.get("checkout") === "cancelled") {
    return redirectWithToast(request, "/billing", { type: "info", message: "The card was not saved: the checkout was cancelled." });
  }
  const billings = await apiGetOrThrow<Billing[]>(request, "get-billings");
  return { billings, stripe: stripeBrowserConfig() };
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

/* Action --------------------------------------------------------------------------------------- */

export async function action({ request }: Route.ActionArgs) {
  await requireAccountOwner(request);
  const formData = await readForm(request);
  switch (formData.get("intent")) {
    case "card":
      return setUpCard(request, formData);
    case "preferred":
    case "remove":
      return providerAction(request, formData, formData.get("intent") as "preferred" | "remove");
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

async function setUpCard(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: CardFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
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
  const fieldNames = ["email", "phone", "street_addr_1", "street_addr_2", "city", "state", "postal_code", "country"];
  if (v.payment_method_id) {
    // With JavaScript: Stripe.js made the payment method.
    const res = await apiPost(request, "setup-billing-stripe-subscription", { ...details, payment_method_id: v.payment_method_id });
    if (!res.ok) return res.status === 422 ? upstreamReply(submission, res, fieldNames) : cardFailure(request, submission, res);
    return redirectWithToast(request, "/billing", { type: "success", message: "Billing successfully added!" });
  }
  // Without JavaScript: Stripe Checkout in setup mode, which comes back to /billing.
  const res = await apiPost<{ url: string }>(request, "create-billing-stripe-checkout", details);
  // Without JavaScript the page is this answer: the error is in the form's summary, what was typed kept.
  if (!res.ok) return res.status === 422 ? upstreamReply(submission, res, fieldNames) : upstreamReply(submission, res, []);
  return redirect(res.data.url, { status: 303 });
}

/**
 * A card provider's refusal on the JavaScript path: persistent toasts (spec 1 §8) and the form
 * stays open with what was typed (nothing lost on a bad card). Answered as 200 so that the page's
 * loaders run again and the toasts show at once; the reply carries the message as a form error too.
 */
async function cardFailure(request: Request, submission: Submission<unknown>, res: Extract<ApiResult<unknown>, { ok: false }>) {
  const messages = detailMessages(res.detail);
  const setCookie = await flashToasts(request, messages.map((message) => ({ type: "error" as const, message, persistent: true })));
  return data({ result: safeReply(submission, { formErrors: messages }) }, { status: 200, headers: { "Set-Cookie": setCookie } });
}

async function providerAction(request: Request, formData: FormData, intent: "preferred" | "remove") {
  const submission = parseWithZod(formData, { schema: ProviderSchema });
  if (submission.status !== "success") throw data({ message: "Unknown billing method." }, { status: 400 });
  const call = intent === "preferred" ? "set-preferred-billing" : "remove-billing";
  const res = await apiPost(request, call, { provider: submission.value.provider });
  if (!res.ok) return failureToasts(request, res);
  const message = intent === "preferred" ? "Preferred billing method updated." : "Billing method removed.";
  return redirectWithToast(request, "/billing", { type: "success", message });
}

/* Component ------------------------------------------------------------------------------------ */

function ExternalLink({ href, children, className = "link link-primary" }: { href: string; children: React.ReactNode; className?: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

function PreferredForm({ provider }: { provider: string }) {
  const pending = usePendingIntent() === "preferred";
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

function RemoveDialog({ billing }: { billing: Billing | undefined }) {
  const pending = usePendingIntent() === "remove";
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

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { billings, stripe } = loaderData;
  const location = useLocation();
  const [params] = useSearchParams();
  const dialog = params.get("dialog");
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const hasStripe = billings.some((b) => b.provider === "Stripe");

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="Billing" error={result?.status === "error"} />
      <h1 id="page-title" className="text-2xl font-semibold">
        Billing
      </h1>

      <div className="grid gap-4 md:grid-cols-2">
        <section className="card bg-base-100 shadow-sm" aria-labelledby="card-platform">
          <div className="card-body">
            <h2 id="card-platform" className="card-title text-lg">
              Pay with a card
            </h2>
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
          </div>
        </section>
        <section className="card bg-base-100 shadow-sm" aria-labelledby="card-aws">
          <div className="card-body">
            <h2 id="card-aws" className="card-title text-lg">
              AWS Marketplace
            </h2>
            <p>Pay through your AWS account: subscribe to the product on AWS Marketplace.</p>
            <div className="card-actions">
              <ExternalLink href={AWS_MARKETPLACE_URL} className="btn btn-outline btn-sm">
                Go to AWS Marketplace
              </ExternalLink>
            </div>
          </div>
        </section>
      </div>

      <section className="card bg-base-100 shadow-sm" aria-labelledby="billing-methods">
        <div className="card-body">
          <h2 id="billing-methods" className="card-title text-lg">
            Billing methods
          </h2>
          {billings.length === 0 ? (
            <p className="text-base-content/70">No data</p>
          ) : (
            <table className="table kit-billing-table">
              <caption className="sr-only">Billing methods</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Subscription Info</th>
                  <th scope="col">Preferred</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {billings.map((b) => (
                  <tr key={b.provider} data-provider={b.provider}>
                    <th scope="row">{providerLabel(b.provider)}</th>
                    <td className="break-all">
                      {b.subscription_info.customer_identifier}
                      {b.subscription_info.status ? <span className="text-base-content/70 block text-sm">Subscription {b.subscription_info.status}</span> : null}
                    </td>
                    <td>{b.preferred ? "Yes" : "No"}</td>
                    <td>
                      <div className="flex flex-wrap gap-2">
                        {b.preferred ? null : <PreferredForm provider={b.provider} />}
                        <a href={dialogHref(location, "remove", b.provider)} className="btn btn-outline btn-error btn-sm">
                          Remove<span className="sr-only"> ({providerLabel(b.provider)})</span>
                        </a>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </section>

      <aside className="card bg-base-200" aria-labelledby="billing-help">
        <div className="card-body">
          <h2 id="billing-help" className="card-title text-lg">
            Help
          </h2>
          <p>
            Questions about charges, invoices or subscriptions? Read{" "}
            <ExternalLink href={HELP_URL}>how billing and subscriptions work</ExternalLink>, or open a ticket in the Support Center.
          </p>
        </div>
      </aside>

      {dialog === CARD_DIALOG ? <CardDialog lastResult={result} stripe={stripe} /> : null}
      {dialog === "remove" ? <RemoveDialog billing={billings.find((b) => b.provider === params.get("id"))} /> : null}
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
