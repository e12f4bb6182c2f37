import { data, redirect } from "react-router";
import { readForm } from "../lib/csrf.server.ts";
import { navCookie, safeReturnPath, themeCookie, type ThemeChoice } from "../lib/preferences.server.ts";
import type { Route } from "./+types/preferences";

/*
 * POST /preferences: the theme switch and the navigation's collapse button post here (CSRF-checked
 * like every form). It sets the cookie the server renders with and goes back (303) to
 * `redirectTo`; with JavaScript (`js=1`, sent by a fetcher) it answers 204-like data instead, and
 * the page updates itself.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const headers = new Headers();
  const theme = form.get("theme");
  if (theme !== null) {
    if (theme !== "light" && theme !== "dark" && theme !== "system") throw data({ message: "Unknown theme." }, { status: 400 });
    headers.append("Set-Cookie", themeCookie(theme as ThemeChoice));
  }
  const nav = form.get("nav");
  if (nav !== null) {
    if (nav !== "collapsed" && nav !== "expanded" && nav !== "auto") throw data({ message: "Unknown navigation state." }, { status: 400 });
    headers.append("Set-Cookie", navCookie(nav));
  }
  if (theme === null && nav === null) throw data({ message: "Nothing to change." }, { status: 400 });
  if (form.get("js") === "1") return data({ ok: true }, { headers });
  return redirect(safeReturnPath(form.get("redirectTo")), { status: 303, headers });
}

export async function loader() {
  return redirect("/main-dashboard");
}
