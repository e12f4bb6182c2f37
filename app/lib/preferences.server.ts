import { readCookie } from "./cookie-header.ts";

/*
 * The display preferences the server renders with (no flash, no JavaScript needed): the colour
 * theme (cookie `theme`: "light" | "dark"; absent = follow the system's prefers-color-scheme) and
 * the side navigation's width (cookie `nav_collapsed`: "1" collapsed, "0" expanded, absent: by the
 * screen's width, NavPreference "auto").
 */
import type { ThemeChoice } from "../components/theme.ts";
import type { NavPreference } from "../components/shell/side-nav.tsx";
export type { NavPreference, ThemeChoice };
import { NAV_COOKIE, THEME_COOKIE } from "../components/shell/preference-cookies.ts";
export { NAV_COOKIE, THEME_COOKIE, navCookie, themeCookie } from "../components/shell/preference-cookies.ts";

export function readTheme(request: Request): ThemeChoice {
  const value = readCookie(request.headers.get("Cookie"), THEME_COOKIE);
  return value === "light" || value === "dark" ? value : "system";
}

export function readNav(request: Request): NavPreference {
  const value = readCookie(request.headers.get("Cookie"), NAV_COOKIE);
  return value === "1" ? "collapsed" : value === "0" ? "expanded" : "auto";
}

/** A same-site path to go back to (never another origin: `//evil`, `/\evil`, `https:`…). */
export function safeReturnPath(value: FormDataEntryValue | null, fallback = "/main-dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  try {
    const url = new URL(value, "http://x");
    if (url.origin !== "http://x") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
