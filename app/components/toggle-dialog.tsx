import { z } from "zod";
import { formDialog } from "./dialog.tsx";
import { ToggleForm, toggleUnchangedError, type ToggleDialogProps } from "./toggle-form.tsx";

/*
 * An on/off switch in a URL-opened dialog (advanced visibility, MFA, proxying…). Spec 1 §4: Confirm
 * is disabled until the value differs from the current one, and enabled again after an error other
 * than "unchanged" (toggleConfirmDisabled, toggle-form.tsx). The
 * server refuses an unchanged value with the same schema (toggleSchema), so it holds without JS
 * (where Confirm is never disabled).
 *
 *   // action: `current` is what the platform says now
 *   const submission = parseWithZod(formData, { schema: toggleSchema(current, { ep_id: z.string() }) });
 *   if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
 *   submission.value.enabled  // boolean
 */

export { toggleUnchangedError };

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

export type { ToggleDialogProps };

/** The switch in a dialog (`?dialog={name}`): the text above it (`children`), the switch, Confirm beside Cancel. */
export const ToggleDialog = formDialog<ToggleDialogProps>(ToggleForm);
