import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import type { CallAnswer, CallBody, PostCallName } from "../../platform/contract/calls.ts";
import { apiPost, safeReply, splitDetail, detailMessages, type ApiResult } from "./api.server.ts";
import { readForm } from "./csrf.server.ts";
import { requireWriter } from "./roles.server.ts";
import { redirectWithToast, type ToastInput } from "./toast.server.ts";
import { listParam, returnUrl, type ParamChanges } from "./url.ts";
import { requestFormParser } from "./form-fields.server.ts";

/*
 * The console's one way to write an action (docs/decisions/2026-11-25-one-way.md):
 *
 *   export const action = intentAction({ create, remove }, { readable: ["refresh"] });
 *
 *   const create = (request: Request, formData: FormData) =>
 *     submitForm(request, formData, {
 *       schema: CreateSchema,                  // validated on the server (spec 1 §8)
 *       call: "create-contact",                // the platform call (or a function: several calls)
 *       body: (v) => ({ ...v, name: v.name ?? "" }),
 *       fields: ["email", "name"],             // detail items whose loc names one go beside it
 *       toast: "Contact successfully created.",
 *       // redirect: { selected: null },       // changes to the return URL, or a path
 *     });
 *
 * An intent that is not one form → one call (a custom success, a reply that is not a redirect)
 * uses the same two steps directly: `validateForm` (the 400 reply of a refused form) and
 * `failureReply` (the platform's detail on the fields, the summary or toasts).
 */

/** What a failed platform call looks like. */
export type FailedCall = Extract<ApiResult<unknown>, { ok: false }>;

/** The reply that keeps a form on screen with its errors (and what was typed, secrets removed). */
export type FormReply = ReturnType<typeof formReply>;

export type IntentHandler = (request: Request, formData: FormData) => Promise<unknown>;

export interface IntentOptions<K extends string> {
  /** Intents a readonly IAM user may send (a refresh, their own MFA). Every other one needs a writer (403). */
  readable?: readonly K[];
  /** Checked before the form is read, for every intent (e.g. `requireAccountOwner` on /billing). */
  guard?: (request: Request) => Promise<unknown>;
}

/**
 * The route's action: reads the form (CSRF first), dispatches its hidden `intent` to the function
 * of that name, 400 for an unknown one, 403 for a readonly user unless the intent is readable.
 */
export function intentAction<I extends Record<string, IntentHandler>>(intents: I, options: IntentOptions<keyof I & string> = {}) {
  return async ({ request }: { request: Request }): Promise<Awaited<ReturnType<I[keyof I]>>> => {
    if (options.guard) await options.guard(request);
    const formData = await readForm(request);
    const intent = String(formData.get("intent") ?? "");
    if (!Object.hasOwn(intents, intent)) throw data({ message: "Unknown action." }, { status: 400 });
    if (!options.readable?.includes(intent)) await requireWriter(request);
    return (await intents[intent]!(request, formData)) as Awaited<ReturnType<I[keyof I]>>;
  };
}

function formReply(result: SubmissionResult<string[]>, status: number, headers?: HeadersInit) {
  return data({ result }, { status, headers });
}

export interface ValidateOptions {
  /** More fields never sent back (secrets: app/lib/api.server.ts SECRET_FIELDS always are). */
  hideFields?: string[];
  /**
   * How a platform failure is shown: "form" (default) beside the fields and in the summary;
   * "toast" (a button with no fields to show it beside: unassign, resolve, delete) as persistent
   * toasts and a 303 back. A refused form is always the form's 400 reply.
   */
  errors?: "form" | "toast";
}

/**
 * Validates the form with its schema. A Conform validate intent or a refused form gives `reply`
 * (status 400, the errors beside the fields, what was typed kept) and nothing is changed.
 */
export function validateForm<S extends z.ZodType>(formData: FormData, schema: S, options: { hideFields?: string[]; headers?: HeadersInit } = {}) {
  const keepingEmpty = requestFormParser(schema);
  const submission = (
    keepingEmpty ? parseWithZod(formData, { schema: keepingEmpty, disableAutoCoercion: true }) : parseWithZod(formData, { schema })
  ) as Submission<z.input<S>, string[], z.output<S>>;
  if (submission.status === "success") return { ok: true as const, submission, value: submission.value };
  return { ok: false as const, submission, reply: formReply(safeReply(submission, { hideFields: options.hideFields }), 400, options.headers) };
}

export interface FailureOptions extends ValidateOptions {
  /** The submitted form; without it (or with `errors: "toast"`) the failure is shown as toasts. */
  submission?: Submission<unknown, string[], unknown>;
  /** Fields a detail item's `loc` may name: its message goes beside that field, the rest in the summary. */
  fields?: readonly string[];
  /** Where the toasts go (default: this page without dialog/id). */
  redirectTo?: string;
}

/**
 * A platform failure, as spec 1 §8 says: for a form, the detail items on their fields and the rest
 * in the summary (status 4xx, the dialog stays open, input kept); for a button (no form), one
 * persistent error toast per detail item and a 303 back.
 */
export function failureReply(request: Request, result: FailedCall, options: FailureOptions = {}) {
  const { submission, errors = "form" } = options;
  if (submission && errors === "form") return formFailure(submission, result, options);
  return failureToasts(request, result, options.redirectTo);
}

/** The form half of failureReply: the detail on the fields and in the summary, status 4xx (a 5xx → 400). */
export function formFailure(
  submission: Submission<unknown, string[], unknown>,
  result: FailedCall,
  options: { fields?: readonly string[]; hideFields?: string[]; headers?: HeadersInit } = {},
) {
  const { fieldErrors, formErrors } = splitDetail(result.detail, [...(options.fields ?? [])]);
  const status = result.status >= 400 && result.status < 500 ? result.status : 400;
  // A 429 of the abuse limits keeps its Retry-After (the route's `headers` passes it on: passRetryAfter).
  const headers = new Headers(options.headers);
  if (result.retryAfter) headers.set("Retry-After", result.retryAfter);
  return formReply(safeReply(submission, { formErrors, fieldErrors, hideFields: options.hideFields }), status, headers);
}

/**
 * A route's `headers` for a form the platform may answer 429 (sign-in, registration, password
 * reset, IAM invitations): the parent's headers and `own`, plus the action's Retry-After. React
 * Router builds a page's headers from these functions alone (an action's own headers but cookies
 * are dropped without one).
 */
export const passRetryAfter =
  (own: HeadersInit = {}) =>
  ({ actionHeaders, parentHeaders }: { actionHeaders: Headers; parentHeaders: Headers }) => {
    const headers = new Headers(parentHeaders);
    for (const [name, value] of new Headers(own)) headers.set(name, value);
    const retryAfter = actionHeaders.get("Retry-After");
    if (retryAfter) headers.set("Retry-After", retryAfter);
    return headers;
  };

/** A platform failure without a form (a button, a loader): one persistent error toast per detail item, 303 to `redirectTo` (default: this page without dialog/id). */
export function failureToasts(request: Request, result: FailedCall, redirectTo?: string): Promise<Response> {
  const toasts = detailMessages(result.detail).map((message) => ({ type: "error" as const, message, persistent: true }));
  return redirectWithToast(request, redirectTo ?? returnUrl(request), toasts);
}

type Message<R, V> = string | ToastInput | ((data: R, value: V) => string | ToastInput);

export interface SubmitOptions<S extends z.ZodType, N extends PostCallName, R = CallAnswer<N>> extends ValidateOptions {
  schema: S;
  /**
   * The platform call's name (platform/contract/calls.ts), posted `body(value)` (default: the
   * value, which must then be the call's body). Or a function making the calls itself (several
   * calls, a call chosen by the value): it returns the last answer or the first failure, which is
   * mapped like a single call's.
   */
  call: N | ((value: z.output<S>, request: Request) => Promise<ApiResult<R>>);
  body?: (value: z.output<S>) => CallBody<N>;
  fields?: readonly string[];
  /** The success toast: text, a toast, or made from the platform's answer (`detailOr`). */
  toast: Message<R, z.output<S>>;
  /** Where to go after success: changes to this page's URL (without dialog/id), or a path. */
  redirect?: ParamChanges | string | ((data: R, value: z.output<S>) => ParamChanges | string);
  /** Extra headers on the success redirect (a Set-Cookie). */
  headers?: HeadersInit;
}

/**
 * Without `body`, the form's value is posted as it is: it must be the call's body. (N is every
 * name when `call` is a function: nothing to check then.)
 */
type BodyRule<S extends z.ZodType, N extends PostCallName> = [PostCallName] extends [N] ? unknown : [z.output<S>] extends [CallBody<N>] ? unknown : { body: (value: z.output<S>) => CallBody<N> };

/** Validate → call the platform → the failure reply, or a 303 with the success toast. */
export async function submitForm<S extends z.ZodType, N extends PostCallName = PostCallName, R = CallAnswer<N>>(
  request: Request,
  formData: FormData,
  options: SubmitOptions<S, N, R> & BodyRule<S, N>,
) {
  // `options.headers` belong to the success redirect (e.g. the Set-Cookie that ends a deleted
  // account's session), never to a refused form's or a failed call's reply.
  const form = validateForm(formData, options.schema, { hideFields: options.hideFields });
  if (!form.ok) return form.reply;
  const { submission, value } = form;
  const res: ApiResult<R> =
    typeof options.call === "string"
      ? // why the casts: without `body` the value is the body (BodyRule); the answer is the call's (R's default).
        ((await apiPost(request, options.call, options.body ? options.body(value) : (value as CallBody<N>))) as ApiResult<R>)
      : await options.call(value, request);
  if (!res.ok) return failureReply(request, res, { submission, fields: options.fields, hideFields: options.hideFields, errors: options.errors });
  const to = typeof options.redirect === "function" ? options.redirect(res.data, value) : options.redirect;
  const url = typeof to === "string" ? to : returnUrl(request, to ?? {});
  const message = typeof options.toast === "function" ? options.toast(res.data, value) : options.toast;
  const toast = typeof message === "string" ? { type: "success" as const, message } : message;
  return redirectWithToast(request, url, toast, options.headers ? { headers: options.headers } : undefined);
}

/** The platform's own success sentence (`{detail}`) when it gives one, else `fallback` (text, or made from the form's value). */
export function detailOr<V = unknown>(fallback: string | ((value: V) => string)) {
  return (answer: unknown, value: V): string => {
    if (answer && typeof answer === "object" && "detail" in answer && typeof answer.detail === "string" && answer.detail) return answer.detail;
    return typeof fallback === "string" ? fallback : fallback(value);
  };
}

/** After a removal: the URL's selection without `id` (and no tab once nothing is selected). */
export function deselect(request: Request, id: string): ParamChanges {
  const selected = listParam(new URL(request.url).searchParams, "selected").filter((s) => s !== id);
  return { selected, tab: selected.length ? undefined : null };
}

/**
 * A row's removal, confirmed by a typed phrase: the form's schema (or `schema(id)` where the
 * phrase is the row's id), the call given the row's id alone, the toast, and back to the list
 * without that row selected. `errors: "toast"` where a refused delete is a persistent toast
 * (spec 1 §8 for App Services, Endpoints, Entities).
 *
 *   const remove = removeIntent({ idField: "iam_user_id", schema: RemoveIamUserSchema, call: "remove-iam-user", toast: "IAM User removed." });
 */
export function removeIntent<N extends PostCallName>(o: {
  idField: NoInfer<keyof CallBody<N> & string>;
  schema: z.ZodType | ((id: string) => z.ZodType);
  call: N;
  toast: string;
  errors?: "toast";
}) {
  return (request: Request, formData: FormData) => {
    const id = String(formData.get(o.idField) ?? "");
    const schema = typeof o.schema === "function" ? o.schema(id) : o.schema;
    // why the cast: the body is the call's id field alone (a computed key loses its name in TypeScript).
    const body = () => ({ [o.idField]: id }) as CallBody<N>;
    return submitForm(request, formData, { schema, call: o.call, body, errors: o.errors, toast: o.toast, redirect: () => deselect(request, id) });
  };
}

/** The "refresh" intent of the kit's RefreshButton: read again (the redirect's GET) and say so. Mark it readable. */
export const refreshIntent = (message: string) => (request: Request) => redirectWithToast(request, returnUrl(request), { type: "success", message });
