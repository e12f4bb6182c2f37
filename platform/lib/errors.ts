import { z } from "@hono/zod-openapi";

/** One item of a FastAPI-style validation error. */
export const DetailItemSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  })
  .openapi("DetailItem");

/** FastAPI's error body: a text, or a list of items. */
export const ErrorSchema = z
  .object({ detail: z.union([z.string(), z.array(DetailItemSchema)]) })
  .openapi("Error");

export type DetailItem = z.infer<typeof DetailItemSchema>;

/** Thrown by domain code; the app turns it into `{"detail": …}` with the status (and `headers`). */
export class ApiError extends Error {
  /** Headers of the answer (Retry-After on a 429). */
  headers?: Record<string, string>;
  constructor(
    public status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 300 | 503,
    public detail: string | DetailItem[] | unknown,
  ) {
    super(typeof detail === "string" ? detail : "api error");
  }
}

export const notFound = (what = "Not found") => new ApiError(404, what);
export const forbidden = (what = "You do not have permission to perform this action.") => new ApiError(403, what);
export const badRequest = (what: string | DetailItem[]) => new ApiError(400, what);
export const conflict = (what: string) => new ApiError(409, what);

/** Turns zod issues into FastAPI's list form. */
export function zodIssuesToDetail(issues: readonly z.core.$ZodIssue[], where: "body" | "query"): DetailItem[] {
  return issues.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))],
    msg: i.message,
    type: i.code,
  }));
}
