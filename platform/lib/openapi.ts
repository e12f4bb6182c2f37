import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "./errors.ts";

const descriptions: Record<number, string> = {
  300: "Several accounts match: `detail` lists them",
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden (readonly IAM role, or not the account owner)",
  404: "Not found in the caller's account",
  409: "Conflict with existing data",
  413: "Payload too large",
  422: "Validation error",
  429: "Too many attempts",
};

/** The error responses a call can answer, for its OpenAPI declaration. */
export function errors<const C extends readonly (keyof typeof descriptions)[]>(...codes: C) {
  return Object.fromEntries(
    codes.map((code) => [code, { description: descriptions[code]!, content: { "application/json": { schema: ErrorSchema } } }]),
  ) as { [K in C[number]]: { description: string; content: { "application/json": { schema: typeof ErrorSchema } } } };
}

/** A JSON 200 response. */
export function ok<S extends z.ZodType>(schema: S, description = "OK") {
  return { 200: { description, content: { "application/json": { schema } } } };
}

/** A JSON request body. */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return { body: { required: true, content: { "application/json": { schema } } } };
}

export const DetailSchema = z.object({ detail: z.string() }).openapi("Detail");

/** Common error codes of a signed-in read call. */
export const readErrors = [401, 422] as const;
/** Common error codes of a signed-in mutating call. */
export const writeErrors = [400, 401, 403, 404, 422] as const;

export const bearer = [{ bearer: [] as string[] }];

/** Every status a mutating call can answer besides 200 (415: the body is not JSON). */
export const writeResponses = {
  ...errors(400, 401, 403, 404, 413, 422),
  415: { description: "Unsupported media type: the body must be JSON", content: { "application/json": { schema: ErrorSchema } } },
};
