import { type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { DialogActions, UrlDialog } from "./dialog.tsx";
import { ConformForm, SubmitButton, TextField, useForm } from "./forms.tsx";

/*
 * The confirm-phrase dialog and form, without zod (so pages that only show them do not ship zod to
 * the browser). Import from "./confirm-phrase.tsx", which re-exports these with the schema.
 */

/** The label of the phrase field. */
export const confirmPhraseLabel = (phrase: string) => `Type ${phrase} to confirm`;
/** The error when the typed text is missing or different. */
export const confirmPhraseError = (phrase: string) => `The text does not match. Type ${phrase} to confirm.`;

export interface ConfirmPhraseDialogProps {
  /** The `dialog=` value that opens it. */
  name: string;
  title: string;
  /** The text to type, e.g. 'confirm' or the object's id. */
  phrase: string;
  /** The form's `intent`. */
  intent: string;
  /** Hidden fields (ids). */
  fields?: Record<string, string>;
  /** The action's reply for this form (`actionData?.result`). */
  lastResult?: SubmissionResult<string[]> | null;
  /** The submit button (default "Remove"). */
  submitLabel?: string;
  /** What will happen, shown above the field. */
  children?: ReactNode;
}

export function ConfirmPhraseDialog({ name, title, phrase, intent, fields = {}, lastResult, submitLabel = "Remove", children }: ConfirmPhraseDialogProps) {
  return (
    <UrlDialog name={name} title={title}>
      <ConfirmPhraseForm
        id={`${name}-form`}
        phrase={phrase}
        intent={intent}
        fields={fields}
        lastResult={lastResult}
        submitLabel={submitLabel}
      >
        {children}
      </ConfirmPhraseForm>
    </UrlDialog>
  );
}

/** The form alone (for a page section rather than a dialog). */
export function ConfirmPhraseForm({
  id,
  phrase,
  intent,
  fields = {},
  lastResult,
  submitLabel = "Remove",
  children,
  inDialog = true,
}: {
  id: string;
  phrase: string;
  intent: string;
  fields?: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel?: string;
  children?: ReactNode;
  inDialog?: boolean;
}) {
  const [form, formFields] = useForm({
    id,
    lastResult,
    constraint: { confirm: { required: true } },
    // No client-side validation: the server's reply gives the errors, the summary and the
    // "Error:" page title the same way with and without JavaScript.
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const label = confirmPhraseLabel(phrase);
  return (
    <ConformForm form={form} intent={intent} labels={{ confirm: label }}>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {children}
      <TextField field={formFields.confirm} label={label} autoComplete="off" />
      {inDialog ? (
        <DialogActions>
          <SubmitButton className="btn btn-error" pending={pending}>
            {submitLabel}
          </SubmitButton>
        </DialogActions>
      ) : (
        <div className="mt-4">
          <SubmitButton className="btn btn-error" pending={pending}>
            {submitLabel}
          </SubmitButton>
        </div>
      )}
    </ConformForm>
  );
}
