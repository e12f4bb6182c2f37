import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { useNavigation } from "react-router";
import { ConformForm, SubmitButton, useForm } from "./forms.tsx";
import { useHydrated, usePendingIntent } from "./hooks.ts";

/*
 * An on/off switch on a page (not in a dialog): a POST form with the switch and Confirm. Same rule
 * as ToggleDialog (spec 1 §4): with JavaScript, Confirm is disabled until the switch differs from
 * `current`, and enabled again after an error; the server refuses an unchanged value with
 * toggleSchema (app/components/toggle-dialog.tsx), so the rule holds without JavaScript too.
 *
 *   // action
 *   const submission = parseWithZod(formData, { schema: toggleSchema(current, { intent: z.literal("mfa") }, "mfa_enabled") });
 *   if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
 *   // page
 *   <ToggleForm id="mfa-form" intent="mfa" fieldName="mfa_enabled" label="…" current={mfaEnabled} lastResult={…} />
 */

export interface ToggleFormProps {
  id: string;
  /** The switch's label; it wraps on narrow screens. */
  label: string;
  /** The value now (from the loader). */
  current: boolean;
  intent: string;
  /** The checkbox name (default "enabled"). */
  fieldName?: string;
  /** Extra hidden inputs. */
  fields?: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  confirmLabel?: string;
  /** A sentence under the switch (tied to it by aria-describedby); "Currently enabled/disabled." follows it. */
  hint?: ReactNode;
  className?: string;
}

/** True when a reply carries any error (for the page title's "Error:" prefix). */
export function replyHasErrors(lastResult: SubmissionResult<string[]> | null | undefined): boolean {
  return Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e && e.length));
}

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
  className = "flex max-w-xl flex-col gap-3",
}: ToggleFormProps) {
  const [form, formFields] = useForm({
    id,
    lastResult,
    defaultValue: { [fieldName]: current ? "on" : undefined },
  });
  const field = formFields[fieldName]!;
  const hydrated = useHydrated();
  const initial = lastResult?.initialValue ? lastResult.initialValue[fieldName] === "on" : current;
  const [checked, setChecked] = useState(initial);
  const hadError = replyHasErrors(lastResult);
  const navigation = useNavigation();
  const pending = usePendingIntent() === intent;
  const inputId = `${id}-${fieldName}`;
  const hintId = `${inputId}-hint`;
  const { key: _key, ...inputProps } = getInputProps(field, { type: "checkbox", ariaAttributes: true });
  return (
    <ConformForm form={form} intent={intent} labels={{ [fieldName]: label }} className={className}>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="fieldset">
        {/* daisyUI's .label does not wrap: a long label would scroll the page sideways at 320 px. */}
        <label htmlFor={inputId} className="label text-base-content cursor-pointer justify-start gap-3 whitespace-normal">
          <input
            {...inputProps}
            id={inputId}
            role="switch"
            className="toggle toggle-primary shrink-0"
            aria-describedby={[field.errors?.length ? field.errorId : null, hintId].filter(Boolean).join(" ")}
            onChange={(event) => setChecked(event.currentTarget.checked)}
          />
          <span className="min-w-0 break-words">{label}</span>
        </label>
        <p id={hintId} className="text-base-content/70 mt-1 text-sm">
          {hint ? <>{hint} </> : null}Currently {current ? "enabled" : "disabled"}.
        </p>
        {field.errors?.length ? (
          <p id={field.errorId} className="text-error mt-1 text-sm">
            {field.errors.join(" ")}
          </p>
        ) : null}
      </div>
      <div>
        <SubmitButton pending={pending} disabled={hydrated && !hadError && checked === current}>
          {confirmLabel}
        </SubmitButton>
      </div>
    </ConformForm>
  );
}
