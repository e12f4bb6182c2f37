import { z } from "zod";
import { PASSWORDS_DIFFER } from "../../components/auth-layout.tsx";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { toggleSchema } from "../../components/toggle-dialog.tsx";
import { authMessages, fieldMessages } from "../../../platform/contract/messages.ts";
import { formMessages } from "../../lib/messages.ts";

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

export const samlSchema = z.object({
  intent: z.literal("saml"),
  metalink: z
    .url({ protocol: /^https?$/, error: "Enter a valid http or https URL." })
    .max(2048, "The URL must be at most 2048 characters.")
    .optional(),
});

/** Account deletion needs the typed phrase 'confirm' (spec 1 §5), checked here too. */
export const deleteSchema = confirmPhraseSchema("confirm", { intent: z.literal("delete-account") });

export const profileSchemas = {
  name: z.object({
    intent: z.literal("name"),
    name: z.string({ error: "Enter your name." }).trim().min(1, "Enter your name.").max(200, "Name must be at most 200 characters."),
  }),
  email: z.object({
    intent: z.literal("email"),
    email: z
      .string({ error: formMessages.enterEmail })
      .trim()
      .min(1, formMessages.enterEmail)
      .max(254, "Email must be at most 254 characters.")
      .pipe(z.email({ error: fieldMessages.emailInvalid })),
  }),
  // Phone and address are optional: an empty field clears them (Conform reads it as undefined).
  phone: z.object({
    intent: z.literal("phone"),
    phone: z
      .string()
      .trim()
      .max(50, "Phone must be at most 50 characters.")
      .regex(/^[0-9A-Za-z+()\-./#*,; ]*$/, fieldMessages.phoneInvalid)
      .refine((v) => v === "" || /[0-9]/.test(v), fieldMessages.phoneInvalid)
      .optional(),
  }),
  address: z.object({
    intent: z.literal("address"),
    address: z.string().trim().max(500, "Address must be at most 500 characters.").optional(),
  }),
} as const;

/** The forms' HTML constraints, from the schemas (the loaders hand them to the forms: useConstraint). */
export const accountConstraints = formConstraints({ saml: samlSchema });
