import { data, redirect } from "react-router";
import type { z } from "zod";
import { AccountChoiceField, AuthLayout, BackToLogin, Notice, useAuthForm } from "../../components/auth-layout.tsx";
import { ConformForm, formHasErrors, SubmitButton, TextField } from "../../components/forms.tsx";
import { callApi } from "../../lib/api.server.ts";
import { accountChoices, type AccountChoice } from "../../lib/auth.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { formFailure, passRetryAfter, validateForm } from "../../lib/action.server.ts";
import { safeReply } from "../../lib/api.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/forgot-password";
import { useHydrated } from "../../components/hooks.ts";
import { authConstraints, forgotPasswordSchema } from "./schemas.server.ts";
import { authMessages } from "../../../platform/contract/messages.ts";

/*
 * /forgot-password (spec 3 §2.7, §4 Forgot password, §5): an email and, after a 300, the
 * Account dropdown. Send is enabled only when the email has at least 5 characters and no request
 * is pending; without JavaScript the server checks the same rule.
 */

const SENT_MESSAGE = authMessages.resetSent;
const CHOOSE_MESSAGE = "Several accounts use this email. Select an account and send again.";
const MIN_EMAIL = 5;

const fieldLabels = { username: "Email", account_id: "Account" };

// A 429 (abuse limits) keeps its Retry-After on the page.
export const headers: Route.HeadersFunction = passRetryAfter();

export async function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1", constraints: { "forgot-password": authConstraints["forgot-password"] } };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const none: AccountChoice[] = [];
  const form = validateForm(formData, forgotPasswordSchema);
  if (!form.ok) return data({ ...form.reply.data, accounts: none }, form.reply.init ?? undefined);
  const { username, account_id } = form.value;
  const body = { username, ...(account_id ? { account_id } : {}) };
  const result = await callApi(null, "POST", "forgot-password", { body, from: request });
  if (result.ok) throw redirect("/forgot-password?sent=1", { status: 303 });
  // 300: several accounts use this e-mail address; the form asks which one.
  if (result.status === 300) {
    const accounts = accountChoices(result.detail);
    if (accounts.length > 0) return data({ result: safeReply(form.submission), accounts });
  }
  const reply = formFailure(form.submission, result, { fields: Object.keys(fieldLabels) });
  return data({ ...reply.data, accounts: none }, reply.init ?? undefined);
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const accounts = actionData?.accounts ?? [];
  const { form, fields, pending } = useAuthForm<z.input<typeof forgotPasswordSchema>>("forgot-password", actionData?.result);
  // The button's disabled state needs JavaScript; before it runs, the server's check applies.
  const hydrated = useHydrated();
  const tooShort = String(fields.username.value ?? "").trim().length < MIN_EMAIL;

  if (loaderData.sent) {
    return (
      <AuthLayout heading="Forgot password" title="Forgot password">
        <Notice tone="success">{SENT_MESSAGE}</Notice>
        <BackToLogin />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout heading="Forgot password" title="Forgot password" error={formHasErrors(form)}>
      <p>Enter the email you log in with and we will send you a link to set a new password.</p>
      <ConformForm form={form} className="flex flex-col gap-2">
        <TextField field={fields.username} label="Email" type="email" autoComplete="username" />
        <AccountChoiceField field={fields.account_id} accounts={accounts} message={CHOOSE_MESSAGE} />
        <SubmitButton pending={pending} disabled={hydrated && tooShort} className="btn btn-primary mt-2 w-full">
          Send
        </SubmitButton>
      </ConformForm>
      <BackToLogin />
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
