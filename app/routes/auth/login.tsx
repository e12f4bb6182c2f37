import { data, Link, redirect } from "react-router";
import { LANDING_PATH } from "../../lib/redirect.ts";
import type { z } from "zod";
import { AccountChoiceField, ACCOUNT_CHOICE_MESSAGE, AuthLayout, AuthSwitch, useAuthForm } from "../../components/auth-layout.tsx";
import { ConformForm, formHasErrors, PasswordField, SubmitButton, TextField } from "../../components/forms.tsx";
import { commitAccountChoice, commitPendingLogin, finishLogin, readAccountChoice, rememberedSubscriber, requestToken, type AccountChoice } from "../../lib/auth.server.ts";
import { formFailure, passRetryAfter, validateForm } from "../../lib/action.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { safeReply } from "../../lib/api.server.ts";
import { getSession, getUser, sessionStorage } from "../../lib/session.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/login";
import { authConstraints, ENTER_PASSWORD, loginSchema } from "./schemas.server.ts";

/*
 * / and /login (spec 3 §2.4, §4 Login; spec 1 §4 Login, §8 Login). One form; the Account
 * dropdown appears only after the platform answered 300 with the accounts sharing the e-mail.
 */

const fieldLabels = { username: "Email", password: "Password", account_id: "Account" };
const noStore = { "Cache-Control": "no-store" };
// The login answers carry account choices and errors of a sign-in: never cache them.
export const headers: Route.HeadersFunction = passRetryAfter(noStore);

export async function loader({ request }: Route.LoaderArgs) {
  if (await getUser(request)) throw redirect(LANDING_PATH);
  const url = new URL(request.url);
  const subscriber = url.searchParams.get("subscriber")?.trim() || undefined;
  const session = await getSession(request);
  let changed = false;
  // The subscriber of the link is remembered for this browser and sent with every login.
  if (subscriber && session.get("subscriber") !== subscriber) {
    session.set("subscriber", subscriber);
    changed = true;
  }
  // Coming back to the login form (e.g. 'Try a different email') abandons a waiting login code.
  if (session.has("pending") || session.has("choice")) {
    session.unset("pending");
    session.unset("choice");
    changed = true;
  }
  const headers = new Headers(noStore);
  if (changed) headers.append("Set-Cookie", await sessionStorage.commitSession(session));
  return data(
    { subscriber: subscriber ?? session.get("subscriber") ?? "", redirectTo: url.searchParams.get("redirectTo") ?? "", constraints: { login: authConstraints.login } },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const choosing = Boolean(formData.get("account_id"));
  const form = validateForm(formData, loginSchema(choosing), { headers: noStore });
  if (!form.ok) return form.reply;
  const { submission } = form;
  const none: AccountChoice[] = [];
  const { username, redirectTo } = submission.value;
  // The request form keeps an empty select as "": no account chosen.
  const account_id = submission.value.account_id || undefined;
  const password = submission.value.password || (await readAccountChoice(request, username));
  if (!password) {
    return data({ result: safeReply(submission, { fieldErrors: { password: [ENTER_PASSWORD] } }), accounts: none }, { status: 400, headers: noStore });
  }
  const subscriber = submission.value.subscriber?.trim() || (await rememberedSubscriber(request));
  const outcome = await requestToken(request, { username, password, account_id, subscriber });

  switch (outcome.kind) {
    case "token":
      return finishLogin(request, outcome.token, username, redirectTo);
    case "code": {
      // A one-time code was e-mailed: keep the credentials (sealed, 10 minutes) for /login-mfa.
      const cookie = await commitPendingLogin(request, { username, password, account_id, subscriber, redirectTo });
      return redirectWithToast(request, "/login-mfa", { type: "warning", message: outcome.detail }, { headers: { "Set-Cookie": cookie } });
    }
    case "choose": {
      // 300: the same form again, now with the Account dropdown. The password is kept sealed in
      // the session (never sent back to the page), so choosing an account and clicking Login is enough.
      const headers = new Headers(noStore);
      headers.append("Set-Cookie", await commitAccountChoice(request, username, password));
      return data({ result: safeReply(submission), accounts: outcome.accounts }, { headers });
    }
    case "error":
      return formFailure(submission, outcome.result, { fields: Object.keys(fieldLabels), headers: noStore });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  // why the cast: only the account-choice reply (300) carries `accounts`; narrowing the union of
  // replies with `in` leaves TypeScript with `unknown` for it.
  const accounts = actionData && "accounts" in actionData ? (actionData.accounts as AccountChoice[]) : [];
  const { form, fields, pending } = useAuthForm<z.input<ReturnType<typeof loginSchema>>>("login", actionData?.result, "/login");

  return (
    <AuthLayout
      heading="Login"
      title="Login"
      error={formHasErrors(form)}
      footer={
        <AuthSwitch question="Don't have an account?" to="/register" subscriber={loaderData.subscriber}>
          Register
        </AuthSwitch>
      }
    >
      <ConformForm form={form} action="/login" className="flex flex-col gap-2">
        <input type="hidden" name="subscriber" value={loaderData.subscriber} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextField field={fields.username} label="Email" type="email" autoComplete="username" />
        <PasswordField
          field={fields.password}
          label="Password"
          autoComplete="current-password"
          hint={accounts.length > 0 ? "Leave it empty to use the password you just entered." : undefined}
        />
        <AccountChoiceField field={fields.account_id} accounts={accounts} message={ACCOUNT_CHOICE_MESSAGE} />
        <p className="text-right">
          <Link className="link link-primary text-sm" to="/forgot-password">
            Forgot password?
          </Link>
        </p>
        <SubmitButton pending={pending} className="btn btn-primary mt-2 w-full">
          Login
        </SubmitButton>
      </ConformForm>
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
