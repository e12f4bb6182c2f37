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
import { Form, useRouteLoaderData, type FormProps } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "./hooks.ts";

/*
 * The form kit. Every form in the console is built from these pieces so that, with or without
 * JavaScript: each input has a label; its errors sit beside it and are tied to it with
 * aria-describedby; all errors are summarised at the top; the page title starts with "Error:".
 */

type AnyField = FieldMetadata<any, any, any>;

type ConformOptions<Schema extends Record<string, any>> = Parameters<typeof useConformForm<Schema, Schema, string[]>>[0];

/**
 * Conform's `useForm` with the console's one validation rule built in (README "Validation"):
 * - the action validates, on submit, with and without JavaScript (no schema in the browser);
 * - with JavaScript too, fields are validated again only on the next submit: never per keystroke,
 *   never a request per keystroke or per blur;
 * - the error summary (ConformForm) changes only on submit.
 * `constraint` (the `required` asterisks, maxLength…) comes from the schema on the server:
 * `formConstraints(schema)` of constraints.server.ts, returned by the loader.
 */
export function useForm<Schema extends Record<string, any> = Record<string, any>>(
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

/** The page's <title>; React 19 hoists it into <head>, on the server too. */
export function PageTitle({ title, error = false }: { title: string; error?: boolean }) {
  const root = useRouteLoaderData("root") as { productName?: string } | undefined;
  const product = root?.productName ?? "Linkwise";
  return <title>{`${error ? "Error: " : ""}${title} | ${product}`}</title>;
}

/** True when a form has any error (its own or a field's). */
export function formHasErrors(form: FormMetadata<any, any>): boolean {
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
  form: FormMetadata<any, any>;
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

interface SummaryItem {
  /** The field's name, or "" for an error of the whole form. */
  name: string;
  message: string;
}

function summaryItems(form: FormMetadata<any, any>): SummaryItem[] {
  const items: SummaryItem[] = (form.errors ?? []).map((message: string) => ({ name: "", message }));
  for (const [name, errs] of Object.entries(form.allErrors ?? {})) {
    if (name === "" || name === form.id || !errs.length) continue;
    items.push({ name, message: errs.join(" ") });
  }
  return items;
}

/**
 * All errors of a form at its top, each linking to its field (GOV.UK's error summary: a bordered
 * box, the field's own message as the link text). It shows the errors of the last submit only:
 * Conform's status is "error" exactly after a submit the action refused, so what the summary says
 * changes only on the next submit.
 */
export function ErrorSummary({ form }: { form: FormMetadata<any, any>; labels?: Record<string, string>; submitted?: boolean }) {
  const shown = useRef<SummaryItem[]>([]);
  if (form.status === "error") shown.current = summaryItems(form);
  else if (form.status === "success") shown.current = [];
  const items = shown.current;
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

function FieldErrors({ field }: { field: AnyField }) {
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

export function TextField({
  field,
  label,
  type = "text",
  hint,
  readOnly,
  autoComplete,
  className,
  placeholder,
}: {
  field: AnyField;
  label: string;
  type?: "text" | "email" | "tel" | "url" | "number" | "search";
  hint?: ReactNode;
  readOnly?: boolean;
  autoComplete?: string;
  className?: string;
  placeholder?: string;
}) {
  const hintId = hint ? `${fieldId(field)}-hint` : undefined;
  return (
    <div className={`fieldset ${className ?? ""}`}>
      <label className="fieldset-legend" htmlFor={fieldId(field)}>
        {label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        {...getInputProps(field, { type, ariaAttributes: true })}
        id={fieldId(field)}
        aria-describedby={describedBy(field, hintId)}
        className={`input w-full ${field.errors?.length ? "input-error" : ""}`}
        readOnly={readOnly}
        autoComplete={autoComplete}
        placeholder={placeholder}
      />
      <Hint id={hintId ?? ""}>{hint}</Hint>
      <FieldErrors field={field} />
    </div>
  );
}

/** A password input; the show/hide button appears once JavaScript runs (it needs it). */
export function PasswordField({ field, label, autoComplete = "current-password", hint }: { field: AnyField; label: string; autoComplete?: string; hint?: ReactNode }) {
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  // Hidden again on every submit (and so after a save): a shown password must not stay on screen,
  // and the button must not keep saying "Hide" over a field that was reset.
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const hide = () => setVisible(false);
    form.addEventListener("submit", hide);
    form.addEventListener("reset", hide);
    return () => {
      form.removeEventListener("submit", hide);
      form.removeEventListener("reset", hide);
    };
  }, [hydrated]);
  const hintId = hint ? `${fieldId(field)}-hint` : undefined;
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={fieldId(field)}>
        {label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <div className="join w-full">
        <input
          {...getInputProps(field, { type: "password", ariaAttributes: true })}
          type={visible ? "text" : "password"}
          ref={input}
          id={fieldId(field)}
          aria-describedby={describedBy(field, hintId)}
          className={`input join-item w-full ${field.errors?.length ? "input-error" : ""}`}
          autoComplete={autoComplete}
        />
        {hydrated ? (
          <button
            type="button"
            className="btn join-item"
            aria-pressed={visible}
            aria-controls={fieldId(field)}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? "Hide" : "Show"}
            <span className="sr-only"> {label.toLowerCase()}</span>
          </button>
        ) : null}
      </div>
      <Hint id={hintId ?? ""}>{hint}</Hint>
      <FieldErrors field={field} />
    </div>
  );
}

export function TextareaField({ field, label, hint, rows = 3 }: { field: AnyField; label: string; hint?: ReactNode; rows?: number }) {
  const hintId = hint ? `${fieldId(field)}-hint` : undefined;
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={fieldId(field)}>
        {label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <textarea
        {...getTextareaProps(field, { ariaAttributes: true })}
        id={fieldId(field)}
        rows={rows}
        aria-describedby={describedBy(field, hintId)}
        className={`textarea w-full ${field.errors?.length ? "textarea-error" : ""}`}
      />
      <Hint id={hintId ?? ""}>{hint}</Hint>
      <FieldErrors field={field} />
    </div>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  field,
  label,
  options,
  placeholder = "None",
  hint,
  multiple,
}: {
  field: AnyField;
  label: string;
  options: Option[];
  /** The empty first choice; null for none. */
  placeholder?: string | null;
  hint?: ReactNode;
  multiple?: boolean;
}) {
  const hintId = hint ? `${fieldId(field)}-hint` : undefined;
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={fieldId(field)}>
        {label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        {...getSelectProps(field, { ariaAttributes: true })}
        id={fieldId(field)}
        multiple={multiple}
        aria-describedby={describedBy(field, hintId)}
        className={`${multiple ? "select h-auto" : "select"} w-full ${field.errors?.length ? "select-error" : ""}`}
      >
        {placeholder !== null && !multiple ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Hint id={hintId ?? ""}>{hint}</Hint>
      <FieldErrors field={field} />
    </div>
  );
}

export function CheckboxField({ field, label, children }: { field: AnyField; label?: string; children?: ReactNode }) {
  return (
    <div className="fieldset">
      <label className="label cursor-pointer justify-start gap-2" htmlFor={fieldId(field)}>
        <input
          {...getInputProps(field, { type: "checkbox", ariaAttributes: true })}
          id={fieldId(field)}
          aria-describedby={field.errors?.length ? field.errorId : undefined}
          className="checkbox"
        />
        <span>{children ?? label}</span>
      </label>
      <FieldErrors field={field} />
    </div>
  );
}

/** A submit button that shows progress while the form is submitting (JS) and is a plain button without. */
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
    <button type="submit" className={className} disabled={disabled || pending} aria-busy={pending || undefined} name={name} value={value} id={id}>
      {pending ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
