import { type SubmissionResult } from "@conform-to/react";
import { useRef } from "react";
import { data, useLocation } from "react-router";
import { ConformForm, ErrorSummary, formHasErrors, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { requireSession } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { ErrorPage } from "../../root.tsx";
import { replyFor, Screen } from "../../components/screen.tsx";
import type { Route } from "./+types/profile";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { profileAction } from "./actions.server.ts";
import { profileConstraints } from "./schemas.server.ts";
import { FETCH_FAILED } from "../../lib/messages.ts";

/*
 * My Profile (/profile), spec 1 §2 and §6: name, email, phone and address, each updated on its
 * own (one small form per field, `intent` = the field). An account sends update-account
 * {username, <field>}; an IAM user sends update-iam-user {<field>}. Values come from list-account
 * (its iam_user object for IAM sessions).
 */

const TITLE = "My Profile";

type FieldName = "name" | "email" | "phone" | "address";
const fieldNames: FieldName[] = ["name", "email", "phone", "address"];
const labels: Record<FieldName, string> = { name: "Name", email: "Email", phone: "Phone", address: "Address" };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const account = await getAccount(request);
  if (!account.ok) {
    throw data({ message: FETCH_FAILED }, { status: account.status === 404 ? 404 : 500 });
  }
  const source = user.session_type === "iam_user" && account.data.iam_user ? account.data.iam_user : account.data;
  return {
    values: {
      name: source.name ?? "",
      email: source.email ?? "",
      phone: source.phone ?? "",
      address: source.address ?? "",
    } satisfies Record<FieldName, string>,
    constraints: profileConstraints,
  };
}

export const action = profileAction;


/** One field, its own form and its own Save button. */
function useFieldForm(name: FieldName, value: string, lastResult: SubmissionResult<string[]> | undefined, draft: string | undefined) {
  const pending = useIsPending({ intent: name });
  // The field's constraints are its request's (schemas.server.ts): name and e-mail are required.
  const constraint = useConstraint(name);
  const [form, fields] = useForm({
    id: `profile-${name}`,
    lastResult,
    constraint,
    defaultValue: { [name]: draft ?? value },
  });
  const field = fields[name as keyof typeof fields];
  const label = labels[name];
  const input =
    name === "address" ? (
      <TextareaField field={field} label={label} rows={3} />
    ) : (
      <TextField
        field={field}
        label={label}
        type={name === "email" ? "email" : name === "phone" ? "tel" : "text"}
        autoComplete={name === "name" ? "name" : name === "email" ? "email" : name === "phone" ? "tel" : undefined}
      />
    );
  return {
    form,
    element: (
      // One field per form: its errors are summarised once for the page, above the forms.
      <ConformForm form={form} intent={name} summary={false} className="flex flex-col gap-1">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">{input}</div>
          <SubmitButton pending={pending} className="btn btn-primary sm:mt-[2.1rem]">
            Save<span className="sr-only"> {label.toLowerCase()}</span>
          </SubmitButton>
        </div>
      </ConformForm>
    ),
  };
}

/** One field's form as My Profile shows it (the dialogs' constraints test renders it). */
export function ProfileFieldForm({ name, value }: { name: FieldName; value: string }) {
  return useFieldForm(name, value, undefined, undefined).element;
}

export default function Profile(props: Route.ComponentProps) {
  // After a field is saved (a redirect: a new location) every form starts again from the loader's
  // values, as a reload without JavaScript does, and an old error of another field goes. Conform's
  // reset()/update() cannot do it: without a schema in the browser they are posted to the action.
  // What was typed into another field and not yet saved is kept (see useUnsavedDrafts).
  const location = useLocation();
  const drafts = useUnsavedDrafts(location.key, props.loaderData.values);
  return <ProfileForms key={location.key} drafts={drafts} {...props} />;
}

/**
 * The text typed into fields that were not saved, read from the page just before the forms start
 * again: a field whose saved value did not change and whose input holds something else keeps it.
 * A field showing an error (a refused save) goes back to its saved value, as without JavaScript.
 */
function useUnsavedDrafts(key: string, values: Record<FieldName, string>) {
  const last = useRef<{ key: string; values: Record<FieldName, string>; drafts: Partial<Record<FieldName, string>> }>({ key, values, drafts: {} });
  if (last.current.key !== key) {
    const drafts: Partial<Record<FieldName, string>> = {};
    if (typeof document !== "undefined") {
      for (const name of fieldNames) {
        const input = document.getElementById(`profile-${name}-${name}`) as HTMLInputElement | HTMLTextAreaElement | null;
        if (!input || input.getAttribute("aria-invalid") === "true") continue;
        if (values[name] === last.current.values[name] && input.value !== values[name]) drafts[name] = input.value;
      }
    }
    last.current = { key, values, drafts };
  }
  return last.current.drafts;
}

function ProfileForms({ loaderData, actionData, drafts }: Route.ComponentProps & { drafts: Partial<Record<FieldName, string>> }) {
  const { values } = loaderData;
  const forms = {
    name: useFieldForm("name", values.name, replyFor(actionData, "name"), drafts.name),
    email: useFieldForm("email", values.email, replyFor(actionData, "email"), drafts.email),
    phone: useFieldForm("phone", values.phone, replyFor(actionData, "phone"), drafts.phone),
    address: useFieldForm("address", values.address, replyFor(actionData, "address"), drafts.address),
  };
  const hasErrors = Object.values(forms).some((f) => formHasErrors(f.form));
  return (
    <Screen title={TITLE} error={hasErrors}>
      <div className="card bg-base-100 max-w-2xl shadow-sm">
        <div className="card-body gap-4">
          <p className="text-base-content/80">Each field is saved on its own.</p>
          {fieldNames.map((name) => (
            <ErrorSummary key={name} form={forms[name].form} labels={{ [name]: labels[name] }} />
          ))}
          {fieldNames.map((name) => (
            <div key={name}>{forms[name].element}</div>
          ))}
        </div>
      </div>
    </Screen>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
