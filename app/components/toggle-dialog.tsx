import { z } from "zod";
import { DialogActions, UrlDialog, type FormDialogProps } from "./dialog.tsx";
import { ConformForm, FieldErrors, HiddenFields, SubmitButton } from "./forms.tsx";
import { useToggleSwitch } from "./toggle-form.tsx";

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
export function toggleSchema<Extra extends z.ZodRawShape = Record<never, never>>(current: boolean, extra?: Extra, name = "enabled") {
  return z
    .object({ ...(extra ?? ({} as Extra)), [name]: z.boolean().optional() })
    .superRefine((value, ctx) => {
      if (Boolean((value as Record<string, unknown>)[name]) === current) {
        ctx.addIssue({ code: "custom", path: [name], message: toggleUnchangedError });
      }
    })
    .transform((value) => ({ ...value, enabled: Boolean((value as Record<string, unknown>)[name]) }));
}

export interface ToggleDialogProps extends FormDialogProps {
  /** The switch's label, e.g. "Advanced visibility". */
  label: string;
  /** The value now (from the loader). */
  current: boolean;
  confirmLabel?: string;
  /** The checkbox name (default "enabled"). */
  fieldName?: string;
}

export function ToggleDialog({ name, title, ...form }: ToggleDialogProps) {
  return (
    <UrlDialog name={name} title={title}>
      <ToggleDialogForm id={`${name}-form`} {...form} />
    </UrlDialog>
  );
}

function ToggleDialogForm({
  id,
  label,
  current,
  intent,
  fields = {},
  lastResult,
  confirmLabel = "Confirm",
  fieldName = "enabled",
  children,
}: Omit<ToggleDialogProps, "name" | "title"> & { id: string }) {
  const { form, field, input, pending, disabled } = useToggleSwitch({ id, fieldName, current, intent, lastResult });
  return (
    <ConformForm form={form} intent={intent}>
      <HiddenFields fields={fields} />
      {children}
      <p className="text-base-content/70 text-sm">Currently {current ? "enabled" : "disabled"}.</p>
      <div className="fieldset">
        <label className="label cursor-pointer justify-start gap-3" htmlFor={input.id}>
          <input {...input} className="toggle toggle-primary" />
          <span className="text-base-content">{label}</span>
        </label>
        <FieldErrors field={field} />
      </div>
      <DialogActions>
        <SubmitButton pending={pending} disabled={disabled}>
          {confirmLabel}
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
