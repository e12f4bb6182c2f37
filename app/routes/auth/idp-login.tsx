import { data } from "react-router";
import { AuthLayout, BackToLogin } from "../../components/auth-layout.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { callApi } from "../../lib/api.server.ts";
import { finishLogin } from "../../lib/auth.server.ts";
import type { SessionType } from "../../lib/session.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/idp-login";

/*
 * /idp-login?access_token&token_type&session_type&username (spec 3 §2.6): the external identity
 * provider sends the browser here with a token of the platform.
 *
 * The check happens in the LOADER, not in a form the page posts by itself: the server verifies
 * the token with GET list-account, stores the session and redirects to /main-dashboard in the
 * same response. That works with JavaScript off without an extra click, takes the token out of
 * the address bar at once, and needs no CSRF-protected POST (the token in the link is itself the
 * proof, exactly as it would be for a client-side check). The page therefore never has an
 * 'Authenticating...' state of its own to render: while that one request is in flight the
 * browser shows its loading indicator. A failure renders 'Authentication failed' with a link
 * back to login (status 401).
 */

interface ListAccount {
  username?: string;
  session_type?: string;
  iam_user?: { username?: string } | null;
}

// The token is in the URL: no cache keeps the page (entry.server's Referrer-Policy: same-origin
// already keeps it from other sites).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const [accessToken, tokenType, sessionType, username] = ["access_token", "token_type", "session_type", "username"].map(
    (name) => params.get(name)?.trim() ?? "",
  );
  const failed = data({ state: "failed" as const }, { status: 401, headers: { "Cache-Control": "no-store" } });
  if (!accessToken || !tokenType || !sessionType || !username) return failed;

  const result = await callApi<ListAccount>(null, "GET", "list-account", { token: accessToken });
  if (!result.ok) return failed;
  // The platform's answer names who the token belongs to; the link's parameters are the fallback.
  const type: SessionType = (result.data?.session_type ?? sessionType) === "iam_user" ? "iam_user" : "account";
  const who = (type === "iam_user" ? result.data?.iam_user?.username : result.data?.username) || username;
  throw await finishLogin(request, { access_token: accessToken, token_type: tokenType, session_type: type, username: who }, username, null);
}

export default function IdpLogin() {
  return (
    <AuthLayout heading="Authentication failed">
      <PageTitle title="Authentication failed" error />
      <p role="alert">We could not authenticate your account, please close the page and try again.</p>
      <BackToLogin />
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
