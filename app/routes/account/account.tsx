import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { data, Link, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { ConformForm, PageTitle, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { ConfirmPhraseDialog, confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { toggleSchema } from "../../components/toggle-dialog.tsx";
import { replyHasErrors, ToggleForm } from "../../components/toggle-form.tsx";
import { apiGet, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { safeReply, upstreamReply } from "../../lib/forms.server.ts";
import { destroySessionCookie, requireAccountOwner, requireSession } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/account";
import { usePasswordForm } from "./password-form.tsx";
import { passwordAction } from "./password.server.ts";
import { useCanManageAccount, useCanWrite, usePendingIntent } from "../../components/hooks.ts";
import { requireWriter } from "../../lib/roles.server.ts";

/*
 * Settings (/account), spec 1 §2, §5 "Password update", §6, §7 "Session and account", §8.
 * Four forms, one action (hidden `intent`): password (password-form.tsx, password.server.ts),
 * mfa (the kit's ToggleForm), saml, delete-account. Delete Account is
 * for account sessions only; its dialog opens by URL (?dialog=delete-account).
 */

const TITLE = "Settings";
const DELETE_DIALOG = "delete-account";

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
    case "password":
      return passwordAction(request, formData, user);
    case "mfa": {
      const account = await getAccount(request);
      if (!account.ok) return upstreamReply(parseWithZod(formData, { schema: mfaSchema(false) }), account, []);
      const current = Boolean(isAccount ? account.data.mfa_enabled : account.data.iam_user?.mfa_enabled);
      const submission = parseWithZod(formData, { schema: mfaSchema(current) });
      if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
      const wanted = submission.value.enabled;
      const prefix = isAccount ? "account" : "iam-user";
      const result = wanted
        ? await apiPost(request, `${prefix}-enable-mfa`, { type: "email" })
        : await apiPost(request, `${prefix}-disable-mfa`, {});
      if (!result.ok) return upstreamReply(submission, result, ["mfa_enabled"]);
      return redirectWithToast(request, "/account", { type: "success", message: wanted ? "MFA enabled." : "MFA disabled." });
    }
    case "saml": {
      await requireWriter(request);
      const submission = parseWithZod(formData, { schema: samlSchema });
      if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
      const result = await apiPost(request, "update-account-idp", { metalink: submission.value.metalink ?? "" });
      if (!result.ok) return upstreamReply(submission, result, ["metalink"]);
      return redirectWithToast(request, "/account", { type: "success", message: "SAML metadata URL updated." });
    }
    case "delete-account": {
      const owner = await requireAccountOwner(request);
      const submission = parseWithZod(formData, { schema: deleteSchema });
      if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
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

function SamlForm({ metalink, lastResult, pending }: { metalink: string; lastResult: SubmissionResult<string[]> | undefined; pending: boolean }) {
  const [form, fields] = useForm({
    id: "saml-form",
    lastResult,
    defaultValue: { metalink },
  });
  return (
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
  );
}

function PasswordForm(props: Parameters<typeof usePasswordForm>[0]) {
  return usePasswordForm(props).element;
}

const intents = ["password", "mfa", "saml", "delete-account"] as const;
type Intent = (typeof intents)[number];

/**
 * A key per form. After a save (a redirect: a new location) the form that was submitted starts
 * again from the loader's data, as a reload without JavaScript does, and so does a form that was
 * showing a refused save's errors; the others keep what was typed into them and not yet saved.
 * (Conform's reset() cannot do it: without a schema in the browser it is posted to the action.)
 */
function useFormKeys(failed: Record<Intent, boolean>): Record<Intent, string> {
  const location = useLocation();
  const navigation = useNavigation();
  const initial = Object.fromEntries(intents.map((i) => [i, location.key])) as Record<Intent, string>;
  const state = useRef({ location: location.key, submitted: null as string | null, failed, keys: initial });
  const s = state.current;
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  if (typeof submitting === "string") s.submitted = submitting;
  if (s.location !== location.key) {
    const keys = { ...s.keys };
    for (const intent of intents) if (intent === s.submitted || s.failed[intent]) keys[intent] = location.key;
    state.current = { location: location.key, submitted: null, failed, keys };
  } else {
    s.failed = failed;
  }
  return state.current.keys;
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { username, mfaEnabled, saml, deleteOpen } = loaderData;
  // The one rule (app/lib/roles.ts): SAML is an account setting (writers); deleting the account is the owner's.
  const canWrite = useCanWrite();
  const canDelete = useCanManageAccount();
  const reply = actionData as ActionResult;
  const pendingIntent = usePendingIntent();
  const results = Object.fromEntries(intents.map((i) => [i, resultFor(reply, i)])) as Record<Intent, SubmissionResult<string[]> | undefined>;
  const failed = Object.fromEntries(intents.map((i) => [i, replyHasErrors(results[i])])) as Record<Intent, boolean>;
  const keys = useFormKeys(failed);
  const deleteFailed = failed["delete-account"];
  const hasErrors = failed.password || failed.mfa || failed.saml || (deleteOpen && deleteFailed);

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
        <PasswordForm key={keys.password} lastResult={results.password} pending={pendingIntent === "password"} />
      </Section>

      <Section title="Multi-factor authentication" id="mfa-title">
        <ToggleForm
          key={keys.mfa}
          id="mfa-form"
          intent="mfa"
          fieldName="mfa_enabled"
          label="Multi-factor authentication (MFA)"
          current={mfaEnabled}
          lastResult={results.mfa}
          hint="When MFA is on, a one-time passcode is e-mailed to you at every login."
        />
      </Section>

      {saml ? (
        <Section title="SAML single sign-on" id="saml-title">
          {canWrite ? (
            <SamlForm key={keys.saml} metalink={saml.metalink ?? ""} lastResult={results.saml} pending={pendingIntent === "saml"} />
          ) : (
            <p>
              SAML metadata URL: {saml.metalink ? <span className="break-all">{saml.metalink}</span> : <span className="italic">not set</span>}
            </p>
          )}
        </Section>
      ) : null}

      {canDelete ? (
        <Section title="Delete Account" id="delete-title" tone="danger">
          <p>Deleting your account removes it and all of its data for good.</p>
          <div>
            <Link to={`/account?dialog=${DELETE_DIALOG}`} className="btn btn-error btn-outline" preventScrollReset>
              Delete Account
            </Link>
          </div>
          {deleteOpen ? (
            <ConfirmPhraseDialog
              key={keys["delete-account"]}
              name={DELETE_DIALOG}
              title="Delete Account"
              phrase="confirm"
              intent="delete-account"
              submitLabel="Delete Account"
              lastResult={results["delete-account"]}
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
