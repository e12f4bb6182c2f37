import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { data, Link, useNavigation } from "react-router";
import { z } from "zod";
import { ConformForm, formHasErrors, PageTitle, PasswordField, SubmitButton, TextField, useForm } from "../components/forms.tsx";
import { ConfirmPhraseDialog, confirmPhraseSchema } from "../components/confirm-phrase.tsx";
import { toggleSchema } from "../components/toggle-dialog.tsx";
import { apiGet, apiPost } from "../lib/api.server.ts";
import { readForm } from "../lib/csrf.server.ts";
import { upstreamReply } from "../lib/forms.server.ts";
import { destroySessionCookie, requireAccountOwner, requireSession } from "../lib/session.server.ts";
import { getAccount } from "../lib/shell.server.ts";
import { redirectWithToast } from "../lib/toast.server.ts";
import { ErrorPage } from "../root.tsx";
import type { Route } from "./+types/account";

/*
 * Settings (/account), spec 1 §2, §5 "Password update", §6, §7 "Session and account", §8.
 * Four forms, one action (hidden `intent`): password, mfa, saml, delete-account. Delete Account is
 * for account sessions only; its dialog opens by URL (?dialog=delete-account).
 */

const TITLE = "Settings";
const DELETE_DIALOG = "delete-account";

export const passwordSchema = z.object({
  intent: z.literal("password"),
  password: z
    .string({ error: "Enter a new password." })
    .min(8, "Password must be at least 8 characters.")
    .max(128, "Password must be at most 128 characters."),
});

/** The MFA switch; `current` (the platform's value) is refused: Confirm needs a change (spec 1 §4). */
export const mfaSchema = (current: boolean) => toggleSchema(current, { intent: z.literal("mfa") }, "mfa_enabled");

export const samlSchema = z.object({
  intent: z.literal("saml"),
  metalink: z
    .url({ protocol: /^https?$/, error: "Enter a valid http or https URL." })
    .max(2048, "The URL must be at most 2048 characters.")
    .optional(),
});

/** Account deletion needs the typed phrase 'confirm' (spec 1 §5), checked here too. */
export const deleteSchema = confirmPhraseSchema("confirm", { intent: z.literal("delete-account") });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const [account, idp] = await Promise.all([getAccount(request), apiGet<{ metalink?: string | null }>(request, "get-account-idp")]);
  if (!account.ok) {
    throw data({ message: "An error occurred while fetching data." }, { status: account.status === 404 ? 404 : 500 });
  }
  const iam = user.session_type === "iam_user" ? account.data.iam_user : null;
  const url = new URL(request.url);
  const isAccount = user.session_type === "account";
  return {
    isAccount,
    username: iam?.username ?? account.data.username ?? user.username,
    mfaEnabled: Boolean(iam ? iam.mfa_enabled : account.data.mfa_enabled),
    saml: idp.ok ? { metalink: idp.data?.metalink ?? "" } : null,
    deleteOpen: isAccount && url.searchParams.get("dialog") === DELETE_DIALOG,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const user = await requireSession(request);
  const isAccount = user.session_type === "account";
  const intent = formData.get("intent");

  switch (intent) {
    case "password": {
      const submission = parseWithZod(formData, { schema: passwordSchema });
      if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
      const { password } = submission.value;
      // An account sends {username, password}; an IAM user only {password} (spec 1 §5).
      const result = isAccount
        ? await apiPost(request, "update-account", { username: user.username, password })
        : await apiPost(request, "update-iam-user", { password });
      if (!result.ok) return upstreamReply(submission, result, ["password"]);
      return redirectWithToast(request, "/account", { type: "success", message: "Account updated." });
    }
    case "mfa": {
      const account = await getAccount(request);
      if (!account.ok) return upstreamReply(parseWithZod(formData, { schema: mfaSchema(false) }), account, []);
      const current = Boolean(isAccount ? account.data.mfa_enabled : account.data.iam_user?.mfa_enabled);
      const submission = parseWithZod(formData, { schema: mfaSchema(current) });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const wanted = submission.value.enabled;
      const prefix = isAccount ? "account" : "iam-user";
      const result = wanted
        ? await apiPost(request, `${prefix}-enable-mfa`, { type: "email" })
        : await apiPost(request, `${prefix}-disable-mfa`, {});
      if (!result.ok) return upstreamReply(submission, result, ["mfa_enabled"]);
      return redirectWithToast(request, "/account", { type: "success", message: wanted ? "MFA enabled." : "MFA disabled." });
    }
    case "saml": {
      const submission = parseWithZod(formData, { schema: samlSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const result = await apiPost(request, "update-account-idp", { metalink: submission.value.metalink ?? "" });
      if (!result.ok) return upstreamReply(submission, result, ["metalink"]);
      return redirectWithToast(request, "/account", { type: "success", message: "SAML metadata URL updated." });
    }
    case "delete-account": {
      const owner = await requireAccountOwner(request);
      const submission = parseWithZod(formData, { schema: deleteSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const result = await apiPost(request, "remove-account", { username: owner.username });
      if (!result.ok) return upstreamReply(submission, result, ["confirm"]);
      // The account is gone: end the session and say so on the login page.
      const cookie = await destroySessionCookie(request);
      return redirectWithToast(request, "/login", { type: "success", message: "Account removed." }, { headers: { "Set-Cookie": cookie } });
    }
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

type ActionResult = { result: SubmissionResult<string[]> } | undefined;

/** The reply of the action, for the form that was submitted only. */
function resultFor(actionData: ActionResult, intent: string) {
  const result = actionData?.result;
  const sent = (result?.initialValue as Record<string, unknown> | undefined)?.intent;
  return sent === intent ? result : undefined;
}

function usePendingIntent() {
  const navigation = useNavigation();
  return navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
}

function Section({ title, id, children, tone }: { title: string; id: string; children: React.ReactNode; tone?: "danger" }) {
  return (
    <section aria-labelledby={id} className={`card bg-base-100 shadow-sm ${tone === "danger" ? "border-error/40 border" : ""}`}>
      <div className="card-body gap-3">
        <h2 id={id} className="card-title text-lg">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

function usePasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = usePendingIntent() === "password";
  const [form, fields] = useForm({
    id: "password-form",
    lastResult,
  });
  // With JavaScript the page is not reloaded after 'Account updated.': empty the field then.
  const navigation = useNavigation();
  const sent = useRef(false);
  useEffect(() => {
    if (pending) sent.current = true;
    else if (sent.current && navigation.state === "idle") {
      sent.current = false;
      if (!lastResult) form.reset();
    }
  });
  return {
    form,
    element: (
      <ConformForm form={form} intent="password" labels={{ password: "Password" }} className="flex max-w-xl flex-col gap-2">
        <PasswordField field={fields.password} label="Password" autoComplete="new-password" hint="8 to 128 characters." />
        <div>
          <SubmitButton pending={pending}>Update Password</SubmitButton>
        </div>
      </ConformForm>
    ),
  };
}

function useMfaForm({ current, lastResult }: { current: boolean; lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = usePendingIntent() === "mfa";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [form, fields] = useForm({
    id: "mfa-form",
    lastResult,
    defaultValue: { mfa_enabled: current ? "on" : undefined },
  });
  const initial = lastResult?.initialValue ? lastResult.initialValue.mfa_enabled === "on" : current;
  const [checked, setChecked] = useState(initial);
  // After an error Confirm is enabled again (spec 1 §4).
  const hadError = Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e?.length));
  const field = fields.mfa_enabled;
  const inputId = `${form.id}-mfa_enabled`;
  const hintId = `${inputId}-hint`;
  return {
    form,
    element: (
      <ConformForm form={form} intent="mfa" labels={{ mfa_enabled: "MFA" }} className="flex max-w-xl flex-col gap-3">
        <div className="fieldset">
          <label htmlFor={inputId} className="label text-base-content cursor-pointer justify-start gap-3">
            <input
              {...getInputProps(field, { type: "checkbox", ariaAttributes: true })}
              id={inputId}
              role="switch"
              className="toggle toggle-primary"
              aria-describedby={[field.errors?.length ? field.errorId : null, hintId].filter(Boolean).join(" ")}
              onChange={(event) => setChecked(event.currentTarget.checked)}
            />
            <span>Multi-factor authentication (MFA)</span>
          </label>
          <p id={hintId} className="text-base-content/70 mt-1 text-sm">
            When MFA is on, a one-time passcode is e-mailed to you at every login. Currently {current ? "enabled" : "disabled"}.
          </p>
          {field.errors?.length ? (
            <p id={field.errorId} className="text-error mt-1 text-sm">
              {field.errors.join(" ")}
            </p>
          ) : null}
        </div>
        <div>
          {/* Confirm is disabled until the value differs (with JavaScript; the server checks too). */}
          <SubmitButton pending={pending} disabled={hydrated && !hadError && checked === current}>
            Confirm
          </SubmitButton>
        </div>
      </ConformForm>
    ),
  };
}

function useSamlForm({ metalink, lastResult }: { metalink: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = usePendingIntent() === "saml";
  const [form, fields] = useForm({
    id: "saml-form",
    lastResult,
    defaultValue: { metalink },
  });
  return {
    form,
    element: (
      <ConformForm form={form} intent="saml" labels={{ metalink: "SAML metadata URL" }} className="flex max-w-xl flex-col gap-2">
        <TextField
          field={fields.metalink}
          label="SAML metadata URL"
          type="url"
          placeholder="https://idp.example.com/metadata.xml"
          hint="The metadata URL of your identity provider, for single sign-on. Leave it empty to turn SAML off."
        />
        <div>
          <SubmitButton pending={pending}>Save</SubmitButton>
        </div>
      </ConformForm>
    ),
  };
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { isAccount, username, mfaEnabled, saml, deleteOpen } = loaderData;
  const reply = actionData as ActionResult;
  const password = usePasswordForm({ lastResult: resultFor(reply, "password") });
  const mfa = useMfaForm({ current: mfaEnabled, lastResult: resultFor(reply, "mfa") });
  const samlForm = useSamlForm({ metalink: saml?.metalink ?? "", lastResult: resultFor(reply, "saml") });
  const deleteResult = resultFor(reply, "delete-account");
  const deleteFailed = Boolean(deleteResult?.error && Object.values(deleteResult.error).some((e) => e?.length));
  const hasErrors = [password.form, mfa.form, samlForm.form].some(formHasErrors) || (deleteOpen && deleteFailed);

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-4">
      <PageTitle title={TITLE} error={hasErrors} />
      <h1 id="page-title" className="text-2xl font-semibold">
        {TITLE}
      </h1>

      <Section title="Sign-in" id="signin-title">
        <div className="fieldset max-w-xl">
          <label className="fieldset-legend" htmlFor="username">
            Username
          </label>
          <input id="username" className="input w-full" value={username} readOnly aria-describedby="username-hint" />
          <p id="username-hint" className="text-base-content/70 mt-1 text-sm">
            The username cannot be updated at this time.
          </p>
        </div>
        {password.element}
      </Section>

      <Section title="Multi-factor authentication" id="mfa-title">
        {mfa.element}
      </Section>

      {saml ? (
        <Section title="SAML single sign-on" id="saml-title">
          {samlForm.element}
        </Section>
      ) : null}

      {isAccount ? (
        <Section title="Delete Account" id="delete-title" tone="danger">
          <p>Deleting your account removes it and all of its data for good.</p>
          <div>
            <Link to={`/account?dialog=${DELETE_DIALOG}`} className="btn btn-error btn-outline" preventScrollReset>
              Delete Account
            </Link>
          </div>
          {deleteOpen ? (
            <ConfirmPhraseDialog
              name={DELETE_DIALOG}
              title="Delete Account"
              phrase="confirm"
              intent="delete-account"
              submitLabel="Delete Account"
              lastResult={deleteResult}
            >
              <p className="mb-2">This permanently deletes your account, its IAM users and all of its data, and logs you out. It cannot be undone.</p>
            </ConfirmPhraseDialog>
          ) : null}
        </Section>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
