import { createCookieSessionStorage, redirect } from "react-router";
import { secureCookies, sessionSecrets } from "./env.server.ts";
import { safePath } from "./redirect.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

export type ToastType = "success" | "warning" | "error" | "info";
export interface Toast {
  id: string;
  type: ToastType;
  message: string;
  /** Persistent toasts stay until dismissed (errors, detail lists). */
  persistent?: boolean;
}
export type ToastInput = Omit<Toast, "id"> & { id?: string };

const toastStorage = createCookieSessionStorage<{ toasts: Toast[] }, { toasts: Toast[] }>({
  cookie: createSignedCookie("__toast", { httpOnly: true, sameSite: "lax", path: "/", secrets: sessionSecrets, secure: secureCookies }),
});

let counter = 0;
function withId(t: ToastInput): Toast {
  return { ...t, id: t.id ?? `t${Date.now().toString(36)}${(counter++).toString(36)}` };
}

/** Adds toasts to the flash cookie; returns the Set-Cookie value. */
export async function flashToasts(request: Request, toasts: ToastInput[]): Promise<string> {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const existing = (session.get("toasts") as Toast[] | undefined) ?? [];
  session.flash("toasts", [...existing, ...toasts.map(withId)]);
  return toastStorage.commitSession(session);
}

/**
 * Whether this view follows a change or a Refresh made by this browser: it carries the flash
 * cookie of the action's redirect (every change and Refresh answers POST → redirect → GET with a
 * toast). What an instance keeps in its memory for a session (the bucketed charts and tabs) is
 * read afresh on such a view, so a change shows at once whichever instance of the console the
 * redirect lands on, not only on the one that made it. Only ever makes a view read more.
 */
export function followsChange(request: Request): boolean {
  return /(?:^|;\s*)__toast=/.test(request.headers.get("Cookie") ?? "");
}

/** POST → redirect → GET with a toast rendered by the server. */
export async function redirectWithToast(request: Request, url: string, toast: ToastInput | ToastInput[], init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await flashToasts(request, Array.isArray(toast) ? toast : [toast]));
  // Never off-site, whatever a caller built the target from (docs/decisions/2026-11-23-hardening.md).
  return redirect(safePath(url, "/main-dashboard"), { status: 303, ...init, headers });
}

/** Reads (and consumes) the toasts of this request. */
export async function getToasts(request: Request): Promise<{ toasts: Toast[]; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || !cookie.includes("__toast=")) return { toasts: [], setCookie: null };
  const session = await toastStorage.getSession(cookie);
  const toasts = (session.get("toasts") as Toast[] | undefined) ?? [];
  return { toasts, setCookie: await toastStorage.destroySession(session) };
}
