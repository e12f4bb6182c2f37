import { data, redirect } from "react-router";
import { LANDING_PATH } from "../../lib/redirect.ts";
import type { z } from "zod";
import { ACCOUNT_CHOICE_MESSAGE, AuthLayout, AuthLink, useAuthForm } from "../../components/auth-layout.tsx";
import { ConformForm, formHasErrors, SubmitButton, TextField } from "../../components/forms.tsx";
import { clearPendingLogin, finishLogin, readPendingLogin, requestToken } from "../../lib/auth.server.ts";
import { formFailure, passRetryAfter, validateForm } from "../../lib/action.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { safeReply } from "../../lib/api.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/login-mfa";
import { authConstraints, loginCodeSchema } from "./schemas.server.ts";

/*
 * /login-mfa (spec 3 §2.5; spec 1 §4 Login): the one-time-code step. It exists only while a
 * pending login does (set by /login when the platform e-mailed a code); otherwise it redirects
 * to /main-dashboard. It resubmits the stored email and password with the otp.
 */

const noStore = { "Cache-Control": "no-store" };
// Credentials may be on the page (the 300 answer keeps the password filled in): never cache it.
export const headers: Route.HeadersFunction = passRetryAfter(noStore);

export async function loader({ request }: Route.LoaderArgs) {
  const pending = await readPendingLogin(request);
  if (!pending) {
    // None, or older than 10 minutes: forget what is left of it.
    const cookie = await clearPendingLogin(request);
    throw redirect(LANDING_PATH, cookie ? { headers: { "Set-Cookie": cookie } } : undefined);
  }
  return data({ username: pending.username, constraints: { "login-mfa": authConstraints["login-mfa"] } }, { headers: noStore });
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const pending = await readPendingLogin(request);
  if (!pending) {
    const cookie = await clearPendingLogin(request);
    return redirectWithToast(
      request,
      "/login",
      { type: "warning", message: "Your login code has expired. Please log in again." },
      cookie ? { headers: { "Set-Cookie": cookie } } : undefined,
    );
  }
  const form = validateForm(formData, loginCodeSchema, { headers: noStore });
  if (!form.ok) return form.reply;
  const { submission } = form;

  const outcome = await requestToken(request, {
    username: pending.username,
    password: pending.password,
    account_id: pending.account_id,
    subscriber: pending.subscriber,
    otp: submission.value.otp,
  });
  if (outcome.kind === "token") return finishLogin(request, outcome.token, pending.username, pending.redirectTo);
  if (outcome.kind === "error") return formFailure(submission, outcome.result, { fields: ["otp"], headers: noStore });
  // Another code was sent (or the accounts changed meanwhile): say so and stay here.
  const message = outcome.kind === "code" ? outcome.detail : ACCOUNT_CHOICE_MESSAGE;
  return data({ result: safeReply(submission, { formErrors: [message] }) }, { status: 400, headers: noStore });
}

export default function LoginMfa({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, pending } = useAuthForm<z.input<typeof loginCodeSchema>>("login-mfa", actionData?.result);

  return (
    <AuthLayout heading="Login" title="Login Code" error={formHasErrors(form)}>
      <div>
        <p className="font-medium">We've emailed your passcode</p>
        <p className="text-base-content/70 text-sm">Sent to {loaderData.username}</p>
      </div>
      <ConformForm form={form} className="flex flex-col gap-2">
        <TextField field={fields.otp} label="Login Code" autoComplete="one-time-code" />
        <SubmitButton pending={pending} className="btn btn-primary mt-2 w-full">
          Login
        </SubmitButton>
      </ConformForm>
      <AuthLink to="/login">Try a different email</AuthLink>
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
