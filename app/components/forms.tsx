import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm as useConformForm,
  type FieldMetadata,
  type FormMetadata,
} from "@conform-to/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Form, useActionData, useNavigation, type FormProps } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { listen, useConstraint, useHydrated, useIsPending } from "./hooks.ts";

/*
 * The form kit. Every form in the console is built from these pieces so that, with or without
 * JavaScript: each input has a label; its errors sit beside it and are tied to it with
 * aria-describedby; all errors are summarised at the top; the page title starts with "Error:".
 */

// why: Conform's metadata types are invariant in their schemas; the kit's components take any form's.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, any>;
// why: Conform's own bound and default for a form's schema (field values typed by the caller).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = Record<string, any>;
/**
 * A form's fields when it says nothing of its schema: none. A form that reads `fields` gives its
 * values' type (`useIntentForm<z.input<typeof Schema>>`, or a `defaultValue` it is inferred from),
 * so a misspelt field is a type error on every form (issue 61; app/lib/contract.typecheck-fixture.tsx).
 */
type NoFields = Record<never, never>;

type ConformOptions<Schema extends AnySchema> = Parameters<typeof useConformForm<Schema, Schema, string[]>>[0];

/**
 * Conform's `useForm` with the console's one validation rule built in (README "Validation"):
 * - the action validates, on submit, with and without JavaScript (no schema in the browser);
 * - with JavaScript too, fields are validated again only on the next submit: never per keystroke,
 *   never a request per keystroke or per blur;
 * - the error summary (ConformForm) changes only on submit.
 * `constraint` (the `required` asterisks, maxLength…) comes from the schema on the server:
 * `formConstraints(schema)` of constraints.server.ts, returned by the loader.
 */
export function useForm<Schema extends AnySchema = NoFields>(
  options: Omit<ConformOptions<Schema>, "onValidate" | "shouldValidate" | "shouldRevalidate">,
) {
  return useConformForm<Schema, Schema, string[]>({
    ...options,
    shouldValidate: "onSubmit",
    // Not "onBlur": without a schema in the browser a re-validation is a request to the action, a
    // navigation that races with a click on Submit (the click's blur starts it, the submit is then
    // overtaken: the change is saved but the page shows the stale errors).
    shouldRevalidate: "onSubmit",
  } as ConformOptions<Schema>);
}

/**
 * The form of one intent, as every dialog and page form starts: `useForm` with the loader's HTML
 * constraints for that intent (useConstraint) unless given, and whether the intent is being
 * submitted (useIsPending, for SubmitButton's `pending`). The form's `id` defaults to the intent.
 *
 *   const { form, fields, pending } = useIntentForm("create", { id: "create-iam-user", lastResult });
 */
export function useIntentForm<Schema extends AnySchema = NoFields>(
  intent: string,
  options: Omit<Parameters<typeof useForm<Schema>>[0], "id"> & { id?: string },
) {
  const constraint = useConstraint(intent);
  const [form, fields] = useForm<Schema>({ constraint, ...options, id: options.id ?? intent });
  return { form, fields, pending: useIsPending({ intent }) };
}

// The page's <title> is screen.tsx's; the pages that write forms find it here too.
export { PageTitle } from "./screen.tsx";

/** True when a form has any error (its own or a field's). */
export function formHasErrors(form: AnyForm): boolean {
  return Boolean(form.errors?.length) || Object.values(form.allErrors ?? {}).some((e) => e.length > 0);
}

/** `<Form method="post">` with the CSRF token, the intent, and the error summary. */
export function ConformForm({
  form,
  intent,
  children,
  labels: _labels,
  className,
  summary = true,
  ...rest
}: {
  form: AnyForm;
  intent?: string;
  children: ReactNode;
  /** @deprecated The summary shows each field's own message (GOV.UK): labels are not repeated. */
  labels?: Record<string, string>;
  summary?: boolean;
} & Omit<FormProps, "id" | "onSubmit" | "noValidate">) {
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className={className} {...rest}>
      <AuthenticityTokenInput name="csrf" />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {summary ? <ErrorSummary form={form} /> : null}
      {children}
    </Form>
  );
}

/**
 * A POST form of buttons rather than fields (Approve/Reject, Send test event, a row's Unassign): the
 * CSRF token, the hidden `intent` and ids, the buttons. Posts to this page's action; works without
 * JavaScript.
 */
export function IntentForm({ intent, fields = {}, className, children }: { intent: string; fields?: Record<string, string>; className?: string; children: ReactNode }) {
  return (
    <Form method="post" preventScrollReset className={className}>
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="intent" value={intent} />
      <HiddenFields fields={fields} />
      {children}
    </Form>
  );
}

/** An IntentForm that is one button, pending while its intent is submitted. */
export function ButtonForm({ intent, label, fields, className = "btn btn-sm" }: { intent: string; label: ReactNode; fields?: Record<string, string>; className?: string }) {
  const pending = useIsPending({ intent });
  return (
    <IntentForm intent={intent} fields={fields} className="inline">
      <SubmitButton pending={pending} className={className}>
        {label}
      </SubmitButton>
    </IntentForm>
  );
}

/** Extra hidden inputs of a form (ids, the dialog's subject). */
export function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />);
}

interface SummaryItem {
  /** The field's name, or "" for an error of the whole form. */
  name: string;
  message: string;
}

function summaryItems(form: AnyForm): SummaryItem[] {
  const items: SummaryItem[] = (form.errors ?? []).map((message: string) => ({ name: "", message }));
  for (const [name, errs] of Object.entries(form.allErrors ?? {})) {
    if (name === "" || name === form.id || !errs.length) continue;
    items.push({ name, message: errs.join(" ") });
  }
  return items;
}

/** Forms submitted and not yet refused, by id, with when: module state, as the form may be rendered anew meanwhile (a lazy dialog). A submit again starts afresh. */
const submitted = new Map<string, { pending: boolean; at: number }>();

/**
 * With JavaScript, what the end of a submit of form `formId` does to its error summary (issue 63
 * item 18). Refused: the focus moves to the summary, as GOV.UK's pattern does (the pressed button is
 * disabled while the form is sent, so the focus had fallen to <body>, and a refusal with only a
 * form-level message had no field to go to). Accepted (a redirect back to the same dialog, or an
 * answer shown in place): the summary of the earlier refusal goes (`onAccepted`), as without JavaScript.
 */
function useSubmitOutcome(formId: string, refused: boolean, onSent: () => void, onAccepted: () => void) {
  const navigation = useNavigation();
  const actionData = useActionData() as { result?: { status?: string } | null } | undefined;
  const mountedAt = useRef(0);
  const onSentRef = useRef(onSent);
  onSentRef.current = onSent;
  useEffect(() => {
    mountedAt.current = performance.now();
    const onSubmit = (event: Event) => {
      if ((event.target as Element | null)?.id !== formId) return;
      submitted.set(formId, { pending: false, at: performance.now() });
      onSentRef.current();
    };
    // Capturing: the submit is seen before any handler of the form can stop it.
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [formId]);
  // The answer is in when the navigation went and came back to "idle" (Conform's own submit handler
  // renders once before it starts, still "idle"), or when this form was rendered anew after the
  // submit. Conform applies a refusal a render later: the focus moves once the summary shows.
  useEffect(() => {
    const sent = submitted.get(formId);
    if (!sent) return;
    if (navigation.state !== "idle") {
      sent.pending = true;
      return;
    }
    if (!sent.pending && sent.at > mountedAt.current) return;
    if (actionData?.result?.status !== "error") {
      submitted.delete(formId);
      onAccepted();
      return;
    }
    if (!refused) return;
    submitted.delete(formId);
    document.getElementById(`${formId}-summary`)?.focus();
  });
}

/**
 * All errors of a form at its top, each linking to its field (GOV.UK's error summary: a bordered
 * box, the field's own message as the link text). It shows the errors of the last submit only:
 * Conform's status is "error" exactly after a submit the action refused, so what the summary says
 * changes only on the next submit.
 */
export function ErrorSummary({ form }: { form: AnyForm; labels?: Record<string, string>; submitted?: boolean }) {
  const shown = useRef<SummaryItem[]>([]);
  // An accepted submit dismisses the errors Conform still holds from the refusal before it.
  const [dismissed, setDismissed] = useState(false);
  if (form.status === "error") shown.current = dismissed ? [] : summaryItems(form);
  else if (form.status === "success") shown.current = [];
  const items = shown.current;
  useSubmitOutcome(
    form.id,
    items.length > 0,
    () => setDismissed(false),
    () => setDismissed(true),
  );
  // A refusal that came as a whole document (the form posted before the page had hydrated): once
  // hydrated, the focus goes to the summary as after a refusal in place, unless it has moved.
  const refusedAtStart = useRef(items.length > 0);
  useEffect(() => {
    if (!refusedAtStart.current) return;
    refusedAtStart.current = false;
    if (document.activeElement === null || document.activeElement === document.body) document.getElementById(`${form.id}-summary`)?.focus();
  }, [form.id]);
  if (items.length === 0) return null;
  return (
    <div role="alert" className="kit-error-summary" id={`${form.id}-summary`} tabIndex={-1} aria-labelledby={`${form.id}-summary-title`}>
      <h2 id={`${form.id}-summary-title`} className="kit-error-summary-title">
        There is a problem
      </h2>
      <ul className="kit-error-summary-list">
        {items.map((item, i) =>
          item.name ? (
            <li key={`f-${item.name}`}>
              <a href={`#${form.id}-${item.name}`}>{item.message}</a>
            </li>
          ) : (
            <li key={`e-${i}`}>{item.message}</li>
          ),
        )}
      </ul>
    </div>
  );
}

export function FieldErrors({ field }: { field: AnyField }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="text-error mt-1 text-sm">
      {field.errors.join(" ")}
    </p>
  );
}

function Hint({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="text-base-content/70 mt-1 text-sm">
      {children}
    </p>
  );
}

function describedBy(field: AnyField, hintId: string | undefined) {
  return [field.errors?.length ? field.errorId : null, hintId].filter(Boolean).join(" ") || undefined;
}

/** Field ids are `{formId}-{name}` so that the summary can link to them. */
function fieldId(field: AnyField) {
  return `${field.formId}-${field.name}`;
}

/** What every labelled field takes: its Conform field, its label and an optional hint. */
interface FrameProps {
  field: AnyField;
  label: string;
  hint?: ReactNode;
  /**
   * A field required only under a condition (another field's value), which the schema's HTML
   * constraints cannot say: whether it is required now (the asterisk and aria-required), and
   * `requiredWhen`, the condition, said in the label while it is not ("required when continuity
   * check is on"). Without JavaScript the server renders what the submitted values say.
   */
  required?: boolean;
  requiredWhen?: string;
}

/**
 * The frame every labelled field shares: the label (with the `required` asterisk), the control,
 * the hint and the errors. `control` gets the input's id, its aria-labelledby and aria-describedby.
 */
function FieldFrame({
  field,
  label,
  hint,
  required: requiredNow,
  requiredWhen,
  className = "",
  control,
}: FrameProps & {
  className?: string;
  control: (ids: { id: string; "aria-labelledby": string; "aria-describedby": string | undefined; "aria-required"?: true }) => ReactNode;
}) {
  const id = fieldId(field);
  const hintId = hint ? `${id}-hint` : undefined;
  const required = requiredNow ?? Boolean(field.required);
  // The control is named by the label's words only (aria-labelledby), never by the asterisk: the
  // name stays 'Password' whether or not the field is required (screen readers hear `required`
  // from the attribute; Playwright's getByLabel reads a <label>'s whole text, asterisk and all).
  const nameId = `${id}--label`; // "--": no form id or field name makes it (ids are `{formId}-{name}`)
  return (
    <div className={`fieldset ${className}`.trimEnd()}>
      <label className="fieldset-legend" htmlFor={id}>
        <span id={nameId}>
          {label}
          {!required && requiredWhen ? <span className="font-normal"> (required when {requiredWhen})</span> : null}
        </span>
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {control({ id, "aria-labelledby": nameId, "aria-describedby": describedBy(field, hintId), ...(requiredNow ? { "aria-required": true as const } : {}) })}
      <Hint id={hintId ?? ""}>{hint}</Hint>
      <FieldErrors field={field} />
    </div>
  );
}

/** Conform's error class for a control ("input-error"…) while the field has errors. */
function errorClass(field: AnyField, kind: "input" | "textarea" | "select") {
  return field.errors?.length ? `${kind}-error` : "";
}

export function TextField({
  type = "text",
  readOnly,
  autoComplete,
  className,
  placeholder,
  ...frame
}: FrameProps & {
  type?: "text" | "email" | "tel" | "url" | "number" | "search";
  readOnly?: boolean;
  autoComplete?: string;
  className?: string;
  placeholder?: string;
}) {
  const { field } = frame;
  return (
    <FieldFrame
      {...frame}
      className={className}
      control={(ids) => (
        <input
          {...getInputProps(field, { type, ariaAttributes: true })}
          {...ids}
          className={`input w-full ${errorClass(field, "input")}`}
          readOnly={readOnly}
          autoComplete={autoComplete}
          placeholder={placeholder}
        />
      )}
    />
  );
}

/** A password input; the show/hide button appears once JavaScript runs (it needs it). */
export function PasswordField({ autoComplete = "current-password", ...frame }: FrameProps & { autoComplete?: string }) {
  const { field, label } = frame;
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  // Hidden again on every submit (and so after a save): a shown password must not stay on screen,
  // and the button must not keep saying "Hide" over a field that was reset.
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const hide = () => setVisible(false);
    return listen(form, { submit: hide, reset: hide });
  }, [hydrated]);
  return (
    <FieldFrame
      {...frame}
      control={(ids) => (
        <div className="join w-full">
          <input
            {...getInputProps(field, { type: "password", ariaAttributes: true })}
            type={visible ? "text" : "password"}
            ref={input}
            {...ids}
            className={`input join-item w-full ${errorClass(field, "input")}`}
            autoComplete={autoComplete}
          />
          {hydrated ? (
            <button type="button" className="btn join-item" aria-pressed={visible} aria-controls={ids.id} onClick={() => setVisible((v) => !v)}>
              {visible ? "Hide" : "Show"}
              <span className="sr-only"> {label.toLowerCase()}</span>
            </button>
          ) : null}
        </div>
      )}
    />
  );
}

export function TextareaField({ rows = 3, ...frame }: FrameProps & { rows?: number }) {
  const { field } = frame;
  return (
    <FieldFrame
      {...frame}
      control={(ids) => (
        <textarea {...getTextareaProps(field, { ariaAttributes: true })} {...ids} rows={rows} className={`textarea w-full ${errorClass(field, "textarea")}`} />
      )}
    />
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  options,
  placeholder = "None",
  multiple,
  ...frame
}: FrameProps & {
  options: Option[];
  /** The empty first choice; null for none. */
  placeholder?: string | null;
  multiple?: boolean;
}) {
  const { field } = frame;
  return (
    <FieldFrame
      {...frame}
      control={(ids) => (
        <select
          {...getSelectProps(field, { ariaAttributes: true })}
          {...ids}
          multiple={multiple}
          className={`${multiple ? "select h-auto" : "select"} w-full ${errorClass(field, "select")}`}
        >
          {placeholder !== null && !multiple ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * A checkbox and its words. `marked`: a box the form needs checked (Billing's terms) shows the
 * required asterisk after its words, as FieldFrame does: named by the words only (aria-labelledby),
 * the asterisk hidden from assistive technology (`required` says it).
 */
export function CheckboxField({ field, label, children, marked = false }: { field: AnyField; label?: string; children?: ReactNode; marked?: boolean }) {
  const id = fieldId(field);
  const nameId = `${id}--label`;
  return (
    <div className="fieldset">
      <label className="label cursor-pointer justify-start gap-2" htmlFor={id}>
        <input
          {...getInputProps(field, { type: "checkbox", ariaAttributes: true })}
          id={id}
          aria-labelledby={marked ? nameId : undefined}
          aria-describedby={field.errors?.length ? field.errorId : undefined}
          className="checkbox"
        />
        {marked ? (
          <span>
            <span id={nameId}>{children ?? label}</span>
            <span aria-hidden="true"> *</span>
          </span>
        ) : (
          <span>{children ?? label}</span>
        )}
      </label>
      <FieldErrors field={field} />
    </div>
  );
}

/**
 * A submit button that shows progress while the form is submitting (JS) and is a plain button without.
 * While pending it is aria-disabled, not `disabled`: a focused button that becomes disabled loses the
 * focus to <body> (issue 63 item 18), so it keeps it and refuses a second press (a click, or Enter
 * in a field, whose implicit submission clicks it) until the answer is in.
 */
export function SubmitButton({
  children,
  pending = false,
  disabled = false,
  className = "btn btn-primary",
  name,
  value,
}: {
  children: ReactNode;
  pending?: boolean;
  disabled?: boolean;
  className?: string;
  name?: string;
  value?: string;
}) {
  const id = useId();
  return (
    <button
      type="submit"
      className={className}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={pending ? (event) => event.preventDefault() : undefined}
      name={name}
      value={value}
      id={id}
    >
      {pending ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
