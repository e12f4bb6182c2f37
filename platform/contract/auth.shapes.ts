import { z } from "@hono/zod-openapi";
import { body, email, expects, limits, password, text } from "../lib/fields.ts";
import { authMessages } from "./messages.ts";

/** POST token's answer when signed in. */
export const Token = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    session_type: z.enum(["account", "iam_user"]),
    username: z.string(),
    account_id: z.string(),
  })
  .openapi("Token");
export type Token = z.infer<typeof Token>;

/** One account of a 300 answer (several accounts share the e-mail). */
export const AccountChoice = z.object({ account_id: z.string(), account_domain: z.string() }).openapi("AccountChoice");
export type AccountChoice = z.infer<typeof AccountChoice>;

/** POST token's 300: the accounts to choose from. */
export const AccountChoices = z.object({ detail: z.array(AccountChoice) }).openapi("AccountChoices");

// The calls' requests: the platform validates with them and the console's sign-in forms are these
// schemas (app/routes/auth/schemas.server.ts), so both say the same words within the same limits.

/** The sign-in requests' own limits, which the console's sign-in forms keep too. */
export const authLimits = { username: limits.email, password: 128, otp: 32 } as const;

export const TokenBody = body({
  username: text(authLimits.username, { min: 1 }).openapi({ description: "The e-mail address of an account owner or IAM user" }),
  password: z
    .string({ error: expects("a valid string") })
    .min(1, "Field must not be empty")
    .max(authLimits.password, `String should have at most ${authLimits.password} characters`)
    .openapi({ format: "password" }),
  account_id: text(100).nullish().openapi({ description: "The account chosen after a 300 answer" }),
  otp: text(authLimits.otp).nullish().openapi({ description: "The six-digit code e-mailed when MFA is on" }),
  subscriber: text(200).nullish(),
}).openapi("TokenRequest");

export const RegisterBody = body({
  username: email(),
  password: password(),
  terms: z.literal(true, {
    error: (iss) => (iss.input === undefined ? "Field required" : authMessages.acceptTerms),
  }),
  subscriber: text(200).nullish(),
}).openapi("RegisterRequest");

export const ForgotBody = body({
  username: text(authLimits.username, { min: 1 }),
  account_id: text(100).nullish(),
}).openapi("ForgotPasswordRequest");

const linkToken = () => text(200, { min: 1 });

export const ResetBody = body({ access_token: linkToken(), password: password() }).openapi("ResetPasswordRequest");
export const IamSetPasswordBody = body({ iam_user_token: linkToken(), password: password() }).openapi("IamUserSetPasswordRequest");
