import { type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useIsPending } from "./hooks.ts";
import { CopyButton } from "./copy-button.tsx";
import { formDialog, FormActions, type DialogFormProps, type FormDialogProps } from "./dialog.tsx";
import { ConformForm, HiddenFields, SubmitButton, TextField, useForm } from "./forms.tsx";

/*
 * The confirm-phrase dialog and form, without zod (so pages that only show them do not ship zod to
 * the browser). Import from "./confirm-phrase.tsx", which re-exports these with the schema.
 */

/** The label of the phrase field. */
export const confirmPhraseLabel = (phrase: string) => `Type ${phrase} to confirm`;
/** The error when the typed text is missing or different. */
export const confirmPhraseError = (phrase: string) => `The text does not match. Type ${phrase} to confirm.`;

export interface ConfirmPhraseDialogProps extends FormDialogProps {
  /** The text to type, e.g. 'confirm' or the object's id. */
  phrase: string;
  /** The submit button (default "Remove"). */
  submitLabel?: string;
}

/** The phrase in a dialog (`?dialog={name}`): the question (`children`), the phrase, the button beside Cancel. */
export const ConfirmPhraseDialog = formDialog<ConfirmPhraseDialogProps>(ConfirmPhraseForm);

/**
 * A row's removal (`?dialog=remove&id=…`, intent "remove"): the question about the object, or
 * `gone` when it no longer exists (children null), then the phrase. The button says the title.
 */
export function RemoveDialog({
  title,
  phrase = "confirm",
  fields,
  lastResult,
  gone,
  children,
}: {
  title: string;
  phrase?: string;
  fields: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  gone: string;
  children: ReactNode;
}) {
  return (
    <ConfirmPhraseDialog name="remove" title={title} phrase={phrase} intent="remove" fields={fields} lastResult={lastResult} submitLabel={title}>
      <p className="mb-2">{children ?? gone}</p>
    </ConfirmPhraseDialog>
  );
}

/** The form alone, on a page section (`inDialog` in ConfirmPhraseDialog). */
export function ConfirmPhraseForm({
  id,
  phrase,
  intent,
  fields = {},
  lastResult,
  submitLabel = "Remove",
  children,
  inDialog = false,
}: DialogFormProps<ConfirmPhraseDialogProps>) {
  const [form, formFields] = useForm<{ confirm: string }>({
    id,
    lastResult,
    constraint: { confirm: { required: true } },
    // No client-side validation: the server's reply gives the errors, the summary and the
    // "Error:" page title the same way with and without JavaScript.
  });
  const pending = useIsPending({ intent });
  const label = confirmPhraseLabel(phrase);
  return (
    <ConformForm form={form} intent={intent}>
      <HiddenFields fields={fields} />
      {children}
      {phrase !== "confirm" ? <PhraseToCopy phrase={phrase} /> : null}
      <TextField field={formFields.confirm} label={label} autoComplete="off" />
      <FormActions inDialog={inDialog} className="mt-4">
        <SubmitButton className="btn btn-error" pending={pending}>
          {submitLabel}
        </SubmitButton>
      </FormActions>
    </ConformForm>
  );
}

/**
 * An id to type: selectable text (a triple click selects it all) and, with JavaScript, a Copy
 * button (the clipboard needs it).
 */
function PhraseToCopy({ phrase }: { phrase: string }) {
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2">
      <code className="bg-base-200 select-all break-all rounded px-2 py-1 font-mono text-sm">{phrase}</code>
      <CopyButton text={phrase}>
        Copy<span className="sr-only"> {phrase}</span>
      </CopyButton>
    </p>
  );
}
