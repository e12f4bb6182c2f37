import type { AccountChoice, Token } from "../contract/auth.ts";
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
import { body, email, EmptyBody, expects, password, text } from "../lib/fields.ts";

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
  .openapi("Token") satisfies z.ZodType<Token>;

export const AccountChoiceSchema = z
  .object({ account_id: z.string(), account_domain: z.string() })
  .openapi("AccountChoice") satisfies z.ZodType<AccountChoice>;

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
