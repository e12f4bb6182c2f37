import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  forgotPassword,
  login,
  messages,
  register,
  resetPassword,
  revokeToken,
  setIamUserPassword,
  ThrottledError,
} from "../domain/auth.ts";
import { caller } from "../lib/context.ts";
import { ErrorSchema } from "../lib/errors.ts";
import { bearer, DetailSchema, errors, jsonBody, ok } from "../lib/openapi.ts";

// ---------------------------------------------------------------------------------------------
// Field rules shared by the auth, account and IAM calls. Unknown body fields are ignored (as
// FastAPI does); wrong types, missing fields, oversized or control-character input answer 422.

type RawIssue = z.core.$ZodRawIssue;

/** FastAPI-like messages for a missing field or a wrong type; other issues keep their own. */
export const expects =
  (what: string) =>
  (iss: RawIssue): string | undefined =>
    iss.code === "invalid_type" ? (iss.input === undefined ? "Field required" : `Input should be ${what}`) : undefined;

const singleLineJunk = /[\u0000-\u001F\u007F]/;
const multiLineJunk = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a text has no control characters (newlines and tabs allowed when multiline) and no lone surrogates. */
export const cleanText = (multiline = false) => (value: string) =>
  !(multiline ? multiLineJunk : singleLineJunk).test(value) && !loneSurrogate.test(value);

export const junkMessage = "Contains characters that are not allowed";

/** A trimmed text of at most `max` characters (and at least `min`, 0 by default). */
export function text(max: number, opts: { min?: number; multiline?: boolean; minMessage?: string } = {}) {
  const min = opts.min ?? 0;
  let s = z.string({ error: expects("a valid string") }).trim();
  if (min > 0) s = s.min(min, opts.minMessage ?? (min === 1 ? "Field must not be empty" : `String should have at least ${min} characters`));
  return s.max(max, `String should have at most ${max} characters`).refine(cleanText(opts.multiline), junkMessage);
}

const emailPattern = z.regexes.email;

/** An e-mail address, trimmed and lower-cased, at most 254 characters. */
export function email(message = "Enter a valid email address.") {
  return z
    .string({ error: expects("a valid string") })
    .trim()
    .toLowerCase()
    .min(1, message)
    .max(254, "String should have at most 254 characters")
    .regex(emailPattern, message)
    .openapi({ format: "email", example: "ops@example.com" });
}

/** A new password: 8 to 128 characters, no control characters. */
export function password() {
  return z
    .string({ error: expects("a valid string") })
    .min(8, "Password must be at least 8 characters.")
    .max(128, "Password must be at most 128 characters.")
    .refine(cleanText(false), "Password contains characters that are not allowed.")
    .openapi({ format: "password" });
}

/** A phone number: digits with the usual punctuation, at most 50 characters. */
export function phone() {
  return text(50, { min: 1 })
    .regex(/^[0-9A-Za-z+()\-./#*,; ]+$/, "Enter a valid phone number.")
    .regex(/[0-9]/, "Enter a valid phone number.");
}

/** An id of an object (`iam-…`); unknown or foreign ids answer 404, not 422. */
export function objectId() {
  return text(100, { min: 1 });
}

/** A JSON object body (FastAPI's message when it is not one). */
export function body<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, {
    error: (iss) =>
      iss.code === "invalid_type"
        ? iss.input === undefined
          ? "Field required"
          : "Input should be a valid dictionary or object to extract fields from"
        : undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// Schemas

const TokenBody = body({
  username: text(254, { min: 1 }).openapi({ description: "The e-mail address of an account owner or IAM user" }),
  password: z
    .string({ error: expects("a valid string") })
    .min(1, "Field must not be empty")
    .max(128, "String should have at most 128 characters")
    .openapi({ format: "password" }),
  account_id: text(100).nullish().openapi({ description: "The account chosen after a 300 answer" }),
  otp: text(32).nullish().openapi({ description: "The six-digit code e-mailed when MFA is on" }),
  subscriber: text(200).nullish(),
}).openapi("TokenRequest");

const TokenSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    session_type: z.enum(["account", "iam_user"]),
    username: z.string(),
    account_id: z.string(),
  })
  .openapi("Token");

export const AccountChoiceSchema = z.object({ account_id: z.string(), account_domain: z.string() }).openapi("AccountChoice");

const RegisterBody = body({
  username: email(),
  password: password(),
  terms: z.literal(true, {
    error: (iss) => (iss.input === undefined ? "Field required" : "You must accept the terms of use and privacy policy."),
  }),
  subscriber: text(200).nullish(),
}).openapi("RegisterRequest");

const ForgotBody = body({
  username: text(254, { min: 1 }),
  account_id: text(100).nullish(),
}).openapi("ForgotPasswordRequest");

const linkToken = () => text(200, { min: 1 });

const ResetBody = body({ access_token: linkToken(), password: password() }).openapi("ResetPasswordRequest");
const IamSetPasswordBody = body({ iam_user_token: linkToken(), password: password() }).openapi("IamUserSetPasswordRequest");
export const EmptyBody = body({}).openapi("EmptyRequest");

// ---------------------------------------------------------------------------------------------
// Routes

const tokenRoute = createRoute({
  method: "post",
  path: "/token",
  tags: ["Auth"],
  summary: "Log in",
  description:
    "Three outcomes: a bearer token; or, when MFA is on and no `otp` was sent, only a `detail` (a six-digit code was e-mailed, valid 10 minutes, 5 tries); or 300 with the accounts to choose from when the e-mail and password match several. After 5 failures for a username within 15 minutes, 429.",
  request: jsonBody(TokenBody),
  responses: {
    ...ok(z.union([TokenSchema, DetailSchema]), "Signed in, or a passcode was e-mailed"),
    300: {
      description: "Several accounts match: choose one and send its `account_id`",
      content: { "application/json": { schema: z.object({ detail: z.array(AccountChoiceSchema) }) } },
    },
    ...errors(400, 401, 422, 429),
  },
});

const logoutRoute = createRoute({
  method: "post",
  path: "/logout",
  tags: ["Auth"],
  summary: "Log out: revokes the bearer token",
  security: bearer,
  request: jsonBody(EmptyBody),
  responses: { ...ok(DetailSchema), ...errors(400, 401, 422) },
});

const registerRoute = createRoute({
  method: "post",
  path: "/register",
  tags: ["Auth"],
  summary: "Register a new account",
  request: jsonBody(RegisterBody),
  responses: { ...ok(DetailSchema), ...errors(400, 409, 422) },
});

const forgotRoute = createRoute({
  method: "post",
  path: "/forgot-password",
  tags: ["Auth"],
  summary: "E-mail a password-reset link",
  description:
    "Answers the same whether or not the e-mail is known. With several matching accounts and no `account_id`, 300 whose `detail` is a JSON **string** of `[{account_id, account_domain}]`. The link goes to `/reset-password-template?access_token=…`, works once and expires in 1 hour.",
  request: jsonBody(ForgotBody),
  responses: {
    ...ok(DetailSchema),
    300: {
      description: "Several accounts match: `detail` is a JSON string of `[{account_id, account_domain}]`",
      content: { "application/json": { schema: ErrorSchema } },
    },
    ...errors(400, 422),
  },
});

const resetRoute = createRoute({
  method: "post",
  path: "/reset-password",
  tags: ["Auth"],
  summary: "Set a new password from a reset link",
  request: jsonBody(ResetBody),
  responses: { ...ok(DetailSchema), ...errors(400, 422) },
});

const iamSetPasswordRoute = createRoute({
  method: "post",
  path: "/iam-user-set-password",
  tags: ["Auth"],
  summary: "Set a new IAM user's first password from the setup link",
  request: jsonBody(IamSetPasswordBody),
  responses: { ...ok(DetailSchema), ...errors(400, 422) },
});

export function registerAuthCalls(app: PlatformApp) {
  app.openapi(tokenRoute, async (c) => {
    const input = c.req.valid("json");
    let outcome;
    try {
      outcome = await login(c.get("deps"), input);
    } catch (error) {
      if (error instanceof ThrottledError) c.header("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      throw error;
    }
    switch (outcome.kind) {
      case "choose_account":
        return c.json({ detail: outcome.accounts }, 300);
      case "passcode_sent":
        return c.json({ detail: messages.passcodeSent }, 200);
      case "token":
        return c.json(
          {
            access_token: outcome.accessToken,
            token_type: "bearer" as const,
            session_type: outcome.sessionType,
            username: outcome.username,
            account_id: outcome.accountId,
          },
          200,
        );
    }
  });

  app.openapi(logoutRoute, async (c) => {
    const who = caller(c);
    await revokeToken(c.get("deps"), who.tokenHash);
    return c.json({ detail: messages.loggedOut }, 200);
  });

  app.openapi(registerRoute, async (c) => {
    await register(c.get("deps"), c.req.valid("json"));
    return c.json({ detail: messages.registered }, 200);
  });

  app.openapi(forgotRoute, async (c) => {
    await forgotPassword(c.get("deps"), c.req.valid("json"));
    return c.json({ detail: messages.resetSent }, 200);
  });

  app.openapi(resetRoute, async (c) => {
    await resetPassword(c.get("deps"), c.req.valid("json"));
    return c.json({ detail: messages.passwordUpdated }, 200);
  });

  app.openapi(iamSetPasswordRoute, async (c) => {
    await setIamUserPassword(c.get("deps"), c.req.valid("json"));
    return c.json({ detail: messages.passwordSet }, 200);
  });
}
