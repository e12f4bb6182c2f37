import { type SubmissionResult } from "@conform-to/react";
import { useRef } from "react";
import { data, Link, useLocation, useNavigation } from "react-router";
import { ConformForm, SubmitButton, TextField, useIntentForm } from "../../components/forms.tsx";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { replyHasErrors, ToggleForm } from "../../components/toggle-form.tsx";
import { apiGet } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { ErrorPage } from "../../root.tsx";
import { replyFor, Screen } from "../../components/screen.tsx";
import { Card } from "../../components/card.tsx";
import type { Route } from "./+types/account";
import { usePasswordForm } from "./password-form.tsx";
import { accountAction } from "./actions.server.ts";
import { accountConstraints } from "./schemas.server.ts";
import { useCanManageAccount } from "../../components/hooks.ts";
import { FETCH_FAILED } from "../../lib/messages.ts";

/*
 * Settings (/account), spec 1 §2, §5 "Password update", §6, §7 "Session and account", §8.
 * Four forms, one action (hidden `intent`, actions.server.ts): password (password-form.tsx),
 * mfa (the kit's ToggleForm), saml, delete-account. Delete Account is
 * for account sessions only; its dialog opens by URL (?dialog=delete-account).
 */

const TITLE = "Settings";
const DELETE_DIALOG = "delete-account";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const [account, idp] = await Promise.all([getAccount(request), apiGet(request, "get-account-idp")]);
  if (!account.ok) {
    throw data({ message: FETCH_FAILED }, { status: account.status === 404 ? 404 : 500 });
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
    constraints: accountConstraints,
  };
}

export const action = accountAction;

/** A settings group: a titled card (the danger zone has a red border). */
function Section({ tone, ...props }: { title: string; id: string; children: React.ReactNode; tone?: "danger" }) {
  return <Card {...props} className={`bg-base-100 shadow-sm ${tone === "danger" ? "border-error/40 border" : ""}`} bodyClassName="card-body gap-3" />;
}

export function SamlForm({ metalink, lastResult }: { metalink: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const { form, fields, pending } = useIntentForm("saml", { id: "saml-form", lastResult, defaultValue: { metalink } });
  return (
    <ConformForm form={form} intent="saml" className="flex max-w-xl flex-col gap-2">
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

/** The MFA switch as Settings shows it (the dialogs' constraints test renders it). */
export function MfaForm({ current, lastResult }: { current: boolean; lastResult: SubmissionResult<string[]> | undefined }) {
  return (
    <ToggleForm
      id="mfa-form"
      intent="mfa"
      fieldName="mfa_enabled"
      label="Multi-factor authentication (MFA)"
      current={current}
      lastResult={lastResult}
      hint="When MFA is on, a one-time passcode is e-mailed to you at every login."
    />
  );
}

/** The password form as Settings shows it (the dialogs' constraints test renders it). */
export function PasswordForm(props: Parameters<typeof usePasswordForm>[0]) {
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
  // The one rule (app/lib/roles.ts): SAML, like billing and deleting the account, is the owner's
  // (issue 27 item 10: whoever sets the IdP could mint owner sessions); others read it.
  const canDelete = useCanManageAccount();
  const canSetSaml = canDelete;
  const results = Object.fromEntries(intents.map((i) => [i, replyFor(actionData, i)])) as Record<Intent, SubmissionResult<string[]> | undefined>;
  const failed = Object.fromEntries(intents.map((i) => [i, replyHasErrors(results[i])])) as Record<Intent, boolean>;
  const keys = useFormKeys(failed);
  const deleteFailed = failed["delete-account"];
  const hasErrors = failed.password || failed.mfa || failed.saml || (deleteOpen && deleteFailed);

  return (
    <Screen title={TITLE} error={hasErrors}>
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
        <PasswordForm key={keys.password} lastResult={results.password} />
      </Section>

      <Section title="Multi-factor authentication" id="mfa-title">
        <MfaForm key={keys.mfa} current={mfaEnabled} lastResult={results.mfa} />
      </Section>

      {saml ? (
        <Section title="SAML single sign-on" id="saml-title">
          {canSetSaml ? (
            <SamlForm key={keys.saml} metalink={saml.metalink ?? ""} lastResult={results.saml} />
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
    </Screen>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
