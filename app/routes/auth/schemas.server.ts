import { z } from "zod";
import { PASSWORDS_DIFFER } from "../../components/auth-layout.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { formMessages } from "../../lib/messages.ts";
import { authMessages } from "../../../platform/contract/messages.ts";
import { authLimits, ForgotBody, RegisterBody, ResetBody, TokenBody } from "../../../platform/contract/auth.shapes.ts";
import { email, maxMessage, text } from "../../../platform/lib/fields.ts";

/*
 * The sign-in pages' form schemas (spec 3 §2.4–§2.9): each is its call's request schema
 * (platform/contract/auth.shapes.ts), overriding a field whose words the page keeps (the
 * platform's are a JSON client's: 'Field must not be empty'). Server-only: zod stays out of the
 * pages' JavaScript; the pages get their constraints from the loaders.
 */

export const ENTER_PASSWORD = "Enter your password.";
const MIN_EMAIL = 5;

/** An e-mail typed into a sign-in page: 'Enter your email.' when blank (one message), kept as typed. */
const signInEmail = () => email(undefined, { keepCase: true, required: formMessages.enterEmail });

/**
 * Log in: POST token's request without the login code (login-mfa's) and with the page's return
 * address. While choosing the account (after a 300) the password may stay empty: the console kept
 * it, sealed, in the session rather than sending it back into the page.
 */
export const loginSchema = (choosing: boolean) =>
  requestForm(
    z.object({
      ...TokenBody.omit({ otp: true }).shape,
      username: signInEmail(),
      password: z.string({ error: ENTER_PASSWORD }).min(choosing ? 0 : 1, ENTER_PASSWORD).max(authLimits.password, maxMessage(authLimits.password)),
      redirectTo: z.string().optional(),
    }),
  );

/** The login code: POST token's `otp`, required on this page. */
export const loginCodeSchema = requestForm(z.object({ otp: text(authLimits.otp, { min: 1, minMessage: "Enter the login code." }) }));

/** Register: the request; the terms box posts 'on' (the call takes `true`: a transform, not a pipe, so the box keeps its constraint). */
export const registerSchema = requestForm(
  z.object({
    ...RegisterBody.shape,
    username: signInEmail(),
    terms: z.literal("on", { error: authMessages.acceptTerms }).transform(() => true as const),
  }),
);

/** Forgot password: the request, with the page's rule of at least 5 characters (Send is enabled from there). */
export const forgotPasswordSchema = requestForm(
  z.object({
    ...ForgotBody.shape,
    username: z
      .string({ error: formMessages.enterEmail })
      .trim()
      .min(1, { message: formMessages.enterEmail, abort: true })
      .min(MIN_EMAIL, `Enter an email of at least ${MIN_EMAIL} characters.`)
      .max(authLimits.username, maxMessage(authLimits.username)),
  }),
);

/** A set-a-password link's form: its token (from the URL), the request's password, and the password again. */
export const setPasswordSchema = requestForm(
  z
    .object({
      token: z.string({ error: "The link is missing its token." }).min(1, "The link is missing its token."),
      password: ResetBody.shape.password,
      confirm_password: z.string({ error: "Confirm the password." }).min(1, "Confirm the password."),
    })
    .refine((v) => v.password === v.confirm_password, { message: PASSWORDS_DIFFER, path: ["confirm_password"] }),
);

/** The pages' HTML constraints, by form id (useAuthForm reads its own). */
export const authConstraints = formConstraints({
  login: loginSchema(false),
  "login-mfa": loginCodeSchema,
  register: registerSchema,
  "forgot-password": forgotPasswordSchema,
  "set-password": setPasswordSchema,
});
