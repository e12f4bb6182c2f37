import { type SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { PASSWORDS_DIFFER } from "../../components/auth-layout.tsx";
import { ConformForm, PasswordField, SubmitButton, useForm } from "../../components/forms.tsx";

/*
 * The password form of Settings (spec 1 §5 "Password update"). A typo must not lock the user out
 * and a borrowed session must not take the account over: the form asks for the current password
 * and the new one twice. The console checks the current one with the platform's login call
 * (POST /api/v1/token, so wrong guesses count in the login throttle) before it calls
 * update-account / update-iam-user with the spec's body.
 */

export const WRONG_CURRENT_PASSWORD = "The current password is incorrect.";

export const passwordSchema = z
  .object({
    intent: z.literal("password"),
    current_password: z.string({ error: "Enter your current password." }).max(128, "Password must be at most 128 characters."),
    password: z
      .string({ error: "Enter a new password." })
      .min(8, "Password must be at least 8 characters.")
      .max(128, "Password must be at most 128 characters."),
    confirm_password: z.string({ error: "Confirm the new password." }),
  })
  .refine((v) => v.password === v.confirm_password, { message: PASSWORDS_DIFFER, path: ["confirm_password"] });

export const passwordLabels = { current_password: "Current password", password: "New password", confirm_password: "Confirm new password" };

export function usePasswordForm({ lastResult, pending }: { lastResult: SubmissionResult<string[]> | undefined; pending: boolean }) {
  const [form, fields] = useForm({
    id: "password-form",
    lastResult,
  });
  return {
    form,
    element: (
      <ConformForm form={form} intent="password" labels={passwordLabels} className="flex max-w-xl flex-col gap-2">
        <PasswordField field={fields.current_password} label={passwordLabels.current_password} autoComplete="current-password" />
        <PasswordField field={fields.password} label={passwordLabels.password} autoComplete="new-password" hint="8 to 128 characters." />
        <PasswordField field={fields.confirm_password} label={passwordLabels.confirm_password} autoComplete="new-password" />
        <div>
          <SubmitButton pending={pending}>Update Password</SubmitButton>
        </div>
      </ConformForm>
    ),
  };
}
