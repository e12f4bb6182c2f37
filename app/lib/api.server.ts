import { data, redirect } from "react-router";
import { apiUrl } from "./env.server.ts";
import { platformText, type PlatformTextAnswer } from "./platform.server.ts";
import { destroySessionCookie, getUser, loginRedirect } from "./session.server.ts";
import { flashToasts } from "./toast.server.ts";

/** One item of a FastAPI-style error list. */
export interface DetailItem {
  loc?: (string | number)[];
  msg: string;
  type?: string;
}
export type Detail = string | DetailItem[] | unknown;

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; detail: Detail; data: unknown };

type Query = Record<string, string | number | boolean | null | undefined>;

/** Thrown (as a 503 response) when the platform cannot be reached; the error boundary explains it. */
export const SERVICE_UNAVAILABLE = "service-unavailable";

function buildUrl(path: string, query?: Query): URL {
  const base = apiUrl ?? "http://platform.internal";
  const url = new URL(`${base}/api/v1/${path.replace(/^\//, "")}`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  return url;
}

/**
 * Calls the platform. With `request`, the caller's bearer token is taken from the session
 * cookie, and a 401 ends the session and returns to /login remembering the page.
 * An unreachable platform throws a 503 response that the error boundary shows.
 */
export async function callApi<T = unknown>(
  request: Request | null,
  method: "GET" | "POST",
  path: string,
  opts: { query?: Query; body?: unknown; token?: string } = {},
): Promise<ApiResult<T>> {
  let token = opts.token;
  if (!token && request) token = (await getUser(request))?.access_token;
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (method === "POST") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body ?? {});
  }
  let response: PlatformTextAnswer;
  try {
    response = await platformText(method, buildUrl(path, opts.query).href, headers, body);
  } catch (error) {
    console.error(`[console] platform unreachable for ${method} ${path}:`, (error as Error).message);
    throw unavailable();
  }
  if (response.status === 502 || response.status === 503 || response.status === 504) throw unavailable();
  const text = response.text;
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (response.status === 401 && request && token && !opts.token) {
    // The platform no longer accepts this session's token: end it.
    const headersOut = new Headers();
    headersOut.append("Set-Cookie", await destroySessionCookie(request));
    headersOut.append(
      "Set-Cookie",
      await flashToasts(request, [{ type: "warning", message: "Your session has ended. Please log in again." }]),
    );
    throw redirect(loginRedirect(request), { headers: headersOut });
  }
  if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, data: parsed as T };
  const detail = parsed && typeof parsed === "object" && "detail" in parsed ? (parsed as { detail: Detail }).detail : parsed;
  return { ok: false, status: response.status, detail, data: parsed };
}

function unavailable() {
  return data(
    { reason: SERVICE_UNAVAILABLE, message: "The service is unavailable right now. This page will retry by itself." },
    { status: 503 },
  );
}

export const apiGet = <T = unknown>(request: Request, path: string, query?: Query) => callApi<T>(request, "GET", path, { query });
export const apiPost = <T = unknown>(request: Request, path: string, body?: unknown, query?: Query) =>
  callApi<T>(request, "POST", path, { body, query });

/** Plain text of any detail, for toasts and logs. */
export function detailText(detail: Detail, fallback = "An error occurred while fetching data."): string {
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail)) return detail.map((d) => (d && typeof d === "object" && "msg" in d ? String(d.msg) : String(d))).join(" ");
  return fallback;
}

/**
 * For loaders: the data, or a thrown error response (404 stays 404; anything else shows the
 * detail in the error boundary).
 */
export async function apiGetOrThrow<T>(request: Request, path: string, query?: Query): Promise<T> {
  const result = await apiGet<T>(request, path, query);
  if (result.ok) return result.data;
  throw data({ message: detailText(result.detail) }, { status: result.status === 404 ? 404 : result.status >= 500 ? 500 : result.status });
}
