import { SetPasswordPage } from "../../components/auth-layout.tsx";
import { setPasswordAction } from "../../lib/auth.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/new-iam-user-setup-template";

/* /new-iam-user-setup-template?iam_user_token=… (spec 3 §2.8): the first password of a new IAM user. */

const INVALID = "Invalid password link.";

// The token is in the URL: no cache keeps the page (entry.server's Referrer-Policy: same-origin
// already keeps it from other sites).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("iam_user_token")?.trim() || null };
}

export async function action({ request }: Route.ActionArgs) {
  return setPasswordAction(request, {
    call: "iam-user-set-password",
    tokenField: "iam_user_token",
    invalidText: INVALID,
    successToast: "Password set. You can now log in.",
  });
}

export default function NewIamUserSetup({ loaderData, actionData }: Route.ComponentProps) {
  return <SetPasswordPage heading="Set your password" token={loaderData.token} invalidText={INVALID} button="Set password" lastResult={actionData?.result} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
