import { SetPasswordPage } from "../../components/auth-layout.tsx";
import { setPasswordAction } from "../../lib/auth.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/set-password";
import { authConstraints } from "./schemas.server.ts";

/*
 * The two set-a-password links (spec 3 §2.8), one module mapped to both paths (app/routes.ts):
 * /reset-password-template?access_token=… (the password-recovery e-mail) and
 * /new-iam-user-setup-template?iam_user_token=… (the first password of a new IAM user).
 */

const links = {
  "/reset-password-template": {
    tokenField: "access_token" as const,
    call: "reset-password" as const,
    invalidText: "Invalid password reset link.",
    successToast: "Password updated. You can now log in.",
    heading: "Reset password",
    button: "Reset password",
  },
  "/new-iam-user-setup-template": {
    tokenField: "iam_user_token" as const,
    call: "iam-user-set-password" as const,
    invalidText: "Invalid password link.",
    successToast: "Password set. You can now log in.",
    heading: "Set your password",
    button: "Set password",
  },
} as const;

function linkOf(request: Request) {
  const path = new URL(request.url).pathname.replace(/\/+$/, "") as keyof typeof links;
  const link = links[path];
  if (!link) throw new Response("Not Found", { status: 404 });
  return link;
}

// The token is in the URL: no cache keeps the page (entry.server's Referrer-Policy: same-origin
// already keeps it from other sites).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const { tokenField, invalidText, heading, button } = linkOf(request);
  return { token: new URL(request.url).searchParams.get(tokenField)?.trim() || null, invalidText, heading, button, constraints: { "set-password": authConstraints["set-password"] } };
}

export async function action({ request }: Route.ActionArgs) {
  return setPasswordAction(request, linkOf(request));
}

export default function SetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { token, invalidText, heading, button } = loaderData;
  return <SetPasswordPage heading={heading} token={token} invalidText={invalidText} button={button} lastResult={actionData?.result} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
