/*
 * The one safe-redirect rule of the console (docs/decisions/2026-11-23-hardening.md). Every
 * redirect or link whose target comes from the user (`?redirectTo=`, `?from=`, a hidden field)
 * goes through `safePath`: the answer is always a same-origin path, in plain ASCII, that a
 * browser cannot read as another host. Shared by server and browser code (no server imports).
 */

const BASE = "http://same-origin.invalid";
/** Control characters (C0, DEL, C1), every kind of whitespace, and invisible format characters. */
const UNSAFE_CHARS = /[\u0000-\u0020\u007F-\u00A0\u00AD\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF]/;
/** A second slash or a backslash (browsers read `\` as `/`) right after the first: another host. */
const OTHER_HOST = /^[/\\][/\\]/;
export const MAX_PATH_LENGTH = 2000;

function decodeOnce(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * `raw` as a same-origin path (`/x?y#z`, normalised and percent-encoded), or `fallback`.
 * Refused: anything not starting with one `/` (`//host`, `/\host`, `http:`, `javascript:`,
 * leading whitespace), control characters and whitespace anywhere (`/\t/host`, CR/LF, which would
 * also break the Location header), backslashes, encoded forms of those (`/%2F%2Fhost`, `/%5Chost`,
 * `%09`), paths that normalise to another host (`/.//host`), non-ASCII lookalikes that are
 * not plain path text, and anything longer than 2000 characters. `exclude`: path prefixes that
 * are never a target (such as /logout after a login).
 */
export function safePath(raw: unknown, fallback: string, exclude: readonly string[] = []): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_PATH_LENGTH) return fallback;
  if (raw[0] !== "/" || OTHER_HOST.test(raw) || raw.includes("\\") || UNSAFE_CHARS.test(raw)) return fallback;
  // The same checks on the once-decoded text: a server or browser down the line may decode it.
  const decoded = decodeOnce(raw);
  if (decoded === null || OTHER_HOST.test(decoded) || decoded.includes("\\") || UNSAFE_CHARS.test(decoded)) return fallback;
  // Lookalike slashes and dots (fullwidth solidus, division slash, one-dot leader…) have no
  // business in a console path.
  if (/[\u2024\u2215\u2044\u29F8\uFF0E\uFF0F\uFF3C]/.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || OTHER_HOST.test(url.pathname)) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (exclude.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`) || url.pathname.startsWith(`${prefix}?`))) return fallback;
  return path;
}

/**
 * Where a signed-in user lands without a page to go back to: /main-dashboard, the default landing
 * page of both specs (spec 1 §1, spec 2 §2, spec 3 §2.1), after a login, after its one-time code,
 * from the IdP's hand-off, from / and /login when already signed in, and from /login-mfa without
 * a pending login (issue 63 item 14). /dashboard stays the Private Access dashboard, a page of its own.
 */
export const LANDING_PATH = "/main-dashboard";

/** Where to go after signing in: a same-origin path, never back to /login or /logout. */
export function safeRedirect(to: unknown, fallback = LANDING_PATH): string {
  return safePath(to, fallback, ["/login", "/login-mfa", "/logout", "/api"]);
}
