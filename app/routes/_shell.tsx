import { data, Outlet, useMatches, useRouteLoaderData } from "react-router";
import { ShellFrame } from "../components/shell/shell-frame.tsx";
import { getShellData, type ShellData } from "../lib/shell.server.ts";
import { getUser } from "../lib/session.server.ts";
import { ErrorPage } from "../components/error-boundary.tsx";
import type { Route } from "./+types/_shell";

/*
 * The layout of every protected route (spec 3 §2.2): the auth guard, the top bar, the side
 * navigation and the breadcrumbs. Its loader runs GET list-account once per request (shared with
 * the page below through lib/shell.server.ts) for the logo, the account id and the name.
 * A page whose route handle has `hideNav: true` is shown without the side navigation.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  // An unknown page (the catch-all's splat matched) while signed out: spec 1's 'Error 404' page,
  // not the sign-in form (issue 63 item 33). Known pages still send the visitor to /login.
  if (params["*"] !== undefined && !(await getUser(request))) throw data("Page Not Found", { status: 404 });
  const { shell } = await getShellData(request);
  return data(shell, { headers: { "Cache-Control": "private, no-store" } });
}

export function headers({ loaderHeaders, parentHeaders }: Route.HeadersArgs) {
  const out = new Headers(parentHeaders);
  const cache = loaderHeaders.get("Cache-Control");
  if (cache) out.set("Cache-Control", cache);
  return out;
}

function useProductName() {
  const root = useRouteLoaderData("root") as { productName?: string } | undefined;
  return root?.productName ?? "Linkwise";
}

function useHideNav() {
  return useMatches().some((m) => (m.handle as { hideNav?: boolean } | undefined)?.hideNav === true);
}

export default function Shell({ loaderData }: Route.ComponentProps) {
  const productName = useProductName();
  const hideNav = useHideNav();
  // A page's error renders as a section inside this <main> (ErrorPage sees the shell's data).
  return (
    <ShellFrame shell={loaderData} productName={productName} hideNav={hideNav}>
      <Outlet />
    </ShellFrame>
  );
}

/**
 * Errors of the pages below render inside the shell, so the navigation keeps working; the
 * platform-down case ('Service unavailable') retries by itself (the root ErrorPage's logic).
 * When the shell's own data is missing (its loader failed), the root ErrorPage is shown alone.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData("routes/_shell") as ShellData | undefined;
  const productName = useProductName();
  const hideNav = useHideNav();
  if (!shell) return <ErrorPage error={error} nested={false} />;
  return (
    <ShellFrame shell={shell} productName={productName} hideNav={hideNav} title="Error">
      <ErrorPage error={error} nested />
    </ShellFrame>
  );
}
