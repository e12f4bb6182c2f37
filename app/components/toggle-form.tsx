import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { useState, type ChangeEvent, type ReactNode } from "react";
import { FormActions, type DialogFormProps, type FormDialogProps } from "./dialog.tsx";
import { ConformForm, FieldErrors, HiddenFields, SubmitButton, useForm } from "./forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "./hooks.ts";

/*
 * An on/off switch: a POST form with the switch and Confirm, on a page (ToggleForm) or in a
 * URL-opened dialog (ToggleDialog). Spec 1 §4: with JavaScript, Confirm is disabled until the switch differs from
 * `current`, and enabled again after an error other than "unchanged" (toggleConfirmDisabled); the server refuses an unchanged value with
 * toggleSchema (app/components/toggle.server.ts), so the rule holds without JavaScript too. The
 * switch's constraints are the loader's for the intent (useConstraint): the switch is not `required`.
 *
 *   // action
 *   submitForm(request, formData, { schema: toggleSchema(current, "mfa_enabled", { mfa_enabled: bool() }), … });
 *   // page
 *   <ToggleForm id="mfa-form" intent="mfa" fieldName="mfa_enabled" label="…" current={mfaEnabled} lastResult={…} />
 */

/** ToggleDialog's props (a dialog's name, title, intent, hidden fields, reply, text above the switch) and the switch's. */
export interface ToggleDialogProps extends FormDialogProps {
  /** The switch's label, e.g. "Advanced visibility"; it wraps on narrow screens. */
  label: string;
  /** The value now (from the loader). */
  current: boolean;
  confirmLabel?: string;
  /** The checkbox name (default "enabled"). */
  fieldName?: string;
  /** A sentence under the switch (tied to it by aria-describedby); "Currently enabled/disabled." follows it. */
  hint?: ReactNode;
}

/** The same switch on a page: an `id`, and the form's class (default a column as wide as a text field). */
export type ToggleFormProps = DialogFormProps<ToggleDialogProps> & { className?: string };

/** True when a reply carries any error (for the page title's "Error:" prefix). */
export function replyHasErrors(lastResult: SubmissionResult<string[]> | null | undefined): boolean {
  return Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e && e.length));
}

/** The server's answer to a switch sent unchanged (toggleSchema, toggle.server.ts; the endpoint node groups' address toggles too). */
export const toggleUnchangedError = "The value is unchanged. Switch it to confirm.";

/**
 * Whether a toggle's Confirm is disabled, the one rule for specs 2 and 3 (issue 63 item 20): with
 * JavaScript, while the value is unchanged, also after "The value is unchanged" (until the switch
 * differs again); after any other error it stays enabled for a retry. Without JavaScript, never.
 */
export function toggleConfirmDisabled(hydrated: boolean, unchanged: boolean, lastResult: SubmissionResult<string[]> | null | undefined): boolean {
  if (!hydrated || !unchanged) return false;
  const messages = Object.values(lastResult?.error ?? {}).flatMap((e) => e ?? []);
  return !messages.some((m) => m !== toggleUnchangedError);
}

/**
 * The switch's state, shared by ToggleForm and ToggleDialog: the form, the checkbox's props (id
 * `{id}-{fieldName}`, role switch, its change tracked) and whether Confirm is disabled (with
 * JavaScript, until the switch differs from `current`; see toggleConfirmDisabled).
 */
export function useToggleSwitch({
  id,
  fieldName,
  current,
  intent,
  lastResult,
  describedBy,
}: {
  id: string;
  fieldName: string;
  current: boolean;
  intent: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** Another element describing the switch (a hint). */
  describedBy?: string;
}) {
  const [form, formFields] = useForm({
    id,
    lastResult,
    defaultValue: { [fieldName]: current ? "on" : undefined },
    // The loader's constraints for the intent (toggleSchema's: none on the switch, a box turned off posts nothing).
    constraint: useConstraint(intent),
    // The server checks (and refuses an unchanged value); JS only disables Confirm.
  });
  const field = formFields[fieldName]!;
  const hydrated = useHydrated();
  const initial = lastResult?.initialValue ? lastResult.initialValue[fieldName] === "on" : current;
  // "The value is unchanged" tells the value now: what was sent (the page's own may be older: a
  // refused submit reloads nothing with JavaScript).
  const known = field.errors?.includes(toggleUnchangedError) ? initial : current;
  const [checked, setChecked] = useState(initial);
  const pending = useIsPending({ intent });
  const { key: _key, ...inputProps } = getInputProps(field, { type: "checkbox", ariaAttributes: true });
  const input = {
    ...inputProps,
    id: `${id}-${fieldName}`,
    role: "switch",
    "aria-describedby": [field.errors?.length ? field.errorId : null, describedBy].filter(Boolean).join(" ") || undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setChecked(event.currentTarget.checked),
  };
  return { form, field, input, pending, current: known, disabled: toggleConfirmDisabled(hydrated, checked === known, lastResult) };
}

/** The switch and Confirm: on a page (`<ToggleForm id=…>`) or in its dialog (ToggleDialog, toggle-dialog.tsx). */
export function ToggleForm({
  id,
  label,
  current,
  intent,
  fieldName = "enabled",
  fields = {},
  lastResult,
  confirmLabel = "Confirm",
  hint,
  children,
  inDialog = false,
  className = inDialog ? undefined : "flex max-w-xl flex-col gap-3",
}: ToggleFormProps) {
  const hintId = `${id}-${fieldName}-hint`;
  const { form, field, input, pending, disabled, current: known } = useToggleSwitch({ id, fieldName, current, intent, lastResult, describedBy: hintId });
  return (
    <ConformForm form={form} intent={intent} className={className}>
      <HiddenFields fields={fields} />
      {children}
      <div className="fieldset">
        {/* daisyUI's .label does not wrap: a long label would scroll the page sideways at 320 px. */}
        <label htmlFor={input.id} className="label text-base-content cursor-pointer justify-start gap-3 whitespace-normal">
          <input {...input} className="toggle toggle-primary shrink-0" />
          <span className="min-w-0 break-words">{label}</span>
        </label>
        <p id={hintId} className="text-base-content/70 mt-1 text-sm">
          {hint ? <>{hint} </> : null}Currently {known ? "enabled" : "disabled"}.
        </p>
        <FieldErrors field={field} />
      </div>
      <FormActions inDialog={inDialog}>
        <SubmitButton pending={pending} disabled={disabled}>
          {confirmLabel}
        </SubmitButton>
      </FormActions>
    </ConformForm>
  );
}
