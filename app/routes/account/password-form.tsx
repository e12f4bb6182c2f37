import type { passwordSchema } from "./schemas.server.ts";
import type { z } from "zod";
import { type SubmissionResult } from "@conform-to/react";
import { ConformForm, PasswordField, SubmitButton, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";

/*
 * The password form of Settings (spec 1 §5 "Password update"). A typo must not lock the user out
 * and a borrowed session must not take the account over: the form asks for the current password
 * and the new one twice. The console checks the current one with the platform's login call
 * (POST /api/v1/token, so wrong guesses count in the login throttle) before it calls
 * update-account / update-iam-user with the spec's body (schema and action: schemas.server.ts, actions.server.ts).
 */

export const passwordLabels = { current_password: "Current password", password: "New password", confirm_password: "Confirm new password" };

export function usePasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = useIsPending({ intent: "password" });
  const [form, fields] = useForm<z.input<typeof passwordSchema>>({
    id: "password-form",
    lastResult,
    // The request's constraints (schemas.server.ts): the three fields are required; the asterisk
    // stays out of their names (the kit's labels), which the tests and screen readers use.
    constraint: useConstraint("password"),
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
