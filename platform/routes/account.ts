import { createRoute, z } from "@hono/zod-openapi";
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
import { caller, ownerOnly, requireOwner, requireWriter, writerOnly } from "../lib/context.ts";
import { bearer, DetailSchema, errors, jsonBody, ok } from "../lib/openapi.ts";
import { body, EmptyBody, email, expects, password, phone, text } from "../lib/fields.ts";

// The caller's own account: Settings (/account) and My Profile (/profile).

const IamUserSelfSchema = z
  .object({
    iam_user_id: z.string(),
    username: z.string(),
    role: z.string(),
    entity_name: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    mfa_enabled: z.boolean(),
    mfa_type: z.string().nullable(),
  })
  .openapi("IamUserSelf");

const AccountSchema = z
  .object({
    username: z.string(),
    account_id: z.string(),
    account_domain: z.string(),
    logo: z.string().nullable(),
    mfa_enabled: z.boolean(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    session_type: z.enum(["account", "iam_user"]),
    iam_user: IamUserSelfSchema.nullable(),
  })
  .openapi("Account");

const profileFields = ["password", "name", "email", "phone", "address"] as const;
const profileShape = {
  password: password().optional(),
  name: text(200, { min: 1 }).optional(),
  email: email().optional(),
  // Phone and address are optional in the spec: an empty (or blank) value clears them.
  phone: z.union([z.string().trim().length(0), phone()]).optional(),
  address: text(500, { multiline: true }).optional(),
};

/** Exactly one of password, name, email, phone, address. */
function exactlyOneField(value: Record<string, unknown>, ctx: z.RefinementCtx) {
  const sent = profileFields.filter((k) => value[k] !== undefined);
  if (sent.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message: `Send exactly one of: ${profileFields.join(", ")}.`,
      path: sent.length > 1 ? [sent[1]!] : [],
    });
  }
}

function toChange(value: Partial<Record<(typeof profileFields)[number], string>>): ProfileChange {
  if (value.password !== undefined) return { password: value.password };
  const field = (["name", "email", "phone", "address"] as ProfileField[]).find((k) => value[k] !== undefined)!;
  return { field, value: value[field]! };
}

const UpdateAccountBody = body({ username: text(254, { min: 1 }), ...profileShape })
  .superRefine(exactlyOneField)
  .openapi("UpdateAccountRequest", { description: "`username` (the caller's) and exactly one of password, name, email, phone, address" });

const UpdateIamUserBody = body(profileShape)
  .superRefine(exactlyOneField)
  .openapi("UpdateIamUserRequest", { description: "Exactly one of password, name, email, phone, address" });

const RemoveAccountBody = body({ username: text(254, { min: 1 }) }).openapi("RemoveAccountRequest");

const EnableMfaBody = body({
  type: z.enum(["email"], { error: (iss) => (iss.input === undefined ? "Field required" : "Input should be 'email'") }),
}).openapi("EnableMfaRequest");

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
};

const IdpBody = body({
  metalink: z
    .string({ error: expects("a valid string") })
    .trim()
    .max(2048, "String should have at most 2048 characters")
    .refine((v) => v === "" || isHttpUrl(v), "Enter an http(s) URL, or nothing to remove it."),
}).openapi("UpdateAccountIdpRequest");

const ListAccountQuery = z.object({
  username: z.string().max(254).optional().openapi({ description: "The caller's username (account or IAM user); any other answers 404" }),
});

const done = <S extends z.ZodType>(
  path: string,
  summary: string,
  schema: S,
  codes: readonly (400 | 401 | 403 | 404 | 409 | 422)[],
  description?: string,
  middleware: (typeof writerOnly)[] = [],
) =>
  createRoute({
    method: "post",
    path,
    tags: ["Account"],
    summary,
    description,
    security: bearer,
    middleware,
    request: jsonBody(schema),
    responses: { ...ok(DetailSchema), ...errors(...codes) },
  });

const listAccountRoute = createRoute({
  method: "get",
  path: "/list-account",
  tags: ["Account"],
  summary: "The caller's account (and, for an IAM session, its IAM user)",
  security: bearer,
  request: { query: ListAccountQuery },
  responses: { ...ok(AccountSchema), ...errors(401, 404, 422) },
});

const updateAccountRoute = done("/update-account", "Update the owner's password or one profile field", UpdateAccountBody, [400, 401, 403, 404, 422], "Account sessions only. A new password ends the owner's other sessions.", [ownerOnly]);
const updateIamUserRoute = done("/update-iam-user", "Update the calling IAM user's password or one profile field", UpdateIamUserBody, [400, 401, 403, 422], "IAM sessions only (any role: it is the user's own profile).");
const removeAccountRoute = done("/remove-account", "Delete the account and everything in it", RemoveAccountBody, [400, 401, 403, 404, 409, 422], "Account sessions only; `username` must be the caller's. Revokes every token.", [ownerOnly]);
const accountEnableMfaRoute = done("/account-enable-mfa", "Turn on e-mail login codes for the account owner", EnableMfaBody, [400, 401, 403, 422], "Account sessions only.", [ownerOnly]);
const accountDisableMfaRoute = done("/account-disable-mfa", "Turn off login codes for the account owner", EmptyBody, [400, 401, 403, 422], "Account sessions only.", [ownerOnly]);
const iamEnableMfaRoute = done("/iam-user-enable-mfa", "Turn on e-mail login codes for the calling IAM user", EnableMfaBody, [400, 401, 403, 422]);
const iamDisableMfaRoute = done("/iam-user-disable-mfa", "Turn off login codes for the calling IAM user", EmptyBody, [400, 401, 403, 422]);
const updateIdpRoute = done("/update-account-idp", "Set (or clear) the SAML metadata URL", IdpBody, [400, 401, 403, 422], "Owner and admin IAM users.", [writerOnly]);

const getIdpRoute = createRoute({
  method: "get",
  path: "/get-account-idp",
  tags: ["Account"],
  summary: "The SAML metadata URL",
  security: bearer,
  responses: { ...ok(z.object({ metalink: z.string() }).openapi("AccountIdp")), ...errors(401) },
});

export function registerAccountCalls(app: PlatformApp) {
  app.openapi(listAccountRoute, async (c) => {
    const who = caller(c);
    const { username } = c.req.valid("query");
    return cachedJson(c, () => getAccountView(c.get("deps"), who, username)) as never;
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
