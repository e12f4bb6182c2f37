import { Logo } from "./logo.tsx";
import { DataRequestNotice } from "./data-request-notice.tsx";
import { type SubmissionResult } from "@conform-to/react";
import { type ReactNode } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { ConformForm, formHasErrors, PageTitle, PasswordField, SelectField, SubmitButton, useForm, type Option } from "./forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "./hooks.ts";

/**
 * A public page's one form: Conform's form with the action's reply, and whether it is being
 * posted (to `formAction`, default this page). No intent: each page's action has one form.
 */
/** `Values`: the form's fields (its schema's input), so that each is typed. */
export function useAuthForm<Values extends Record<string, unknown> = Record<never, never>>(id: string, lastResult: SubmissionResult<string[]> | undefined, formAction?: string) {
  // The page's constraints are its request's (app/routes/auth/schemas.server.ts), by form id.
  const [form, fields] = useForm<Values>({ id, lastResult, constraint: useConstraint(id) });
  return { form, fields, pending: useIsPending(formAction ? { formAction } : {}) };
}

/** Spec 1 §8 Login: the message beside the Account dropdown after a 300. */
export const ACCOUNT_CHOICE_MESSAGE = "Select an account and click Login again.";

/*
 * The corporate theme's error red (oklch 70%) is too light for text on white (WCAG AA): field
 * errors and the error summary of these pages use a darker red with white text on it.
 * TODO(lead): move this into the theme in app.css for every page, then drop it here.
 */

/**
 * The frame of the public pages (login, login code, register, password recovery, IdP sign-in):
 * the product's name and logo above one centred card holding the page's heading and form.
 */
export function AuthLayout({
  heading,
  title,
  error = false,
  children,
  footer,
}: {
  heading: ReactNode;
  /** The page's <title> (PageTitle), "Error:" first while `error`. */
  title: string;
  error?: boolean;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const root = useRouteLoaderData("root") as { productName?: string } | undefined;
  const product = root?.productName ?? "Linkwise";
  return (
    <main className="flex min-h-screen flex-col items-center px-4 py-10 sm:justify-center">
      <PageTitle title={title} error={error} />
      <header className="mb-6">
        <Logo productName={product} size="lg" />
      </header>
      <div className="card bg-base-100 w-full max-w-md shadow-md">
        <div className="card-body gap-4">
          <h1 className="text-2xl font-semibold">{heading}</h1>
          <DataRequestNotice />
          {children}
        </div>
      </div>
      {footer ? <div className="mt-6 w-full max-w-md">{footer}</div> : null}
    </main>
  );
}

/** A message inside the card (role="alert" when it must be announced). Colours meet WCAG AA. */
export function Notice({ tone = "info", children, alert = false }: { tone?: "info" | "warning" | "success" | "error"; children: ReactNode; alert?: boolean }) {
  const styles = {
    info: "border-info bg-info/10 text-base-content",
    warning: "border-warning bg-warning/10 text-base-content",
    success: "border-success bg-success/10 text-base-content",
    error: "border-error bg-error/10 text-base-content",
  } as const;
  return (
    <div role={alert ? "alert" : "status"} className={`rounded-box border-l-4 px-4 py-3 ${styles[tone]}`}>
      {children}
    </div>
  );
}

/*
 * The set-a-password screens (spec 3 §2.8, §5): /reset-password-template (access_token) and
 * /new-iam-user-setup-template (iam_user_token). Password and Confirm Password with visibility
 * toggles; the button is disabled (with JavaScript) while either is empty or they differ, and
 * the server checks the same rule.
 */

export const PASSWORDS_DIFFER = "Passwords do not match.";

/** The hint under a new password's field. */
export const NEW_PASSWORD_HINT = "At least 8 characters.";

export function SetPasswordPage({
  heading,
  token,
  invalidText,
  button,
  lastResult,
}: {
  heading: string;
  /** The token of the link, or null when the link has none. */
  token: string | null;
  invalidText: string;
  button: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { form, fields, pending } = useAuthForm<{ password: string; confirm_password: string }>("set-password", lastResult);
  const hydrated = useHydrated();
  const password = fields.password.value ?? "";
  const confirm = fields.confirm_password.value ?? "";
  const blocked = !password || !confirm || password !== confirm;

  if (!token) {
    return (
      <AuthLayout heading={heading} title={heading} error>
        <Notice tone="error" alert>
          {invalidText}
        </Notice>
        <BackToLogin />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout heading={heading} title={heading} error={formHasErrors(form)}>
      <ConformForm form={form} className="flex flex-col gap-2">
        <input type="hidden" name="token" value={token} />
        <PasswordField field={fields.password} label="Password" autoComplete="new-password" hint={NEW_PASSWORD_HINT} />
        <PasswordField field={fields.confirm_password} label="Confirm Password" autoComplete="new-password" />
        {hydrated ? (
          // Says why the button is disabled while typing, before the field's own check on blur.
          <p className="text-base-content/70 text-sm" aria-live="polite">
            {password && confirm && password !== confirm && !fields.confirm_password.errors?.length ? PASSWORDS_DIFFER : ""}
          </p>
        ) : null}
        <SubmitButton pending={pending} disabled={hydrated && blocked} className="btn btn-primary mt-2 w-full">
          {button}
        </SubmitButton>
      </ConformForm>
      <BackToLogin />
    </AuthLayout>
  );
}

/** A centred link under a public page's form (to another public page, or back to the console). */
export function AuthLink({ to, children, reloadDocument }: { to: string; children: ReactNode; reloadDocument?: boolean }) {
  return (
    <p className="text-center">
      <Link className="link link-primary" to={to} reloadDocument={reloadDocument}>
        {children}
      </Link>
    </p>
  );
}

/** The way back from a public page to the login form. */
export function BackToLogin() {
  return <AuthLink to="/login">Back to Login</AuthLink>;
}

/** The footer line leading to the other one of login and register ("Don't have an account? Register"). */
export function AuthSwitch({ question, to, subscriber, children }: { question: string; to: string; subscriber?: string; children: ReactNode }) {
  // The subscriber of the link is carried over to the other page.
  const href = subscriber ? `${to}?subscriber=${encodeURIComponent(subscriber)}` : to;
  return (
    <p className="text-center">
      {question}{" "}
      <Link className="link link-primary font-medium" to={href}>
        {children}
      </Link>
    </p>
  );
}

/**
 * Spec 1 §8: after a 300 (several accounts share the e-mail), the message and the Account
 * dropdown of login and password recovery.
 */
export function AccountChoiceField({ field, accounts, message }: { field: Parameters<typeof SelectField>[0]["field"]; accounts: Option[]; message: ReactNode }) {
  if (accounts.length === 0) return null;
  return (
    <>
      <Notice tone="warning" alert>
        {message}
      </Notice>
      <SelectField field={field} label="Account" options={accounts} placeholder="None" />
    </>
  );
}
