import { createRoute, z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { ownerOnly, writerOnly, type Env } from "./context.ts";
import { ErrorSchema } from "./errors.ts";
import { exportQuery, idsFilter, listQuery } from "./list.ts";

/*
 * How a platform call is declared (docs/adding-a-screen.md, app/components/README.md): three ways,
 * one per kind of call, each exported from platform/routes/<area>.ts and registered with
 * `app.openapi(call, handler)`:
 *
 *   defineChange({ path: "/remove-iam-user", tags, summary: "Delete an IAM user", body: IamUserIdBody });
 *     a change: POST, a JSON body, `{detail}` unless `response` says; by a writer, 404 for an unknown id.
 *   defineListCalls({ tags, sortable, item, itemName, page, list: {…}, export: {…}, detail: {…} });
 *     a list with its export and its detail call (each part optional).
 *   defineCall({ method: "get", path: "/get_sla_report", tags, summary, query, response, errors: [404] });
 *     a read, a file (`media: "application/pdf"`: binary), and anything else (public, streams, PUT).
 *
 * Each declares what every call of its kind can answer, so no call forgets one: 401 (unless
 * public), 403 (`only`), 400/413/415/422 for a JSON body, 422 for a query, 500; an operationId
 * (the call's name: its path without the slash, so the spec's two spellings stay two ids); the
 * security (bearer, or [] for a public call). Call sites written with the helpers these three
 * replaced are rewritten by scripts/codemods/fold-call-helpers.mjs.
 */

const descriptions = {
  400: "Bad request (or a body that is not valid JSON)",
  401: "Not authenticated",
  403: "Forbidden (readonly IAM role, or not the account owner)",
  404: "Not found in the caller's account",
  409: "Conflict with existing data",
  413: "Payload too large",
  415: "Unsupported media type: the body must be JSON",
  422: "Validation error",
  429: "Too many attempts",
  500: "Internal server error",
} as const;

export type ErrorCode = keyof typeof descriptions;

/** The standard error answers, once each in components/responses (a third of the document otherwise). */
const responseNames: Record<ErrorCode, string> = {
  400: "BadRequest",
  401: "NotAuthenticated",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  422: "ValidationError",
  429: "TooManyAttempts",
  500: "InternalError",
};
const errorResponse = (code: ErrorCode) => ({ $ref: `#/components/responses/${responseNames[code]}` });

/** Registers what the calls refer to: the error body and the standard error answers. */
export function registerStandardResponses(registry: OpenAPIRegistry) {
  registry.register("Error", ErrorSchema);
  for (const [code, name] of Object.entries(responseNames)) {
    registry.registerComponent("responses", name, {
      description: descriptions[Number(code) as ErrorCode],
      // A 429 says when to try again (domain/abuse-limits.ts).
      ...(code === "429" ? { headers: { "Retry-After": { description: "Seconds until this address may try again", schema: { type: "integer", minimum: 1 } } } } : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  }
}

/** `{detail}`: what most changes answer. */
export const DetailSchema = z.object({ detail: z.string() }).openapi("Detail");

export const bearer = [{ bearer: [] as string[] }];

type Method = "get" | "post" | "put";
type Media = "application/json" | "application/x-ndjson" | "application/pdf" | "application/octet-stream" | "text/plain" | "text/event-stream";

type FileMedia = "application/pdf" | "application/octet-stream";

interface CallBase {
  method: Method;
  path: `/${string}`;
  tags: readonly string[];
  summary: string;
  description?: string;
  /** No bearer token (token, register, password links, webhooks, signed URLs): `security: []`, no 401. */
  public?: boolean;
  /** A POST that changes nothing (a report computed from what is stored): not written to the change log (lib/apilog.ts). */
  reads?: true;
  /** Refused with 403 before the body is read: `writer` = the owner or an admin IAM user; `owner` = account sessions. */
  only?: "writer" | "owner";
  query?: z.ZodType;
  params?: z.ZodType;
  headers?: z.ZodObject;
  /** A JSON body (answers 400 when not JSON, 413 over 2 MB, 415 when not sent as JSON, 422 when invalid). */
  body?: z.ZodType;
  /** A streamed binary body instead (its description): read by the handler, not validated. */
  rawBody?: string;
  responseDescription?: string;
  /** What else the call can answer (404 for an unknown id, 409, 403 where the domain refuses…). */
  errors?: readonly ErrorCode[];
  /** Answers with their own description or schema (300 with a list, a 409 that says why). */
  responses?: Record<number, { description: string; content: Record<string, { schema: z.ZodType }> }>;
}

/**
 * What a call declares: the 200 answer's schema (`response`, JSON unless `media` says otherwise),
 * or a file (`media: "application/pdf"` or `"application/octet-stream"`, binary unless `response` says).
 */
export type CallSpec = CallBase & ({ response: z.ZodType; media?: Exclude<Media, FileMedia> } | { response?: z.ZodType; media: FileMedia });

type Content<S extends CallSpec> = { "application/json": { schema: S["response"] } };
type Nothing = Record<never, never>;
type Request<S extends CallSpec> = (S["query"] extends z.ZodType ? { query: S["query"] } : Nothing) &
  (S["params"] extends z.ZodType ? { params: S["params"] } : Nothing) &
  (S["body"] extends z.ZodType ? { body: { required: true; content: { "application/json": { schema: S["body"] } } } } : Nothing);

/** The route as app.openapi() types its handler: the request parts and the answers a handler returns. */
export type Call<S extends CallSpec> = {
  method: S["method"];
  path: S["path"];
  request: Request<S>;
  // A JSON answer is typed (the handler's c.json is checked against it); a stream or a file is a Response.
  responses: (S["media"] extends "application/x-ndjson" | "application/pdf" | "application/octet-stream" | "text/plain" | "text/event-stream" ? { 200: { description: string } } : { 200: { description: string; content: Content<S> } }) &
    (S["responses"] extends object ? S["responses"] : unknown);
  getRoutingPath(): string;
};

/** The call's name (its path without the slash; `/upload-pcap/{key}` → `upload-pcap-key`): unique as paths are. */
export const operationIdOf = (path: string) => path.replace(/^\//, "").replace(/[{}]/g, "").replace(/\//g, "-");

type Without<S extends string, C extends string> = S extends `${infer A}${C}${infer B}` ? Without<`${A}${B}`, C> : S;
type Dashed<S extends string> = S extends `${infer A}/${infer B}` ? Dashed<`${A}-${B}`> : S;
/** operationIdOf as a type: the name the console calls a call by (platform/contract/calls.ts). */
export type OperationId<P extends string> = Dashed<Without<Without<P extends `/${infer R}` ? R : P, "{">, "}">>;

type OpenAPIRegistry = OpenAPIHono["openAPIRegistry"];

/*
 * An NDJSON answer (issue 63 item 25): its body is text, one JSON value per line, so its `schema`
 * is a string; declaring the line's object as the body made Prism refuse every export ("Response
 * body must be object"). The line's schema is OpenAPI 3.2's `itemSchema` (sequential media types),
 * but this document is 3.1 (Prism reads no 3.2) and Redocly's struct rule refuses that field there,
 * so it is served as the extension `x-itemSchema` (finishDocument renames it: given as itemSchema,
 * the generator registers and $refs the row's schema). Under 3.2 the rename goes.
 */
const ndjsonContent = (line: z.ZodType) => ({
  schema: { type: "string" as const, description: "NDJSON: one JSON value per line, each as x-itemSchema describes (OpenAPI 3.2's itemSchema)" },
  itemSchema: line,
});

type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;
type Operation = { responses?: Record<string, { content?: Record<string, Record<string, unknown>> }> };

/** The generated document as served: each NDJSON answer's `itemSchema` as `x-itemSchema` (ndjsonContent). */
export function finishDocument(doc: Document): Document {
  for (const item of Object.values(doc.paths ?? {})) {
    // why: the path item's operations are typed as OpenAPI objects; only their content maps are read here.
    for (const op of Object.values(item as Record<string, Operation>)) {
      for (const response of Object.values(op.responses ?? {})) {
        for (const content of Object.values(response.content ?? {})) {
          if (!("itemSchema" in content)) continue;
          content["x-itemSchema"] = content.itemSchema;
          delete content.itemSchema;
        }
      }
    }
  }
  return doc;
}

/** Marks a call that changes nothing: the change log skips it (CallSpec.reads). */
const markRead: MiddlewareHandler<Env> = async (c, next) => {
  c.set("notAChange", true);
  await next();
};

const isFile = (media: Media): media is FileMedia => media === "application/pdf" || media === "application/octet-stream";

const guards: Record<NonNullable<CallSpec["only"]>, MiddlewareHandler<Env>> = { writer: writerOnly, owner: ownerOnly };

/** Declares one platform call; register it with `app.openapi(call, handler)`. */
export function defineCall<const S extends CallSpec>(spec: S): Call<S> {
  const codes = new Set<ErrorCode>([...(spec.errors ?? []), 500]);
  if (!spec.public) codes.add(401);
  if (spec.only) codes.add(403);
  if (spec.body) for (const code of [400, 413, 415, 422] as const) codes.add(code);
  if (spec.query || spec.params || spec.headers) codes.add(422);
  const media = spec.media ?? "application/json";
  const response = spec.response ?? (isFile(media) ? z.string().openapi({ format: "binary" }) : undefined);
  if (!response) throw new Error(`defineCall ${spec.path}: a JSON answer needs its \`response\` schema`);
  const responses: RouteConfig["responses"] = {
    200: { description: spec.responseDescription ?? "OK", content: { [media]: media === "application/x-ndjson" ? ndjsonContent(response) : { schema: response } } },
  };
  for (const code of [...codes].sort()) responses[code] = errorResponse(code);
  Object.assign(responses, spec.responses);

  const request: Record<string, unknown> = {};
  if (spec.query) request.query = spec.query;
  if (spec.params) request.params = spec.params;
  if (spec.headers) request.headers = spec.headers;
  if (spec.body) request.body = { required: true, content: { "application/json": { schema: spec.body } } };
  if (spec.rawBody) {
    request.body = { required: true, description: spec.rawBody, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } };
  }
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    operationId: operationIdOf(spec.path),
    tags: [...spec.tags],
    summary: spec.summary,
    description: spec.description,
    security: spec.public ? [] : bearer,
    ...(spec.only || spec.reads ? { middleware: [...(spec.reads ? [markRead] : []), ...(spec.only ? [guards[spec.only]] : [])] } : {}),
    request,
    responses,
  });
  // why: the error answers are added above at run time; handlers never return them (the domain
  // throws ApiError), so the type lists only what a handler returns and what it reads.
  return route as unknown as Call<S>;
}

type ChangeSpec = Omit<CallBase, "method"> & { response?: z.ZodType };
type AsChange<S extends ChangeSpec> = Omit<S, "response" | "method"> & { method: "post"; response: S["response"] extends z.ZodType ? S["response"] : typeof DetailSchema };

/**
 * A change (POST with a JSON body), answering `{detail}` unless `response` says otherwise. By
 * default by the owner or an admin IAM user (`only`), of one row by its id (an unknown id: 404;
 * `errors` lists what it can answer instead); a public one (`public: true`) neither.
 */
export function defineChange<const S extends ChangeSpec>(spec: S): Call<AsChange<S>> {
  const defaults = spec.public ? {} : { only: "writer" as const, errors: [404] as const };
  // why: the spread spec is AsChange<S> at run time (method and response filled in); TypeScript
  // cannot follow the optional response through the spread.
  return defineCall({ ...defaults, ...spec, method: "post", response: spec.response ?? DetailSchema }) as unknown as Call<AsChange<S>>;
}

const listDescription = (what: string, order: string) =>
  `Without list parameters: every ${what}, ${order} (the spec's array). With any of q, sort, page, size, ids: one page \`{items, total}\`, searched, sorted and paged in SQL.`;

/** A list call (GET): the spec's array without list parameters, one page `{items, total}` with any (defineListCalls' `list`). */
function listCall<const P extends `/${string}`, Q extends z.ZodType, I extends z.ZodType, G extends z.ZodType>(spec: {
  path: P;
  tags: readonly string[];
  summary: string;
  rows: [what: string, order: string];
  query: Q;
  item: I;
  page: G;
  errors?: readonly ErrorCode[];
}) {
  const { rows, item, page, ...call } = spec;
  return defineCall({
    method: "get",
    ...call,
    description: listDescription(...rows),
    response: z.union([z.array(item), page]),
    responseDescription: "The spec's array, or a page when list parameters are given",
  });
}

/** An export call (GET): every row the list's search and filters select, streamed as NDJSON (defineListCalls' `export`). */
function exportCall<const P extends `/${string}`, Q extends z.ZodType, I extends z.ZodType>(spec: {
  path: P;
  tags: readonly string[];
  summary: string;
  description: string;
  query: Q;
  item: I;
  itemName: string;
  errors?: readonly ErrorCode[];
}) {
  const { item, itemName, ...call } = spec;
  return defineCall({ method: "get", ...call, response: item, media: "application/x-ndjson", responseDescription: `One ${itemName} (JSON) per line` });
}

type ListShape<C extends string> = ReturnType<typeof listQuery<C>>;
type ExportShape<C extends string> = ReturnType<typeof exportQuery<C>>;
type Refine = (query: Record<string, unknown>, ctx: z.core.$RefinementCtx) => void;

/**
 * A list, its export and its detail call, declared together: one row schema, one set of sortable
 * columns and filters. The list takes `q`, `sort`, `page`, `size`, `ids` and the filters and answers
 * the spec's array without list parameters, one page `{items, total}` with any; the export streams
 * every row the same search, sort and filters select (NDJSON); `detail` is the call of one row (its
 * answer is the row unless it says otherwise; an unknown id answers 404). Each of the three is
 * optional: a list without an export, or an export beside a list of its own, names only its part
 * (`defineListCalls({ … list: {…} }).list`). A part whose query is not the standard one gives its
 * `query` (then `sortable` and `filters` are not needed for it).
 */
export function defineListCalls<
  I extends z.ZodType,
  const LP extends `/${string}` = never,
  const EP extends `/${string}` = never,
  const C extends string = never,
  G extends z.ZodType = z.ZodNever,
  F extends z.ZodRawShape = Record<never, never>,
  LQ extends z.ZodType = z.ZodObject<F & ListShape<C> & { ids: typeof idsFilter }>,
  EQ extends z.ZodType = z.ZodObject<F & ExportShape<C>>,
  const DP extends `/${string}` = never,
  DQ extends z.ZodType = never,
  DR extends z.ZodType = I,
>(spec: {
  tags: readonly string[];
  /** The columns the list and the export sort by (what builds their standard queries). */
  sortable?: readonly C[];
  /** Query fields both calls take (entity_id…). */
  filters?: F;
  /** A rule over the whole query both calls check (a range in order…). */
  refine?: Refine;
  item: I;
  /** The row's schema name, for the export's description. */
  itemName?: string;
  /** The page `{items, total}` the list answers with list parameters. */
  page?: G;
  errors?: readonly ErrorCode[];
  list?: { path: LP; summary: string; rows: [what: string, order: string]; tags?: readonly string[]; query?: LQ };
  export?: { path: EP; summary: string; description: string; query?: EQ };
  detail?: { path: DP; summary: string; description: string; query: DQ; response?: DR };
}) {
  const { tags, item, errors, refine, detail } = spec;
  const filters = (spec.filters ?? {}) as F;
  const sortable = () => {
    if (!spec.sortable) throw new Error(`defineListCalls (${spec.list?.path ?? spec.export?.path}): a standard query needs \`sortable\``);
    return spec.sortable;
  };
  const checked = <T extends z.ZodObject>(query: T) => (refine ? query.superRefine(refine) : query);
  // why the casts: a query given by the caller is LQ/EQ; the standard one is LQ/EQ's default (the
  // caller gave none, so TypeScript fell back to it); z.object cannot type a spread of generic shapes.
  const listQ = () => (spec.list?.query ?? checked(z.object({ ...filters, ...listQuery(sortable()), ids: idsFilter }))) as LQ;
  const exportQ = () => (spec.export?.query ?? checked(z.object({ ...filters, ...exportQuery(sortable()) }))) as EQ;
  const page = () => {
    if (!spec.page) throw new Error(`defineListCalls (${spec.list?.path}): a list needs its \`page\``);
    return spec.page;
  };
  const list = spec.list && listCall({ tags, ...spec.list, query: listQ(), item, page: page(), errors });
  const exported = spec.export && exportCall({ tags, ...spec.export, query: exportQ(), item, itemName: spec.itemName ?? "row", errors });
  const one = detail && defineCall({ method: "get", tags, ...detail, response: detail.response ?? item, errors: [404] });
  return {
    // why: a part the caller did not declare has `never` for its path, and nothing reads it.
    list: list as unknown as ReturnType<typeof listCall<LP, LQ, I, G>>,
    export: exported as unknown as ReturnType<typeof exportCall<EP, EQ, I>>,
    detail: one as unknown as Call<{ method: "get"; path: DP; tags: string[]; summary: string; query: DQ; response: DR }>,
  };
}
