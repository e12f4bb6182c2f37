import type { Submission } from "@conform-to/react";
import { data, redirect } from "react-router";
import { apiUrl } from "./env.server.ts";
import { detailOf, detailText, parseBody, type Detail } from "./platform-detail.ts";
import { platformFetch, platformText, type PlatformTextAnswer } from "./platform.server.ts";
import { sharedAnswer } from "./shared-answer.server.ts";
import { destroySessionCookie, getUser, loginRedirect } from "./session.server.ts";
import { flashToasts } from "./toast.server.ts";
import { observe } from "../../server/observe.mjs";
import type { CallAnswer, CallBody, CallName, CallPage, CallQuery, CallRow, GetCallName, ListCallName, PlatformCalls, PostCallName } from "../../platform/contract/calls.ts";
import { UNAVAILABLE } from "./messages.ts";

/*
 * The one module for the console's platform calls and their errors (docs/decisions/
 * 2026-11-23-hardening.md): calling (JSON: callApi/apiGet/apiPost; raw streams: callPlatformRaw),
 * the error `detail` (read by ./platform-detail.ts, shared with the browser), service unavailable,
 * session ended, and `safeReply`. An action's replies to a failure (the detail on the form's fields,
 * or toasts) are ./action.server.ts's. pcap.server.ts re-exports from here.
 */

export { detailMessages, detailOf, detailText, parseBody, splitDetail, type Detail, type DetailItem } from "./platform-detail.ts";

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  /** `retryAfter`: the platform's Retry-After (a 429 of the abuse limits), for the browser. */
  | { ok: false; status: number; detail: Detail; data: unknown; retryAfter?: string };

export type Query = Record<string, string | number | boolean | null | undefined>;

/** Thrown (as a 503 response) when the platform cannot be reached; the error boundary explains it. */
export const SERVICE_UNAVAILABLE = "service-unavailable";
const UNAVAILABLE_MESSAGE = UNAVAILABLE;

/** The platform's URL of a call: API_URL's, or the embedded platform's (any origin will do). */
export function platformUrl(path: string, query?: Query): URL {
  const base = apiUrl ?? "http://platform.internal";
  const url = new URL(`${base}/api/v1/${path.replace(/^\//, "")}`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  return url;
}

/** For loaders and actions to throw: the error boundary explains it and retries. */
export function unavailable() {
  return data({ reason: SERVICE_UNAVAILABLE, message: UNAVAILABLE_MESSAGE }, { status: 503 });
}

/** The same as a Response, for resource routes that return their answer. */
export function unavailableResponse(): Response {
  return new Response(JSON.stringify({ reason: SERVICE_UNAVAILABLE, message: UNAVAILABLE_MESSAGE }), {
    status: 503,
    headers: { "content-type": "application/json" },
  });
}

/**
 * The platform no longer accepts the session's token: end the session and go to /login with
 * 'Your session has ended.', remembering `back` (default: the request's own page).
 */
export async function sessionEnded(request: Request, back?: string): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroySessionCookie(request));
  headers.append("Set-Cookie", await flashToasts(request, [{ type: "warning", message: "Your session has ended. Please log in again." }]));
  const target = back ? `/login?redirectTo=${encodeURIComponent(back)}` : loginRedirect(request);
  return redirect(target, { status: 303, headers });
}

/** The HTTP method a call is declared with, as callApi takes it. */
export type MethodOf<N extends CallName> = Uppercase<PlatformCalls[N]["method"]> & ("GET" | "POST");

/** What a call takes besides its name: its query and body as the platform declares them (platform/contract/calls.ts). */
export interface CallOptions<N extends CallName> {
  query?: CallQuery<N>;
  body?: CallBody<N>;
  token?: string;
  shared?: boolean;
  from?: Request;
}

/**
 * Calls the platform: `name` is the call's name (platform/contract/calls.ts), its query, body and
 * answer typed from the platform's own declaration. With `request`, the caller's bearer token is
 * taken from the session cookie, and a 401 ends the session and returns to /login remembering the
 * page. An unreachable platform throws a 503 response that the error boundary shows.
 * The browser's address (X-Forwarded-For, as server/http.mjs resolved it) goes along from
 * `request`, or from `from` for a public call: the platform's abuse limits count by it.
 */
export const callApi = <N extends CallName>(request: Request | null, method: MethodOf<N>, name: N, opts: CallOptions<N> = {}) => typedCall(request, method, name, opts);

async function typedCall<N extends CallName>(request: Request | null, method: "GET" | "POST", name: N, opts: CallOptions<N>): Promise<ApiResult<CallAnswer<N>>> {
  // why the casts: a declared query's fields are the text, numbers and flags Query holds; the
  // answer is what the platform declares for this call (its own tests check every answer against
  // the declaration: platform/routes/openapi.test.ts), which JSON.parse cannot know.
  const result = await callPlatform(request, method, name, { ...opts, query: opts.query as Query | undefined });
  return result as ApiResult<CallAnswer<N>>;
}

/** A call by its path, untyped: typedCall's work (every caller names the call through typedCall). */
async function callPlatform(
  request: Request | null,
  method: "GET" | "POST",
  path: string,
  opts: { query?: Query; body?: unknown; token?: string; shared?: boolean; from?: Request },
): Promise<ApiResult<unknown>> {
  let token = opts.token;
  if (!token && request) token = (await getUser(request))?.access_token;
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const client = (request ?? opts.from)?.headers.get("x-forwarded-for");
  if (client) headers["x-forwarded-for"] = client;
  let body: string | undefined;
  if (method === "POST") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body ?? {});
  }
  let response: PlatformTextAnswer;
  try {
    response = await platformText(method, platformUrl(path, opts.query).href, headers, body);
  } catch (error) {
    observe().logger.warn({ err: error, call: path, method }, "platform unreachable");
    throw unavailable();
  }
  if (response.status === 502 || response.status === 503 || response.status === 504) throw unavailable();
  const ok = response.status >= 200 && response.status < 300;
  const parsed = ok && opts.shared ? sharedParse(response.text) : parseBody(response.text);
  // The platform no longer accepts this session's token: end it.
  if (response.status === 401 && request && token && !opts.token) throw await sessionEnded(request);
  if (ok) return { ok: true, status: response.status, data: parsed };
  const retryAfter = response.headers.get("retry-after");
  return { ok: false, status: response.status, detail: detailOf(parsed), data: parsed, ...(retryAfter ? { retryAfter } : {}) };
}

/** A read (GET) by the call's name. */
export const apiGet = <N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>) => typedCall(request, "GET", name, { query });

/**
 * A GET whose answer is shared (./shared-answer.server.ts): the same deep-frozen object for the
 * same text, so what a loader derives from it can be remembered beside it. For reads that many
 * views repeat (list pages, monitoring); the caller must not change what it gets.
 */
export const apiGetShared = <N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>) => typedCall(request, "GET", name, { query, shared: true });

/** parseBody for a shared answer: JSON shared and frozen, anything else as parseBody has it. */
function sharedParse(text: string): unknown {
  try {
    return text ? sharedAnswer(text) : null;
  } catch {
    return text;
  }
}

/** A change (POST) by the call's name, with its body. */
export const apiPost = <N extends PostCallName>(request: Request, name: N, body?: CallBody<N>, query?: CallQuery<N>) => typedCall(request, "POST", name, { body, query });

/**
 * For loaders: the data, or a thrown error response (404 stays 404; anything else shows the
 * detail in the error boundary).
 */
export async function apiGetOrThrow<N extends GetCallName>(request: Request, name: N, query?: CallQuery<N>, opts: { shared?: boolean } = {}): Promise<CallAnswer<N>> {
  const result = await typedCall(request, "GET", name, { query, shared: opts.shared });
  if (result.ok) return result.data;
  throw data({ message: detailText(result.detail) }, { status: result.status === 404 ? 404 : result.status >= 500 ? 500 : result.status });
}

/**
 * A list call without list parameters: the spec's plain array of rows (a list call answers a page
 * `{items, total}` only when given q, sort, page, size or ids).
 */
export async function apiList<N extends ListCallName>(request: Request, name: N, query?: CallQuery<N>): Promise<ApiResult<CallRow<N>[]>> {
  const result = await typedCall(request, "GET", name, { query });
  if (!result.ok) return result;
  if (!Array.isArray(result.data)) throw new Error(`${name} answered no array`);
  // why the cast: the array member of the list call's declared answer (CallAnswer), checked above.
  return { ...result, data: result.data as CallRow<N>[] };
}

/** apiList for loaders: the rows, or a thrown error response (as apiGetOrThrow). */
export async function apiListOrThrow<N extends ListCallName>(request: Request, name: N, query?: CallQuery<N>): Promise<CallRow<N>[]> {
  const result = await apiList(request, name, query);
  if (result.ok) return result.data;
  throw data({ message: detailText(result.detail) }, { status: result.status === 404 ? 404 : result.status >= 500 ? 500 : result.status });
}

/** A list call with list parameters: one page `{items, total}`, or a thrown error response. */
export async function apiPageOrThrow<N extends ListCallName>(request: Request, name: N, query: CallQuery<N>): Promise<CallPage<N>> {
  const answer: unknown = await apiGetOrThrow(request, name, query);
  if (!answer || typeof answer !== "object" || !("items" in answer) || !Array.isArray(answer.items)) throw new Error(`${name} answered no page`);
  // why the cast: the page member of the list call's declared answer (CallAnswer), checked above.
  return answer as CallPage<N>;
}

/**
 * A platform call with a raw body and/or a raw answer (the no-JS PCAP upload, the PDF report).
 * `body` may be a web ReadableStream (sent as a half-duplex stream, never buffered).
 */
export async function callPlatformRaw(
  token: string,
  method: "GET" | "POST",
  path: string,
  opts: { query?: Query; body?: ReadableStream<Uint8Array> | string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...opts.headers };
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: opts.signal };
  if (opts.body !== undefined) {
    init.body = opts.body;
    if (typeof opts.body !== "string") init.duplex = "half";
  }
  return platformFetch(new Request(platformUrl(path, opts.query), init));
}

/**
 * Names of the form fields that hold a secret (passwords, login codes, link tokens). A reply never
 * carries them back: Conform's `reply()` copies every submitted value into `initialValue`, which
 * ends up in the inputs' `value=` and in the hydration data of the page.
 */
export const SECRET_FIELDS = ["password", "current_password", "confirm_password", "new_password", "otp", "token"] as const;

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean };

/** `submission.reply(options)` with every secret field (SECRET_FIELDS and `hideFields`) removed. */
export function safeReply(submission: Submission<unknown, string[], unknown>, options: ReplyOptions = {}) {
  const { resetForm, hideFields = [], ...rest } = options;
  if (resetForm) return submission.reply({ resetForm: true });
  return submission.reply({ ...rest, hideFields: [...new Set([...SECRET_FIELDS, ...hideFields])] });
}
