import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { AuthLayout, Notice, BackToLogin } from "../../components/auth-layout.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { callApi } from "../../lib/api.server.ts";
import { accountChoices, type AccountChoice } from "../../lib/auth.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { safeReply, upstreamReply } from "../../lib/forms.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/forgot-password";

/*
 * /forgot-password (spec 3 §2.7, §4 Forgot password, §5): an email and, after a 300, the
 * Account dropdown. Send is enabled only when the email has at least 5 characters and no request
 * is pending; without JavaScript the server checks the same rule.
 */

const SENT_MESSAGE = "An email confirmation has been sent to your registered email address.";
const CHOOSE_MESSAGE = "Several accounts use this email. Select an account and send again.";
const MIN_EMAIL = 5;

const forgotPasswordSchema = z.object({
  username: z
    .string({ error: "Enter your email." })
    .trim()
    .min(MIN_EMAIL, `Enter an email of at least ${MIN_EMAIL} characters.`),
  account_id: z.string().optional(),
});

const fieldLabels = { username: "Email", account_id: "Account" };

export async function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  const none: AccountChoice[] = [];
  if (submission.status !== "success") return data({ result: safeReply(submission), accounts: none }, { status: 400 });
  const { username, account_id } = submission.value;
  const body: Record<string, string> = { username };
  if (account_id) body.account_id = account_id;
  const result = await callApi<{ detail?: string }>(null, "POST", "forgot-password", { body });
  if (result.ok) throw redirect("/forgot-password?sent=1", { status: 303 });
  if (result.status === 300) {
    const accounts = accountChoices(result.detail);
    if (accounts.length > 0) return data({ result: safeReply(submission), accounts });
  }
  const reply = upstreamReply(submission, result, Object.keys(fieldLabels));
  return data({ ...reply.data, accounts: none }, reply.init ?? undefined);
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const accounts = actionData?.accounts ?? [];
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
  });
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod === "POST";
  // The button's disabled state needs JavaScript; before it runs, the server's check applies.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const tooShort = String(fields.username.value ?? "").trim().length < MIN_EMAIL;

  if (loaderData.sent) {
    return (
      <AuthLayout heading="Forgot password">
        <PageTitle title="Forgot password" />
        <Notice tone="success">{SENT_MESSAGE}</Notice>
        <BackToLogin />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout heading="Forgot password">
      <PageTitle title="Forgot password" error={formHasErrors(form)} />
      <p>Enter the email you log in with and we will send you a link to set a new password.</p>
      <ConformForm form={form} labels={fieldLabels} className="flex flex-col gap-2">
        <TextField field={fields.username} label="Email" type="email" autoComplete="username" />
        {accounts.length > 0 ? (
          <>
            <Notice tone="warning" alert>
              {CHOOSE_MESSAGE}
            </Notice>
            <SelectField field={fields.account_id} label="Account" options={accounts} placeholder="None" />
          </>
        ) : null}
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
