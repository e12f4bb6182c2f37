import { Form, redirect } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { AuthLayout, AuthLink } from "../../components/auth-layout.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { callApi } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { destroySessionCookie, getSession, getUser } from "../../lib/session.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/logout";
import { useIsPending } from "../../components/hooks.ts";
import { observe } from "../../../server/observe.mjs";

/*
 * /logout (spec 3 §2.1; spec 1 §4 Login). The shell's profile menu posts here
 * (`<form method="post" action="/logout">` with the CSRF input). A GET only shows a Logout
 * button: signing out by link would let any other site sign the user out.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request);
  if (!user) throw redirect("/login");
  return { username: user.username };
}

export async function action({ request }: Route.ActionArgs) {
  await readForm(request);
  const session = await getSession(request);
  const token = session.get("access_token");
  if (token) {
    // Revoke the token upstream. Signing out must work even if the platform refuses or is down.
    try {
      await callApi(null, "POST", "logout", { token, body: {} });
    } catch (error) {
      observe().logger.warn({ err: error }, "logout: could not revoke the token");
    }
  }
  return redirectWithToast(
    request,
    "/login",
    { type: "success", message: "Logout successful!" },
    { headers: { "Set-Cookie": await destroySessionCookie(request) } },
  );
}

export default function Logout({ loaderData }: Route.ComponentProps) {
  const pending = useIsPending();
  return (
    <AuthLayout heading="Logout" title="Logout">
      <p>
        You are signed in as <strong className="break-all">{loaderData.username}</strong>.
      </p>
      <Form method="post" action="/logout" className="flex flex-col gap-2">
        <AuthenticityTokenInput name="csrf" />
        <SubmitButton pending={pending} className="btn btn-primary w-full">
          Logout
        </SubmitButton>
      </Form>
      <AuthLink to="/main-dashboard" reloadDocument>
        Back to Dashboard
      </AuthLink>
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
