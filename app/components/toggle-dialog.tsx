import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { z } from "zod";
import { DialogActions, UrlDialog } from "./dialog.tsx";
import { useHydrated, useIsPending } from "./hooks.ts";
import { ConformForm, SubmitButton, useForm } from "./forms.tsx";

/*
 * An on/off switch in a URL-opened dialog (advanced visibility, MFA, proxying…). Spec 1 §4: Confirm
 * is disabled until the value differs from the current one, and enabled again after an error. The
 * server refuses an unchanged value with the same schema (toggleSchema), so it holds without JS
 * (where Confirm is never disabled).
 *
 *   // action: `current` is what the platform says now
 *   const submission = parseWithZod(formData, { schema: toggleSchema(current, { ep_id: z.string() }) });
 *   if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
 *   submission.value.enabled  // boolean
 */

export const toggleUnchangedError = "The value is unchanged. Switch it to confirm.";

/** `{ enabled: boolean, ...extra }` (a missing checkbox is false), refusing `current`. */
export function toggleSchema<Extra extends z.ZodRawShape = {}>(current: boolean, extra?: Extra, name = "enabled") {
  return z
    .object({ ...(extra ?? ({} as Extra)), [name]: z.boolean().optional() })
    .superRefine((value, ctx) => {
      if (Boolean((value as Record<string, unknown>)[name]) === current) {
        ctx.addIssue({ code: "custom", path: [name], message: toggleUnchangedError });
      }
    })
    .transform((value) => ({ ...value, enabled: Boolean((value as Record<string, unknown>)[name]) }));
}

export interface ToggleDialogProps {
  /** The `dialog=` value that opens it. */
  name: string;
  title: string;
  /** The switch's label, e.g. "Advanced visibility". */
  label: string;
  /** The value now (from the loader). */
  current: boolean;
  intent: string;
  fields?: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  confirmLabel?: string;
  /** The checkbox name (default "enabled"). */
  fieldName?: string;
  children?: ReactNode;
}

export function ToggleDialog({ name, title, label, current, intent, fields = {}, lastResult, confirmLabel = "Confirm", fieldName = "enabled", children }: ToggleDialogProps) {
  return (
    <UrlDialog name={name} title={title}>
      <ToggleForm
        id={`${name}-form`}
        label={label}
        current={current}
        intent={intent}
        fields={fields}
        lastResult={lastResult}
        confirmLabel={confirmLabel}
        fieldName={fieldName}
      >
        {children}
      </ToggleForm>
    </UrlDialog>
  );
}

function ToggleForm({
  id,
  label,
  current,
  intent,
  fields,
  lastResult,
  confirmLabel,
  fieldName,
  children,
}: Required<Omit<ToggleDialogProps, "name" | "title" | "children" | "lastResult">> & {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  children?: ReactNode;
}) {
  const [form, formFields] = useForm({
    id,
    lastResult,
    defaultValue: { [fieldName]: current ? "on" : undefined },
    // The server checks (and refuses an unchanged value); JS only disables Confirm.
  });
  const field = formFields[fieldName]!;
  const hydrated = useHydrated();
  const initial = lastResult?.initialValue ? lastResult.initialValue[fieldName] === "on" : current;
  const [checked, setChecked] = useState(initial);
  const hadError = Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e && e.length));
  const pending = useIsPending({ intent });
  const disabled = hydrated && !hadError && checked === current;
  const inputId = `${id}-${fieldName}`;
  const { key: _key, ...inputProps } = getInputProps(field, { type: "checkbox", ariaAttributes: true });
  return (
    <ConformForm form={form} intent={intent} labels={{ [fieldName]: label }}>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {children}
      <p className="text-base-content/70 text-sm">Currently {current ? "enabled" : "disabled"}.</p>
      <div className="fieldset">
        <label className="label cursor-pointer justify-start gap-3" htmlFor={inputId}>
          <input
            {...inputProps}
            id={inputId}
            role="switch"
            className="toggle toggle-primary"
            aria-describedby={field.errors?.length ? field.errorId : undefined}
            onChange={(event) => setChecked(event.currentTarget.checked)}
          />
          <span className="text-base-content">{label}</span>
        </label>
        {field.errors?.length ? (
          <p id={field.errorId} className="text-error mt-1 text-sm">
            {field.errors.join(" ")}
          </p>
        ) : null}
      </div>
      <DialogActions>
        <SubmitButton pending={pending} disabled={disabled}>
          {confirmLabel}
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
