import { parseWithZod } from "@conform-to/zod/v4";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { data } from "react-router";
import { setPasswordSchema } from "../routes/auth/schemas.server.ts";
import { requestFormParser } from "./form-fields.server.ts";
import { callApi, type ApiResult, type Detail } from "./api.server.ts";
import { readForm } from "./csrf.server.ts";
import { sessionSecrets } from "./env.server.ts";
import { safeReply } from "./api.server.ts";
import { formFailure } from "./action.server.ts";
import { getSession, safeRedirect, sessionStorage, type PendingLogin, type SessionType } from "./session.server.ts";
import { redirectWithToast } from "./toast.server.ts";

/*
 * Login helpers for the public routes (spec 3 §2.4–2.9, §4; spec 1 §4 Login).
 *
 * POST /api/v1/token has three outcomes besides an error: a token (signed in), no token but a
 * detail (a one-time code was e-mailed: /login-mfa), or status 300 with the accounts that share
 * the e-mail (the user picks one and submits again).
 */

export const LOGIN_TOAST = "You successfully logged in";

export interface TokenData {
  access_token: string;
  token_type?: string;
  session_type?: SessionType;
  username?: string;
  account_id?: string;
}

export interface AccountChoice {
  value: string;
  label: string;
}

export interface LoginBody {
  username: string;
  password: string;
  account_id?: string;
  subscriber?: string;
  otp?: string;
}

export type LoginOutcome =
  | { kind: "token"; token: TokenData }
  | { kind: "code"; detail: string }
  | { kind: "choose"; accounts: AccountChoice[] }
  | { kind: "error"; result: Extract<ApiResult<unknown>, { ok: false }> };

/**
 * Calls POST /api/v1/token (public: no bearer, and a refusal must not touch the session) for the
 * browser of `request` (its address goes along for the abuse limits).
 */
export async function requestToken(request: Request, body: LoginBody): Promise<LoginOutcome> {
  const payload = {
    username: body.username,
    password: body.password,
    ...(body.account_id ? { account_id: body.account_id } : {}),
    ...(body.subscriber ? { subscriber: body.subscriber } : {}),
    ...(body.otp ? { otp: body.otp } : {}),
  };
  const result = await callApi(null, "POST", "token", { body: payload, from: request });
  if (result.ok) {
    // The token, or (a login code is needed) the sentence saying it was sent.
    const answer = result.data;
    if ("access_token" in answer && answer.access_token) return { kind: "token", token: answer };
    return { kind: "code", detail: "detail" in answer && answer.detail ? answer.detail : "We've emailed your passcode" };
  }
  if (result.status === 300) {
    const accounts = accountChoices(result.detail);
    if (accounts.length > 0) return { kind: "choose", accounts };
  }
  return { kind: "error", result };
}

/**
 * The accounts of a 300 answer: a list of {account_id, account_domain}, or that list as a JSON
 * string (forgot-password sends it so, as the spec allows).
 */
export function accountChoices(detail: Detail): AccountChoice[] {
  let list: unknown = detail;
  if (typeof list === "string") {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list
    .filter((a): a is { account_id: unknown; account_domain?: unknown } => Boolean(a) && typeof a === "object" && "account_id" in a)
    .map((a) => ({ value: String(a.account_id), label: String(a.account_domain ?? a.account_id) }));
}

/**
 * Stores the session (username, access_token, session_type), forgets any pending login, and
 * goes to the page the user came from or /main-dashboard with 'You successfully logged in'.
 */
export async function finishLogin(request: Request, token: TokenData, fallbackUsername: string, redirectTo?: string | null) {
  const session = await getSession(request);
  session.set("username", token.username || fallbackUsername);
  session.set("access_token", token.access_token);
  session.set("session_type", token.session_type === "iam_user" ? "iam_user" : "account");
  session.unset("pending");
  session.unset("choice");
  return redirectWithToast(
    request,
    safeRedirect(redirectTo),
    { type: "success", message: LOGIN_TOAST },
    { headers: { "Set-Cookie": await sessionStorage.commitSession(session) } },
  );
}

/*
 * The pending login of the one-time-code step.
 *
 * The platform's contract (docs/decisions/2026-11-22-auth-and-account-calls.md) wants the
 * username AND password again together with the otp, so the console has to keep the password
 * between the two requests. It keeps it in the session cookie, which is httpOnly (no script can
 * read it) and signed — but signing does not hide the value, so the password is sealed with
 * AES-256-GCM under a key derived from SESSION_SECRET, bound to the username, and with an
 * expiry inside the sealed text: after 10 minutes (the life of the e-mailed code) it cannot be
 * opened any more, and it is removed as soon as the code is accepted or the user starts over.
 * Nothing else of it ever reaches the browser or a log.
 */
export const PENDING_LOGIN_TTL_MS = 10 * 60 * 1000;

const pendingKey = createHash("sha256").update(`linkwise:pending-login:${sessionSecrets[0]}`).digest();

function seal(password: string, username: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", pendingKey, iv);
  cipher.setAAD(Buffer.from(username, "utf8"));
  const plain = Buffer.from(JSON.stringify({ p: password, exp: Date.now() + PENDING_LOGIN_TTL_MS }), "utf8");
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

function unseal(value: string, username: string): string | null {
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", pendingKey, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(username, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    const { p, exp } = JSON.parse(plain) as { p: string; exp: number };
    if (typeof p !== "string" || typeof exp !== "number" || Date.now() > exp) return null;
    return p;
  } catch {
    return null;
  }
}

/** Starts the one-time-code step; returns the Set-Cookie value. */
export async function commitPendingLogin(request: Request, login: Omit<PendingLogin, "password"> & { password: string }): Promise<string> {
  const session = await getSession(request);
  session.set("pending", { ...login, password: seal(login.password, login.username) });
  return sessionStorage.commitSession(session);
}

/**
 * The account choice of /login (300): the password is kept sealed in the session, like the
 * pending login, instead of being sent back into the page's password field.
 */
export async function commitAccountChoice(request: Request, username: string, password: string): Promise<string> {
  const session = await getSession(request);
  session.set("choice", { username, password: seal(password, username) });
  return sessionStorage.commitSession(session);
}

/** The password of the account choice for this username, or null (none, other user, expired). */
export async function readAccountChoice(request: Request, username: string): Promise<string | null> {
  const session = await getSession(request);
  const choice = session.get("choice");
  if (!choice || choice.username !== username || typeof choice.password !== "string") return null;
  return unseal(choice.password, username);
}

/** The pending login with its password opened, or null (none, tampered with, or older than 10 minutes). */
export async function readPendingLogin(request: Request): Promise<PendingLogin | null> {
  const session = await getSession(request);
  const pending = session.get("pending");
  if (!pending || typeof pending.username !== "string" || typeof pending.password !== "string") return null;
  const password = unseal(pending.password, pending.username);
  if (password === null) return null;
  return { ...pending, password };
}

/** Forgets the pending login; returns the Set-Cookie value, or null when there was none. */
export async function clearPendingLogin(request: Request): Promise<string | null> {
  const session = await getSession(request);
  if (!session.has("pending")) return null;
  session.unset("pending");
  return sessionStorage.commitSession(session);
}

/** The remembered subscriber: the query's, else the session's. */
export async function rememberedSubscriber(request: Request): Promise<string | undefined> {
  const fromQuery = new URL(request.url).searchParams.get("subscriber")?.trim();
  if (fromQuery) return fromQuery;
  const session = await getSession(request);
  return session.get("subscriber") || undefined;
}

/**
 * The action of /reset-password-template and /new-iam-user-setup-template: checks the form
 * (both passwords filled in and equal), sends {<tokenField>, password} to the platform, and on
 * success goes to /login with the toast. A refused link (400) shows `invalidText` as form error.
 * The passwords are never sent back to the page.
 */
export async function setPasswordAction(
  request: Request,
  opts: { call: "reset-password"; tokenField: "access_token"; invalidText: string; successToast: string } | { call: "iam-user-set-password"; tokenField: "iam_user_token"; invalidText: string; successToast: string },
) {
  const formData = await readForm(request);
  // A request form: an empty input is "" (the request's password says why it is refused).
  const submission = parseWithZod(formData, { schema: requestFormParser(setPasswordSchema) ?? setPasswordSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    const formErrors = formData.get("token") ? [] : [opts.invalidText];
    return data({ result: safeReply(submission, { formErrors }) }, { status: 400 });
  }
  const { token, password } = submission.value;
  const result =
    opts.call === "reset-password"
      ? await callApi(null, "POST", opts.call, { body: { access_token: token, password }, from: request })
      : await callApi(null, "POST", opts.call, { body: { iam_user_token: token, password }, from: request });
  if (result.ok) return redirectWithToast(request, "/login", { type: "success", message: opts.successToast });
  if (result.status === 400 || result.status === 404) {
    return data({ result: safeReply(submission, { formErrors: [opts.invalidText] }) }, { status: 400 });
  }
  return formFailure(submission, result, { fields: ["password"] });
}
