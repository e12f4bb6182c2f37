import type { ThemeChoice } from "../theme.ts";
import type { NavPreference } from "./side-nav.tsx";

/*
 * The display preferences' cookies, said once for the server (/preferences sets them, the pages
 * render with them: app/lib/preferences.server.ts) and for the browser, which writes the same
 * cookie the moment a choice is made (PreferencesForm): a page left or reloaded before the post's
 * answer arrives (whose Set-Cookie is then dropped) still renders the choice.
 */
export const THEME_COOKIE = "theme";
export const NAV_COOKIE = "nav_collapsed";

const YEAR = 60 * 60 * 24 * 365;

export function themeCookie(choice: ThemeChoice): string {
  if (choice === "system") return `${THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  return `${THEME_COOKIE}=${choice}; Path=/; Max-Age=${YEAR}; SameSite=Lax`;
}

export function navCookie(nav: NavPreference): string {
  if (nav === "auto") return `${NAV_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  return `${NAV_COOKIE}=${nav === "collapsed" ? "1" : "0"}; Path=/; Max-Age=${YEAR}; SameSite=Lax`;
}

/** The cookie of a choice PreferencesForm posts (`theme` or `nav`), or null for another field or an unknown value. */
export function preferenceCookie(name: string, value: string): string | null {
  if (name === "theme" && (value === "light" || value === "dark" || value === "system")) return themeCookie(value);
  if (name === "nav" && (value === "collapsed" || value === "expanded" || value === "auto")) return navCookie(value);
  return null;
}
