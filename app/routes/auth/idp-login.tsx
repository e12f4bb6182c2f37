import { randomBytes, timingSafeEqual } from "node:crypto";
import { data, redirect } from "react-router";
import { AuthLayout, BackToLogin } from "../../components/auth-layout.tsx";
import { callApi } from "../../lib/api.server.ts";
import { finishLogin } from "../../lib/auth.server.ts";
import { idpLoginUrl, secureCookies, sessionSecrets } from "../../lib/env.server.ts";
import { createSignedCookie } from "../../lib/signed-cookie.server.ts";
import type { SessionType } from "../../lib/session.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/idp-login";

/*
 * /idp-login?access_token&token_type&session_type&username&state (spec 3 §2.6): the external
 * identity provider sends the browser here with a token of the platform.
 *
 * Bound to the browser that started the hand-off (issue 27 item 9: without it, an attacker's link
 * carrying the attacker's own token signed a victim into the attacker's account, a login CSRF).
 * The hand-off starts here: /idp-login?start sets a random `state` in a signed, httpOnly cookie
 * (SameSite=Lax, so it comes back with the IdP's top-level redirect; 10 minutes) and sends the
 * browser to IDP_LOGIN_URL with that state and redirect_uri. The IdP sends it back with the state
 * beside the spec's four parameters; a state that is missing or is not this browser's cookie's is
 * 'Authentication failed', and the cookie is used up by any answer (single use).
 *
 * The check happens in the LOADER: the server verifies the token with GET list-account, stores the
 * session and redirects to /main-dashboard in the same response. That works with JavaScript off,
 * takes the token out of the address bar at once, and needs no form of its own. A failure renders
 * 'Authentication failed' with a link back to login (status 401).
 */

const STATE_TTL_S = 10 * 60;
const stateCookie = createSignedCookie("__idp_state", {
  httpOnly: true,
  sameSite: "lax",
  path: "/idp-login",
  maxAge: STATE_TTL_S,
  secure: secureCookies,
  secrets: sessionSecrets,
});

/** The state this browser was given, or null (none, expired, or not signed by us). */
async function browserState(request: Request): Promise<string | null> {
  const value = (await stateCookie.parse(request.headers.get("cookie"))) as { state?: unknown; at?: unknown } | null;
  if (!value || typeof value.state !== "string" || typeof value.at !== "number") return null;
  return Date.now() - value.at <= STATE_TTL_S * 1000 ? value.state : null;
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// The token is in the URL: no cache keeps the page (entry.server's Referrer-Policy: same-origin
// already keeps it from other sites).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = url.searchParams;
  const usedUp = await stateCookie.serialize("", { maxAge: 0 });
  const failed = data({ state: "failed" as const }, { status: 401, headers: { "Cache-Control": "no-store", "Set-Cookie": usedUp } });

  if (params.has("start")) {
    if (!idpLoginUrl) return failed;
    const state = randomBytes(24).toString("base64url");
    const to = new URL(idpLoginUrl);
    to.searchParams.set("state", state);
    to.searchParams.set("redirect_uri", new URL("/idp-login", url).toString());
    return redirect(to.toString(), { headers: { "Cache-Control": "no-store", "Set-Cookie": await stateCookie.serialize({ state, at: Date.now() }) } });
  }

  const [accessToken, tokenType, sessionType, username, state] = ["access_token", "token_type", "session_type", "username", "state"].map(
    (name) => params.get(name)?.trim() ?? "",
  );
  if (!accessToken || !tokenType || !sessionType || !username) return failed;
  const expected = await browserState(request);
  if (!state || !expected || !sameState(state, expected)) return failed;

  const result = await callApi(null, "GET", "list-account", { token: accessToken });
  if (!result.ok) return failed;
  // The platform's answer names who the token belongs to; the link's parameters are the fallback.
  const type: SessionType = (result.data?.session_type ?? sessionType) === "iam_user" ? "iam_user" : "account";
  const who = (type === "iam_user" ? result.data?.iam_user?.username : result.data?.username) || username;
  const signedIn = await finishLogin(request, { access_token: accessToken, token_type: tokenType, session_type: type, username: who }, username, null);
  signedIn.headers.append("Set-Cookie", usedUp);
  throw signedIn;
}

export default function IdpLogin() {
  return (
    <AuthLayout heading="Authentication failed" title="Authentication failed" error>
      <p role="alert">We could not authenticate your account, please close the page and try again.</p>
      <BackToLogin />
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
