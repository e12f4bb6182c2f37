import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { FormConstraint } from "../../components/constraints.server.ts";
import { DetailsTable } from "../../components/details-table.tsx";
import { DialogActions, DialogGone, UrlDialog } from "../../components/dialog.tsx";
import { ButtonForm, ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useIsPending } from "../../components/hooks.ts";
import { formatTime } from "../../lib/format.ts";

/*
 * The row-menu dialogs App Services and Endpoints share (spec 1 §2): the same action carries the
 * same dialog name, title and form in both screens — Edit Name (`rename`), Edit Description
 * (`describe`), Setup Contacts (`contacts`), Resize (`resize`), Test Reachability's result
 * (`latency`). (Their create forms' shared parts: create-fields.tsx.) Each opens by URL
 * (?dialog=…&id=…) and posts the same-named intent to the screen's action, which validates.
 */

export type Result = SubmissionResult<string[]> | null | undefined;

/** What a dialog acts on: the hidden id field and its value, the name shown, the screen's words. */
export interface Subject {
  idField: string;
  id: string;
  name: string;
}

/** The screen's words: its title (for the page title) and what it says when the row is gone. */
export interface ScreenWords {
  screen: string;
  missing: string;
}

/** A dialog whose row is gone: the screen's 'no longer exists' and Cancel. */
export const Missing = ({ text }: { text: string }) => <DialogGone>{text}</DialogGone>;

/** A dialog for one subject: 'no longer exists' when it is gone, else its form (a new one per subject). */
function SubjectDialog({ name, title, size, subject, words, children }: { name: string; title: string; size?: "md" | "lg"; subject: Subject | null; words: ScreenWords; children: (s: Subject) => ReactNode }) {
  return (
    <UrlDialog name={name} title={title} size={size}>
      {subject ? children(subject) : <Missing text={words.missing} />}
    </UrlDialog>
  );
}

/** A dialog's form: page title with "Error:", the subject's id, Cancel and the submit button. */
function SubjectForm({ form, intent, title, subject, words, submit = "Save", children }: {
  form: Parameters<typeof ConformForm>[0]["form"];
  intent: string;
  title: string;
  subject: Subject;
  words: ScreenWords;
  submit?: string;
  children: ReactNode;
}) {
  const pending = useIsPending({ intent });
  return (
    <ConformForm form={form} intent={intent}>
      <PageTitle title={`${title} - ${words.screen}`} error={formHasErrors(form)} />
      <input type="hidden" name={subject.idField} value={subject.id} />
      {children}
      <DialogActions>
        <SubmitButton pending={pending}>{submit}</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

interface FormProps {
  subject: Subject;
  words: ScreenWords;
  lastResult: Result;
  constraint?: FormConstraint;
}

export function NameDialog(props: Omit<FormProps, "subject"> & { subject: Subject | null; field: string; label: string }) {
  return (
    <SubjectDialog name="rename" title="Edit Name" subject={props.subject} words={props.words}>
      {(s) => <NameForm key={s.id} {...props} subject={s} />}
    </SubjectDialog>
  );
}

function NameForm({ subject, words, lastResult, constraint, field, label }: FormProps & { field: string; label: string }) {
  const [form, fields] = useForm({ id: `rename-${subject.id}`, lastResult, constraint, defaultValue: { [field]: subject.name } });
  return (
    <SubjectForm form={form} intent="rename" title="Edit Name" subject={subject} words={words}>
      <TextField field={fields[field]!} label={label} autoComplete="off" />
    </SubjectForm>
  );
}

export function DescriptionDialog(props: Omit<FormProps, "subject"> & { subject: Subject | null; description: string }) {
  return (
    <SubjectDialog name="describe" title="Edit Description" subject={props.subject} words={props.words}>
      {(s) => <DescriptionForm key={s.id} {...props} subject={s} />}
    </SubjectDialog>
  );
}

function DescriptionForm({ subject, words, lastResult, constraint, description }: FormProps & { description: string }) {
  const [form, fields] = useForm({ id: `describe-${subject.id}`, lastResult, constraint, defaultValue: { description } });
  return (
    <SubjectForm form={form} intent="describe" title="Edit Description" subject={subject} words={words}>
      <TextareaField field={fields.description!} label="Description" rows={3} />
    </SubjectForm>
  );
}

export interface ContactOption {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
}

interface ContactsProps extends Omit<FormProps, "subject"> {
  subject: Subject | null;
  contacts: ContactOption[];
  primary: string | null;
  secondary: string | null;
}

export function ContactsDialog(props: ContactsProps) {
  return (
    <SubjectDialog name="contacts" title="Setup Contacts" subject={props.subject} words={props.words}>
      {(s) =>
        props.contacts.length === 0 ? (
          <>
            <p role="alert" className="text-error font-semibold">
              Missing Contacts
            </p>
            <p>
              There are no contacts to choose from. <Link to="/contacts?dialog=create" className="link link-primary">Create a contact</Link> first.
            </p>
            <DialogActions />
          </>
        ) : (
          <ContactsForm key={s.id} {...props} subject={s} />
        )
      }
    </SubjectDialog>
  );
}

function ContactsForm({ subject, words, lastResult, constraint, contacts, primary, secondary }: ContactsProps & { subject: Subject }) {
  const [form, fields] = useForm({ id: `contacts-${subject.id}`, lastResult, constraint, defaultValue: { primary_contact_id: primary ?? "", secondary_contact_id: secondary ?? "" } });
  const options = contacts.map((c) => ({ value: c.contact_id, label: `${`${c.first_name} ${c.last_name}`.trim() || c.email} (${c.email})` }));
  return (
    <SubjectForm form={form} intent="contacts" title="Setup Contacts" subject={subject} words={words}>
      <SelectField field={fields.primary_contact_id!} label="Business Contact" options={options} placeholder="None" />
      <SelectField field={fields.secondary_contact_id!} label="Technical Contact" options={options} placeholder="None" />
    </SubjectForm>
  );
}

interface ResizeProps extends Omit<FormProps, "subject"> {
  subject: Subject | null;
  title: string;
  /** Why it cannot be resized (an onprem deployment), instead of the form. */
  blocked?: string | null;
  /** Fields before Direction (App Services: the hosting location), or a note. */
  children?: (fields: ReturnType<typeof useForm>[1]) => ReactNode;
}

export function ResizeDialog(props: ResizeProps) {
  return (
    <SubjectDialog name="resize" title={props.title} subject={props.subject} words={props.words}>
      {(s) =>
        props.blocked ? (
          <>
            <p>{props.blocked}</p>
            <DialogActions />
          </>
        ) : (
          // A new form after each refusal: Confirm is enabled again after an error (spec 1 §4).
          <ResizeForm key={`${s.id}-${JSON.stringify(props.lastResult ?? null)}`} {...props} subject={s} />
        )
      }
    </SubjectDialog>
  );
}

function ResizeForm({ subject, words, lastResult, constraint, title, children }: ResizeProps & { subject: Subject }) {
  // A refused resize keeps what was chosen (issue 27 item 18): the form is new after each refusal, so its defaults are the refused values.
  const sent = (lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const chosen = (k: string) => (typeof sent[k] === "string" ? (sent[k] as string) : undefined);
  const [form, fields] = useForm({ id: `resize-${subject.id}`, lastResult, constraint, defaultValue: { direction: chosen("direction") ?? "up", hosting_id: chosen("hosting_id") ?? "" } });
  return (
    <SubjectForm form={form} intent="resize" title={title} subject={subject} words={words} submit="Confirm">
      {children?.(fields)}
      <SelectField
        field={fields.direction!}
        label="Direction"
        placeholder={null}
        options={[
          { value: "up", label: "Up" },
          { value: "down", label: "Down" },
        ]}
      />
    </SubjectForm>
  );
}

/** The measurement's keys (platform/fleet measureLatency) in the console's words; an unknown key is shown as it comes. */
const latencyLabels: Record<string, string> = {
  app_service_id: "App Service Id",
  ep_id: "Endpoint Id",
  measured_at: "Measured at",
  from_pop: "From PoP",
  probes: "Probes sent",
  received: "Replies received",
  min_ms: "Minimum (ms)",
  avg_ms: "Average (ms)",
  max_ms: "Maximum (ms)",
  jitter_ms: "Jitter (ms)",
  loss_pct: "Loss (%)",
  health: "Health (%)",
};

function latencyValue(key: string, v: unknown): ReactNode {
  if (v === null || v === undefined) return "N/A";
  if (key.endsWith("_at") && typeof v === "string") return <time dateTime={v}>{formatTime(v)}</time>;
  return String(v);
}

/** Test Reachability's measurement, as label/value pairs (spec 1 §7: key/value pairs, in words). */
export function LatencyResult({ values }: { values: Record<string, unknown> }) {
  return (
    <div className="mt-3" data-testid="key-values">
      <DetailsTable items={Object.entries(values).map(([k, v]) => ({ label: latencyLabels[k] ?? k, value: latencyValue(k, v) }))} />
    </div>
  );
}

/**
 * Test Reachability (issue 27 item 8): the measurement runs when the button is pressed (a POST of
 * intent "latency", readable by every role), never when a page or dialog opens; its answer comes
 * back as the action's `latency` and is shown under the button.
 */
export function LatencyForm({ idField, id, result, error }: { idField: string; id: string; result: Record<string, unknown> | null; error?: string | null }) {
  return (
    <>
      <ButtonForm intent="latency" label="Test Reachability" fields={{ [idField]: id }} className="btn btn-primary btn-sm" />
      {error ? (
        <p role="alert" className="text-error mt-3">
          {error}
        </p>
      ) : result ? (
        <LatencyResult values={result} />
      ) : null}
    </>
  );
}

/** Test Reachability (`latency`): which subject, measured from where ("the nearest PoP"), the button and its answer. */
export function LatencyDialog({ subject, words, from, result }: { subject: Subject | null; words: ScreenWords; from: string; result: Record<string, unknown> | null }) {
  return (
    <SubjectDialog name="latency" title="Test Reachability" subject={subject} words={words}>
      {(s) => (
        <>
          <p className="mb-2">
            Measure the reachability of <strong>{s.name}</strong> from {from}.
          </p>
          <LatencyForm idField={s.idField} id={s.id} result={result} />
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </SubjectDialog>
  );
}
