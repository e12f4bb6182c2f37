import { z } from "@hono/zod-openapi";
import { Account, AccountIdp, EnableMfaBody, IdpBody, type profileFields, RemoveAccountBody, UpdateAccountBody, UpdateIamUserBody } from "../contract/account.shapes.ts";
import type { PlatformApp } from "../app.ts";
import {
  accountMessages,
  getAccountIdp,
  getAccountView,
  type ProfileChange,
  type ProfileField,
  removeAccount,
  requireIamSession,
  setAccountIdp,
  setAccountMfa,
  setIamUserMfa,
  updateAccount,
  updateIamUser,
} from "../domain/account.ts";
import { cachedJson } from "../lib/auth.ts";
import { caller, requireOwner, requireWriter } from "../lib/context.ts";
import { defineCall, DetailSchema } from "../lib/openapi.ts";
import { EmptyBody } from "../lib/fields.ts";

// The caller's own account: Settings (/account) and My Profile (/profile).

function toChange(value: Partial<Record<(typeof profileFields)[number], string>>): ProfileChange {
  if (value.password !== undefined) return { password: value.password };
  const field = (["name", "email", "phone", "address"] as ProfileField[]).find((k) => value[k] !== undefined)!;
  return { field, value: value[field]! };
}

const ListAccountQuery = z.object({
  username: z.string().max(254).optional().openapi({ description: "The caller's username (account or IAM user); any other answers 404" }),
});

const tags = ["Account"];

/** A change of the caller's own account that answers `{detail}`. */
const change = <const P extends `/${string}`, B extends z.ZodType>(
  path: P,
  summary: string,
  body: B,
  opts: { description?: string; only?: "writer" | "owner"; errors?: readonly (404 | 409)[] } = {},
) => defineCall({ method: "post", path, tags, summary, body, response: DetailSchema, ...opts });

export const listAccountRoute = defineCall({
  method: "get",
  path: "/list-account",
  tags,
  summary: "The caller's account (and, for an IAM session, its IAM user)",
  query: ListAccountQuery,
  response: Account,
  errors: [404],
});

export const updateAccountRoute = defineCall({
  method: "post",
  path: "/update-account",
  tags,
  summary: "Update the owner's password or one profile field",
  description: "Account sessions only. A new password ends the owner's other sessions.",
  only: "owner",
  body: UpdateAccountBody,
  response: DetailSchema,
  errors: [404],
});
export const updateIamUserRoute = defineCall({
  method: "post",
  path: "/update-iam-user",
  tags,
  summary: "Update the calling IAM user's password or one profile field",
  description: "IAM sessions only (any role: it is the user's own profile).",
  body: UpdateIamUserBody,
  response: DetailSchema,
  errors: [403],
});
export const removeAccountRoute = change("/remove-account", "Delete the account and everything in it", RemoveAccountBody, {
  description: "Account sessions only; `username` must be the caller's. Revokes every token.",
  only: "owner",
  errors: [404, 409],
});
export const accountEnableMfaRoute = change("/account-enable-mfa", "Turn on e-mail login codes for the account owner", EnableMfaBody, { description: "Account sessions only.", only: "owner" });
export const accountDisableMfaRoute = change("/account-disable-mfa", "Turn off login codes for the account owner", EmptyBody, { description: "Account sessions only.", only: "owner" });
export const iamEnableMfaRoute = defineCall({ method: "post", path: "/iam-user-enable-mfa", tags, summary: "Turn on e-mail login codes for the calling IAM user", body: EnableMfaBody, response: DetailSchema, errors: [403] });
export const iamDisableMfaRoute = defineCall({ method: "post", path: "/iam-user-disable-mfa", tags, summary: "Turn off login codes for the calling IAM user", body: EmptyBody, response: DetailSchema, errors: [403] });
// The account owner only, as billing (issue 27 item 10): once SAML sign-in reads this URL, whoever sets it could mint owner sessions.
export const updateIdpRoute = change("/update-account-idp", "Set (or clear) the SAML metadata URL", IdpBody, { description: "Account sessions only (the owner).", only: "owner" });

export const getIdpRoute = defineCall({ method: "get", path: "/get-account-idp", tags, summary: "The SAML metadata URL", response: AccountIdp });

export function registerAccountCalls(app: PlatformApp) {
  app.openapi(listAccountRoute, async (c) => {
    const who = caller(c);
    const { username } = c.req.valid("query");
    return cachedJson(c, () => getAccountView(c.get("deps"), who, username));
  });

  app.openapi(updateAccountRoute, async (c) => {
    const who = requireOwner(c);
    const input = c.req.valid("json");
    await updateAccount(c.get("deps"), who, input.username, toChange(input));
    return c.json({ detail: accountMessages.updated }, 200);
  });

  app.openapi(updateIamUserRoute, async (c) => {
    const who = caller(c);
    requireIamSession(who);
    const input = c.req.valid("json");
    await updateIamUser(c.get("deps"), who, toChange(input));
    return c.json({ detail: accountMessages.updated }, 200);
  });

  app.openapi(removeAccountRoute, async (c) => {
    const who = requireOwner(c);
    const input = c.req.valid("json");
    await removeAccount(c.get("deps"), who, input.username);
    return c.json({ detail: accountMessages.removed }, 200);
  });

  app.openapi(accountEnableMfaRoute, async (c) => {
    await setAccountMfa(c.get("deps"), requireOwner(c), true);
    return c.json({ detail: accountMessages.mfaEnabled }, 200);
  });

  app.openapi(accountDisableMfaRoute, async (c) => {
    await setAccountMfa(c.get("deps"), requireOwner(c), false);
    return c.json({ detail: accountMessages.mfaDisabled }, 200);
  });

  app.openapi(iamEnableMfaRoute, async (c) => {
    const input = c.req.valid("json");
    await setIamUserMfa(c.get("deps"), caller(c), true, input.type);
    return c.json({ detail: accountMessages.mfaEnabled }, 200);
  });

  app.openapi(iamDisableMfaRoute, async (c) => {
    await setIamUserMfa(c.get("deps"), caller(c), false);
    return c.json({ detail: accountMessages.mfaDisabled }, 200);
  });

  app.openapi(getIdpRoute, async (c) => {
    return c.json({ metalink: await getAccountIdp(c.get("deps"), caller(c)) }, 200);
  });

  app.openapi(updateIdpRoute, async (c) => {
    const who = requireWriter(c);
    const input = c.req.valid("json");
    await setAccountIdp(c.get("deps"), who, input.metalink);
    return c.json({ detail: accountMessages.idpUpdated }, 200);
  });
}
