import { createCookieSessionStorage, redirect } from "react-router";
import { secureCookies, sessionSecrets } from "./env.server.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

export type SessionType = "account" | "iam_user";

export interface SessionData {
  username: string;
  access_token: string;
  session_type: SessionType;
}

/** A login waiting for its one-time code (/login-mfa): kept only until the code is entered. */
export interface PendingLogin {
  username: string;
  password: string;
  account_id?: string;
  subscriber?: string;
  redirectTo?: string;
}

/** After a 300 on /login: the password (sealed) so that choosing the account needs no retyping. */
export interface AccountChoiceLogin {
  username: string;
  password: string;
}

type StoredData = Partial<SessionData> & { pending?: PendingLogin; choice?: AccountChoiceLogin; subscriber?: string };

export const sessionStorage = createCookieSessionStorage<StoredData>({
  cookie: createSignedCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: sessionSecrets,
    secure: secureCookies,
    maxAge: 60 * 60 * 12,
  }),
});

export async function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

/*
 * The signed-in user of a request, read once: the shell, the page's loader and each platform call
 * all ask for it. Keyed by the Cookie header (the request objects React Router hands to loaders
 * are not always the same object); the value is immutable.
 */
const users = new WeakMap<Request, { cookie: string | null; user: Promise<SessionData | null> }>();
let lastUser: { cookie: string; user: Promise<SessionData | null> } | null = null;

/** The signed-in user, or null. */
export function getUser(request: Request): Promise<SessionData | null> {
  const cookie = request.headers.get("Cookie");
  const known = users.get(request);
  if (known && known.cookie === cookie) return known.user;
  if (cookie && lastUser?.cookie === cookie) return lastUser.user;
  const user = readUser(request);
  users.set(request, { cookie, user });
  if (cookie) lastUser = { cookie, user };
  return user;
}

async function readUser(request: Request): Promise<SessionData | null> {
  const session = await getSession(request);
  const username = session.get("username");
  const token = session.get("access_token");
  if (!username || !token) return null;
  return { username, access_token: token, session_type: session.get("session_type") === "iam_user" ? "iam_user" : "account" };
}

/** Only same-site paths: never an open redirect (the one rule is in ./redirect.ts). */
export { safeRedirect } from "./redirect.ts";

export function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Throws a redirect to /login (remembering the page) when nobody is signed in. */
export async function requireSession(request: Request): Promise<SessionData> {
  const user = await getUser(request);
  if (!user) throw redirect(loginRedirect(request));
  return user;
}

/** Billing and account deletion: account owners only (404 for IAM users: the route does not exist for them). */
export async function requireAccountOwner(request: Request): Promise<SessionData> {
  const user = await requireSession(request);
  if (user.session_type !== "account") throw new Response("Not Found", { status: 404 });
  return user;
}

/** Ends the session; returns the Set-Cookie header value. */
export async function destroySessionCookie(request: Request): Promise<string> {
  const session = await getSession(request);
  return sessionStorage.destroySession(session);
}
