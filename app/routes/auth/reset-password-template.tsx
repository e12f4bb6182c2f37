import { SetPasswordPage } from "../../components/auth-layout.tsx";
import { setPasswordAction } from "../../lib/auth.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/reset-password-template";

/* /reset-password-template?access_token=… (spec 3 §2.8): the link of the password-recovery e-mail. */

const INVALID = "Invalid password reset link.";

// The token is in the URL: no cache keeps the page (entry.server's Referrer-Policy: same-origin
// already keeps it from other sites).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("access_token")?.trim() || null };
}

export async function action({ request }: Route.ActionArgs) {
  return setPasswordAction(request, {
    call: "reset-password",
    tokenField: "access_token",
    invalidText: INVALID,
    successToast: "Password updated. You can now log in.",
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  return <SetPasswordPage heading="Reset password" token={loaderData.token} invalidText={INVALID} button="Reset password" lastResult={actionData?.result} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
