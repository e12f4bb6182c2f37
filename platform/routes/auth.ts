import { z } from "@hono/zod-openapi";
import { AccountChoices, ForgotBody, IamSetPasswordBody, RegisterBody, ResetBody, Token, TokenBody } from "../contract/auth.shapes.ts";
import type { PlatformApp } from "../app.ts";
import {
  forgotPassword,
  login,
  messages,
  register,
  resetPassword,
  revokeToken,
  setIamUserPassword,
} from "../domain/auth.ts";
import { clientAddress } from "../lib/client.ts";
import { answerPublic, caller } from "../lib/context.ts";
import { ErrorSchema } from "../lib/errors.ts";
import { defineCall, defineChange, DetailSchema } from "../lib/openapi.ts";
import { EmptyBody } from "../lib/fields.ts";

// ---------------------------------------------------------------------------------------------
// Routes

const tags = ["Auth"];

export const tokenRoute = defineChange({
  path: "/token",
  tags,
  summary: "Log in",
  description:
    "Three outcomes: a bearer token; or, when MFA is on and no `otp` was sent, only a `detail` (a six-digit code was e-mailed, valid 10 minutes, 5 tries); or 300 with the accounts to choose from when the e-mail and password match several. Wrong passwords and codes are counted per client address, and per address and username (by default 5 per 15 minutes for one username, 50 for any): past either, 429 with `Retry-After` for that address only. Codes e-mailed are limited the same way.",
  public: true,
  body: TokenBody,
  response: z.union([Token, DetailSchema]),
  responseDescription: "Signed in, or a passcode was e-mailed",
  errors: [401, 429],
  responses: {
    300: {
      description: "Several accounts match: choose one and send its `account_id`",
      content: { "application/json": { schema: AccountChoices } },
    },
  },
});

// Any signed-in caller may log out (readonly IAM users too).
export const logoutRoute = defineCall({ method: "post", path: "/logout", tags, summary: "Log out: revokes the bearer token", body: EmptyBody, response: DetailSchema });
export const registerRoute = defineChange({
  path: "/register",
  tags,
  summary: "Register a new account",
  description: "Attempts are counted per client address, and per address and e-mail: past either, 429 with `Retry-After`.",
  public: true,
  body: RegisterBody,
  errors: [409, 429],
});

export const forgotRoute = defineChange({
  path: "/forgot-password",
  tags,
  summary: "E-mail a password-reset link",
  description:
    "Answers the same whether or not the e-mail is known. With several matching accounts and no `account_id`, 300 whose `detail` is a JSON **string** of `[{account_id, account_domain}]`. The link goes to `/reset-password-template?access_token=…`, works once and expires in 1 hour. Requests are counted per client address, and per address and e-mail (known or not): past either, 429 with `Retry-After`.",
  public: true,
  body: ForgotBody,
  errors: [429],
  responses: {
    300: {
      description: "Several accounts match: `detail` is a JSON string of `[{account_id, account_domain}]`",
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
});

export const resetRoute = defineChange({ path: "/reset-password", tags, summary: "Set a new password from a reset link", public: true, body: ResetBody });
export const iamSetPasswordRoute = defineChange({ path: "/iam-user-set-password", tags, summary: "Set a new IAM user's first password from the setup link", public: true, body: IamSetPasswordBody });

export function registerAuthCalls(app: PlatformApp) {
  app.openapi(tokenRoute, async (c) => {
    const outcome = await login(c.get("deps"), c.req.valid("json"), clientAddress(c));
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

  app.openapi(registerRoute, answerPublic(registerRoute, register, messages.registered));
  app.openapi(forgotRoute, answerPublic(forgotRoute, forgotPassword, messages.resetSent));
  app.openapi(resetRoute, answerPublic(resetRoute, resetPassword, messages.passwordUpdated));
  app.openapi(iamSetPasswordRoute, answerPublic(iamSetPasswordRoute, setIamUserPassword, messages.passwordSet));
}
