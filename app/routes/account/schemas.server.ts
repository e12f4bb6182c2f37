import { z } from "zod";
import { PASSWORDS_DIFFER } from "../../components/auth-layout.tsx";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { toggleSchema } from "../../components/toggle.server.ts";
import { authMessages } from "../../../platform/contract/messages.ts";
import { IdpBody, profileShape } from "../../../platform/contract/account.shapes.ts";
import { bool } from "../../../platform/lib/fields.ts";
import { authLimits } from "../../../platform/contract/auth.shapes.ts";
import { requestForm } from "../../lib/form-fields.server.ts";

/*
 * The form schemas of Settings (/account) and My Profile (/profile), spec 1 §5, §6. Server-only:
 * zod stays out of the pages' JavaScript; the forms get their constraints from the loaders.
 */

export const WRONG_CURRENT_PASSWORD = "The current password is incorrect.";

const ENTER_CURRENT_PASSWORD = "Enter your current password.";
const CONFIRM_NEW_PASSWORD = "Confirm the new password.";

/**
 * The password form is update-account's / update-iam-user's password (the request's words: a blank
 * or short one 'Password must be at least 8 characters.'), with two fields of the form only: the
 * current password, which the console checks with the login call (POST token's password, its
 * limit) and no update request takes, and the new one again.
 */
export const passwordSchema = requestForm(
  z
    .object({
      current_password: z.string({ error: ENTER_CURRENT_PASSWORD }).min(1, ENTER_CURRENT_PASSWORD).max(authLimits.password, authMessages.passwordTooLong),
      password: profileShape.password.unwrap(),
      confirm_password: z.string({ error: CONFIRM_NEW_PASSWORD }).min(1, CONFIRM_NEW_PASSWORD),
    })
    .refine((v) => v.password === v.confirm_password, { message: PASSWORDS_DIFFER, path: ["confirm_password"] }),
);

/**
 * The MFA switch; `current` (the platform's value) is refused: Confirm needs a change (spec 1 §4).
 * Form-only: the switch chooses the call (enable-mfa, whose `type` is always 'email', or
 * disable-mfa, an empty body), so it is the platform's boolean field, no request's.
 */
export const mfaSchema = (current: boolean) => toggleSchema(current, "mfa_enabled", { mfa_enabled: bool() });

/**
 * The SAML form is update-account-idp's request: an empty URL clears it, so the field is not
 * `required` (`.default("")`: the request form keeps an empty input as "").
 */
export const samlSchema = requestForm(z.object({ metalink: IdpBody.shape.metalink.default("") }));

/** Account deletion needs the typed phrase 'confirm' (spec 1 §5), checked here too. */
export const deleteSchema = confirmPhraseSchema("confirm", { intent: z.literal("delete-account") });

/**
 * My Profile posts one field per form, and its call (update-account, update-iam-user) takes exactly
 * one: each form is that field of the request (required for name and e-mail; an empty phone or
 * address clears it, so those stay optional and the request form keeps "" for them).
 */
export const profileSchemas = {
  name: requestForm(z.object({ name: profileShape.name.unwrap() })),
  email: requestForm(z.object({ email: profileShape.email.unwrap() })),
  phone: requestForm(z.object({ phone: profileShape.phone })),
  address: requestForm(z.object({ address: profileShape.address })),
} as const;

/** The forms' HTML constraints, from the schemas (the loaders hand them to the forms: useConstraint). */
export const accountConstraints = formConstraints({ password: passwordSchema, mfa: mfaSchema(false), saml: samlSchema });

/** My Profile's forms' HTML constraints, by field (the form's intent). */
export const profileConstraints = formConstraints(profileSchemas);
