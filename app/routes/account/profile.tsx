import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { data, useLocation } from "react-router";
import { z } from "zod";
import { ConformForm, ErrorSummary, formHasErrors, PageTitle, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { safeReply, upstreamReply } from "../../lib/forms.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/profile";
import { usePendingIntent } from "../../components/hooks.ts";

/*
 * My Profile (/profile), spec 1 §2 and §6: name, email, phone and address, each updated on its
 * own (one small form per field, `intent` = the field). An account sends update-account
 * {username, <field>}; an IAM user sends update-iam-user {<field>}. Values come from list-account
 * (its iam_user object for IAM sessions).
 */

const TITLE = "My Profile";

export const profileSchemas = {
  name: z.object({
    intent: z.literal("name"),
    name: z.string({ error: "Enter your name." }).trim().min(1, "Enter your name.").max(200, "Name must be at most 200 characters."),
  }),
  email: z.object({
    intent: z.literal("email"),
    email: z
      .string({ error: "Enter your email." })
      .trim()
      .min(1, "Enter your email.")
      .max(254, "Email must be at most 254 characters.")
      .pipe(z.email({ error: "Enter a valid email address." })),
  }),
  // Phone and address are optional: an empty field clears them (Conform reads it as undefined).
  phone: z.object({
    intent: z.literal("phone"),
    phone: z
      .string()
      .trim()
      .max(50, "Phone must be at most 50 characters.")
      .regex(/^[0-9A-Za-z+()\-./#*,; ]*$/, "Enter a valid phone number.")
      .refine((v) => v === "" || /[0-9]/.test(v), "Enter a valid phone number.")
      .optional(),
  }),
  address: z.object({
    intent: z.literal("address"),
    address: z.string().trim().max(500, "Address must be at most 500 characters.").optional(),
  }),
} as const;

type FieldName = keyof typeof profileSchemas;
const fieldNames = Object.keys(profileSchemas) as FieldName[];
const labels: Record<FieldName, string> = { name: "Name", email: "Email", phone: "Phone", address: "Address" };

function isFieldName(value: unknown): value is FieldName {
  return typeof value === "string" && (fieldNames as string[]).includes(value);
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const account = await getAccount(request);
  if (!account.ok) {
    throw data({ message: "An error occurred while fetching data." }, { status: account.status === 404 ? 404 : 500 });
  }
  const source = user.session_type === "iam_user" && account.data.iam_user ? account.data.iam_user : account.data;
  return {
    values: {
      name: source.name ?? "",
      email: source.email ?? "",
      phone: source.phone ?? "",
      address: source.address ?? "",
    } satisfies Record<FieldName, string>,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const user = await requireSession(request);
  const intent = formData.get("intent");
  if (!isFieldName(intent)) throw data("Unknown intent", { status: 400 });

  const submission = parseWithZod(formData, { schema: profileSchemas[intent] });
  if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
  // Browsers send a textarea's line breaks as CRLF: store plain newlines.
  const value = ((submission.value as Record<string, string | undefined>)[intent] ?? "").replace(/\r\n?/g, "\n");
  const result =
    user.session_type === "account"
      ? await apiPost(request, "update-account", { username: user.username, [intent]: value })
      : await apiPost(request, "update-iam-user", { [intent]: value });
  if (!result.ok) return upstreamReply(submission, result, [intent]);
  return redirectWithToast(request, "/profile", { type: "success", message: "Account updated." });
}

type ActionResult = { result: SubmissionResult<string[]> } | undefined;

function resultFor(actionData: ActionResult, intent: FieldName) {
  const result = actionData?.result;
  const sent = (result?.initialValue as Record<string, unknown> | undefined)?.intent;
  return sent === intent ? result : undefined;
}

/** One field, its own form and its own Save button. */
function useFieldForm(name: FieldName, value: string, lastResult: SubmissionResult<string[]> | undefined, draft: string | undefined) {
  const pending = usePendingIntent() === name;
  const [form, fields] = useForm({
    id: `profile-${name}`,
    lastResult,
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
  const reply = actionData as ActionResult;
  const forms = {
    name: useFieldForm("name", values.name, resultFor(reply, "name"), drafts.name),
    email: useFieldForm("email", values.email, resultFor(reply, "email"), drafts.email),
    phone: useFieldForm("phone", values.phone, resultFor(reply, "phone"), drafts.phone),
    address: useFieldForm("address", values.address, resultFor(reply, "address"), drafts.address),
  };
  const hasErrors = Object.values(forms).some((f) => formHasErrors(f.form));
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-4">
      <PageTitle title={TITLE} error={hasErrors} />
      <h1 id="page-title" className="text-2xl font-semibold">
        {TITLE}
      </h1>
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
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
