import type { z } from "zod";
import type { PostCallName } from "../../platform/contract/calls.ts";
import { data } from "react-router";
import { deselect, submitForm as typedSubmitForm, type SubmitOptions } from "./action.server.ts";
import { callPlatform, detailText, type ApiResult, type Query } from "./api.server.ts";
import { tablePageOf, type TablePage, type TableState } from "./table.server.ts";

/*
 * The string-named platform calls of the screens not yet converted to the contract (issue 61
 * item 1): the old signatures, a call named by any string and its answer cast to `T`. Every
 * other screen calls by name through app/lib/api.server.ts, typed from platform/contract/calls.ts.
 * app/lib/contract.source.test.ts lists the modules still importing this one; it goes when that
 * list is empty.
 */

// why the casts (all of this module): these calls are untyped by design until converted.
export const callApi = async <T = unknown>(request: Request | null, method: "GET" | "POST", path: string, opts: { query?: Query; body?: unknown; token?: string; shared?: boolean; from?: Request } = {}) =>
  (await callPlatform(request, method, path, opts)) as ApiResult<T>;
export const apiGet = <T = unknown>(request: Request, path: string, query?: Query) => callApi<T>(request, "GET", path, { query });
export const apiGetShared = <T = unknown>(request: Request, path: string, query?: Query) => callApi<T>(request, "GET", path, { query, shared: true });
export const apiPost = <T = unknown>(request: Request, path: string, body?: unknown, query?: Query) => callApi<T>(request, "POST", path, { body, query });

export async function apiGetOrThrow<T>(request: Request, path: string, query?: Query, opts: { shared?: boolean } = {}): Promise<T> {
  const result = await callApi<T>(request, "GET", path, { query, shared: opts.shared });
  if (result.ok) return result.data;
  throw data({ message: detailText(result.detail) }, { status: result.status === 404 ? 404 : result.status >= 500 ? 500 : result.status });
}

export type UntypedSubmitOptions<S extends z.ZodType, R> = Omit<SubmitOptions<S, PostCallName, R>, "call" | "body"> & {
  call: string | ((value: z.output<S>, request: Request) => Promise<ApiResult<R>>);
  body?: (value: z.output<S>) => unknown;
};

/** submitForm with the call named by any string. */
export function submitForm<S extends z.ZodType, R = unknown>(request: Request, formData: FormData, options: UntypedSubmitOptions<S, R>) {
  const { call, body, ...rest } = options;
  const byName = (path: string) => (value: z.output<S>, req: Request) => apiPost<R>(req, path, body ? body(value) : value);
  return typedSubmitForm<S, PostCallName, R>(request, formData, { ...rest, call: typeof call === "string" ? byName(call) : call });
}

/** removeIntent with the call named by any string. */
export function removeIntent(o: { idField: string; schema: z.ZodType | ((id: string) => z.ZodType); call: string; toast: string; errors?: "toast" }) {
  return (request: Request, formData: FormData) => {
    const id = String(formData.get(o.idField) ?? "");
    const schema = typeof o.schema === "function" ? o.schema(id) : o.schema;
    return submitForm(request, formData, { schema, call: o.call, body: () => ({ [o.idField]: id }), errors: o.errors, toast: o.toast, redirect: () => deselect(request, id) });
  };
}

/** fetchTablePage with the list named by any string. */
export function fetchTablePage<T>(
  request: Request,
  path: string,
  state: TableState,
  options: { getRowId: (row: T) => string; query?: Record<string, string>; fields?: readonly (keyof T & string)[] },
): Promise<TablePage<T>> {
  return tablePageOf<T>((query, shared) => apiGetOrThrow(request, path, query, { shared }), state, { ...options, query: options.query ?? {} });
}
