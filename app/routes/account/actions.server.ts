import { parseWithZod } from "@conform-to/zod/v4";
import { apiPost, callApi, type ApiResult } from "../../lib/api.server.ts";
import { failureReply, intentAction, submitForm } from "../../lib/action.server.ts";
import { requestToken } from "../../lib/auth.server.ts";
import { destroySessionCookie, requireAccountOwner, requireSession, type SessionData } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { deleteSchema, mfaSchema, passwordSchema, profileSchemas, samlSchema, WRONG_CURRENT_PASSWORD } from "./schemas.server.ts";
import { observe } from "../../../server/observe.mjs";
import { accountMessages } from "../../../platform/contract/messages.ts";

/*
 * The actions of Settings (/account: password, mfa, saml, delete-account) and My Profile
 * (/profile: one form per field). A user's own password, MFA and profile are theirs to change
 * whatever their role; SAML is an account setting (writers); deleting the account is the owner's.
 */

/** Updates the signed-in user: an account sends {username, …}; an IAM user only {…} (spec 1 §5, §6). */
async function updateSelf(request: Request, changes: Record<string, string>) {
  const user = await requireSession(request);
  return user.session_type === "account"
    ? apiPost(request, "update-account", { username: user.username, ...changes })
    : apiPost(request, "update-iam-user", changes);
}

/**
 * Is `password` the signed-in user's password? Asks POST /api/v1/token for this user and account.
 * A token that the check obtains is revoked at once. With MFA on, the platform answers a right
 * password by e-mailing a login code (which expires unused): that answer also means "right".
 */
async function checkCurrentPassword(request: Request, user: SessionData, password: string) {
  const account = await getAccount(request);
  const outcome = await requestToken(request, { username: user.username, password, account_id: account.ok ? account.data.account_id : undefined });
  if (outcome.kind === "token") {
    try {
      await callApi(null, "POST", "logout", { token: outcome.token.access_token, body: {} });
    } catch (error) {
      observe().logger.warn({ err: error }, "password check: could not revoke the check's token");
    }
  }
  return outcome;
}

// The console checks the current password with the login call (wrong guesses count in its
// throttle) before it changes it; a wrong one is that field's error, anything else (429) the summary's.
const password = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: passwordSchema,
    call: async (v): Promise<ApiResult<unknown>> => {
      const check = await checkCurrentPassword(request, await requireSession(request), v.current_password);
      if (check.kind === "error" && check.result.status === 401) {
        return { ok: false, status: 400, data: null, detail: [{ loc: ["current_password"], msg: WRONG_CURRENT_PASSWORD }] };
      }
      if (check.kind === "error") return check.result;
      return updateSelf(request, { password: v.password });
    },
    fields: ["current_password", "password"],
    toast: "Account updated.",
    redirect: "/account",
  });

async function mfa(request: Request, formData: FormData) {
  const user = await requireSession(request);
  const account = await getAccount(request);
  if (!account.ok) return failureReply(request, account, { submission: parseWithZod(formData, { schema: mfaSchema(false) }) });
  const current = Boolean(user.session_type === "account" ? account.data.mfa_enabled : account.data.iam_user?.mfa_enabled);
  const prefix = user.session_type === "account" ? "account" : "iam-user";
  return submitForm(request, formData, {
    schema: mfaSchema(current),
    call: (v) => (v.mfa_enabled ? apiPost(request, `${prefix}-enable-mfa`, { type: "email" }) : apiPost(request, `${prefix}-disable-mfa`, {})),
    fields: ["mfa_enabled"],
    toast: (_, v) => (v.mfa_enabled ? "MFA enabled." : "MFA disabled."),
    redirect: "/account",
  });
}

const saml = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: samlSchema,
    call: "update-account-idp",
    body: (v) => ({ metalink: v.metalink }),
    fields: ["metalink"],
    toast: accountMessages.idpUpdated,
    redirect: "/account",
  });

async function deleteAccount(request: Request, formData: FormData) {
  const owner = await requireAccountOwner(request);
  // The account is gone: end the session and say so on the login page.
  return submitForm(request, formData, {
    schema: deleteSchema,
    call: () => apiPost(request, "remove-account", { username: owner.username }),
    fields: ["confirm"],
    toast: "Account removed.",
    redirect: "/login",
    headers: { "Set-Cookie": await destroySessionCookie(request) },
  });
}

export const accountAction = intentAction({ password, mfa, saml, "delete-account": deleteAccount }, { readable: ["password", "mfa"] });

type ProfileField = keyof typeof profileSchemas;

const profileField = (field: ProfileField) => (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: profileSchemas[field],
    // Browsers send a textarea's line breaks as CRLF: store plain newlines.
    call: (v) => updateSelf(request, { [field]: ((v as Record<string, string | undefined>)[field] ?? "").replace(/\r\n?/g, "\n") }),
    fields: [field],
    toast: "Account updated.",
    redirect: "/profile",
  });

export const profileAction = intentAction(
  { name: profileField("name"), email: profileField("email"), phone: profileField("phone"), address: profileField("address") },
  { readable: ["name", "email", "phone", "address"] },
);
