import { z } from "zod";
import { PASSWORDS_DIFFER } from "../../components/auth-layout.tsx";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { toggleSchema } from "../../components/toggle-dialog.tsx";
import { authMessages } from "../../../platform/contract/messages.ts";
import { IdpBody, profileShape } from "../../../platform/contract/account.shapes.ts";
import { requestForm } from "../../lib/form-fields.server.ts";

/*
 * The form schemas of Settings (/account) and My Profile (/profile), spec 1 §5, §6. Server-only:
 * zod stays out of the pages' JavaScript; the forms get their constraints from the loaders.
 */

export const WRONG_CURRENT_PASSWORD = "The current password is incorrect.";

export const passwordSchema = z
  .object({
    intent: z.literal("password"),
    current_password: z.string({ error: "Enter your current password." }).max(128, authMessages.passwordTooLong),
    password: z
      .string({ error: "Enter a new password." })
      .min(8, authMessages.passwordTooShort)
      .max(128, authMessages.passwordTooLong),
    confirm_password: z.string({ error: "Confirm the new password." }),
  })
  .refine((v) => v.password === v.confirm_password, { message: PASSWORDS_DIFFER, path: ["confirm_password"] });

/** The MFA switch; `current` (the platform's value) is refused: Confirm needs a change (spec 1 §4). */
export const mfaSchema = (current: boolean) => toggleSchema(current, { intent: z.literal("mfa") }, "mfa_enabled");

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
export const accountConstraints = formConstraints({ saml: samlSchema });

/** My Profile's forms' HTML constraints, by field (the form's intent). */
export const profileConstraints = formConstraints(profileSchemas);
