import { z } from "@hono/zod-openapi";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { DbOrTx } from "../domain/entities.ts";
import { listLimits, sortValues, type ListPage } from "../contract/list.ts";
import { idField, isSingleLine, junkMessage, maxMessage } from "./fields.ts";

/*
 * Lists queried in SQL (docs/decisions/2026-11-23-lists-on-the-platform.md). A list call declares
 * its query with `listQuery(sortable)`; given any of q/sort/page/size it answers one page
 * `{items, total}` (`pageSchema`), else the spec's plain array. The domain builds the page with
 * `queryPage` (ids in order, by an order key) and streams an export with `keysetBatches`.
 */

const whole = (what: string, max: number) =>
  z.coerce
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(max, `${what} must be at most ${max}`);

/** The query parameters of a searchable, sortable, paged list. */
export function listQuery<const C extends string>(sortable: readonly C[]) {
  return {
    q: z
      .string()
      .trim()
      .max(listLimits.maxQuery, maxMessage(listLimits.maxQuery))
      .refine(isSingleLine, junkMessage)
      .optional()
      .openapi({ description: "Search: every word (case-insensitive) must occur in one of the row's texts" }),
    sort: z
      .enum(sortValues(sortable) as [string, ...string[]], { error: `Sort must be one of: ${sortable.join(", ")} (or -column)` })
      .optional()
      .openapi({ description: "A column, ascending; '-column' descending. Blanks come last either way; ties by id." }),
    page: whole("Page", listLimits.maxPage).optional().openapi({ type: "integer", description: "1-based; default 1. Past the end: no items." }),
    size: whole("Size", listLimits.maxSize)
      .optional()
      .openapi({ type: "integer", description: `Rows per page, 1 to ${listLimits.maxSize}; default 10` }),
  };
}

/** The query parameters of an export: the list's search, sort and filters, no paging. */
export function exportQuery<const C extends string>(sortable: readonly C[]) {
  const { q, sort } = listQuery(sortable);
  return { q, sort };
}

/** `ids=a,b`: only these rows (the console asks which of its selected rows the result holds). */
export const idsFilter = z
  .string()
  .max(listLimits.maxIds * 101)
  .transform((s, ctx) => {
    const ids = [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))];
    if (ids.length > listLimits.maxIds) ctx.addIssue({ code: "custom", message: `At most ${listLimits.maxIds} ids` });
    for (const id of ids) if (!idField("Id").safeParse(id).success) ctx.addIssue({ code: "custom", message: "Not an id" });
    return ids;
  })
  .optional()
  .openapi({ type: "string", description: `Comma-joined ids (at most ${listLimits.maxIds}): only these rows` });

/** True when a list call asked for a page (any list parameter given). */
export const wantsPage = (q: { q?: string; sort?: string; page?: number; size?: number; ids?: string[] }) =>
  q.q !== undefined || q.sort !== undefined || q.page !== undefined || q.size !== undefined || q.ids !== undefined;

/** The OpenAPI response of a list call: the spec's array, or a page when list parameters are given. */
export function pageSchema<S extends z.ZodType>(item: S, name: string) {
  return z.object({ items: z.array(item), total: z.number().int().openapi({ description: "Rows the search and filters select" }) }).openapi(name);
}

/** The search words of `q`, each as a LIKE pattern ('%word%', lower-cased, wildcards escaped). */
export function likePatterns(q: string | undefined): string[] {
  return (q ?? "")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 10)
    .map((w) => `%${w.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
}

/**
 * One part of an order key: an expression, and the type its text form is cast back to for a
 * keyset comparison (the key travels as text so timestamps keep their microseconds).
 */
export interface KeyPart {
  expr: SQL;
  type: "boolean" | "text" | "timestamptz";
}

/**
 * The order key of a sort: for a text column blanks last, then case-insensitive, then the id;
 * for a time column the time, then the id. Every part runs in the same direction, so the key
 * reversed is the exact reverse order (the last pages) and a row comparison continues it (export).
 */
export function orderKey(column: { expr: SQL; kind: "text" | "time" }, id: SQL, desc: boolean): KeyPart[] {
  if (column.kind === "time") return [{ expr: column.expr, type: "timestamptz" }, { expr: id, type: "text" }];
  // Ascending: false (non-blank) first; descending: true (non-blank) first. Blanks last both ways.
  const blank = desc ? sql`(${column.expr} <> '')` : sql`(${column.expr} = '')`;
  return [
    { expr: blank, type: "boolean" },
    { expr: sql`lower(${column.expr})`, type: "text" },
    { expr: id, type: "text" },
  ];
}

export const orderBy = (key: KeyPart[], desc: boolean) => sql.join(key.map((k) => (desc ? sql`${k.expr} desc` : sql`${k.expr} asc`)), sql`, `);

type Rows<T> = { rows: T[] };

/**
 * One page of ids: `from` is the FROM … WHERE of the list (account scope, filters, search), `id`
 * the row id. The count runs first; a page in the second half reads the reversed order with a small
 * offset, so the last page costs what the first does.
 */
export async function queryPage(
  db: DbOrTx,
  q: { from: SQL; id: SQL; key: KeyPart[]; desc: boolean; page: number; size: number; count?: SQL },
): Promise<{ ids: string[]; total: number }> {
  // `count`: a kept total (a counter column) when nothing is searched or filtered; counting 100,000
  // rows costs ~100 ms on PGlite, more than the page itself.
  const counted = (await db.execute(q.count ?? sql`select count(*)::int as n ${q.from}`)) as unknown as Rows<{ n: number }>;
  const total = Number(counted.rows[0]?.n ?? 0);
  const offset = (q.page - 1) * q.size;
  if (offset >= total) return { ids: [], total };
  const reverse = offset + q.size / 2 > total / 2;
  const limit = Math.min(q.size, total - offset);
  const skip = reverse ? total - offset - limit : offset;
  const res = (await db.execute(
    sql`select ${q.id} as id ${q.from} order by ${orderBy(q.key, reverse ? !q.desc : q.desc)} limit ${limit} offset ${skip}`,
  )) as unknown as Rows<{ id: string }>;
  const ids = res.rows.map((r) => r.id);
  return { ids: reverse ? ids.reverse() : ids, total };
}

/**
 * Every id of the list in order, in batches, by keyset (each batch starts after the last row of the
 * previous one): no transaction held open between batches, each batch an index range or a top-N.
 */
export async function* keysetBatches(
  db: DbOrTx,
  q: { from: SQL; id: SQL; key: KeyPart[]; desc: boolean; batch?: number },
): AsyncGenerator<string[]> {
  const batch = q.batch ?? 1000;
  const keys = sql.join(
    q.key.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const tuple = sql.join(q.key.map((k) => k.expr), sql`, `);
  let after: string[] | null = null;
  for (;;) {
    const cond: SQL = after
      ? sql`and (${tuple}) ${sql.raw(q.desc ? "<" : ">")} (${sql.join(
          q.key.map((k, i) => sql`${after![i]}::${sql.raw(k.type)}`),
          sql`, `,
        )})`
      : sql``;
    const res = (await db.execute(
      sql`select ${q.id} as id, ${keys} ${q.from} ${cond} order by ${orderBy(q.key, q.desc)} limit ${batch}`,
    )) as unknown as Rows<Record<string, string>>;
    if (res.rows.length === 0) return;
    yield res.rows.map((r) => r.id!);
    if (res.rows.length < batch) return;
    const last = res.rows[res.rows.length - 1]!;
    after = q.key.map((_, i) => last[`k${i}`]!);
  }
}

/**
 * The rows of a query as JSON objects, parsed by V8 instead of field by field: PGlite's protocol
 * parser costs ~2.5 ms for 50 rows of 40 columns, json_agg and one JSON.parse ~1 ms. `query` is a
 * select whose columns are aliased with the keys wanted (`sql\`${column}\`.as("key")`); `order`
 * orders the aggregate (by the subquery's column aliases, e.g. sql`x.created_at, x.id`): an
 * aggregate's ORDER BY is guaranteed where a subquery's is not. Timestamps arrive as ISO text.
 */
export async function jsonRows<T>(db: DbOrTx, query: SQLWrapper, order?: SQL): Promise<T[]> {
  const res = (await db.execute(
    sql`select coalesce(json_agg(x ${order ? sql`order by ${order}` : sql``}), '[]')::text as j from (${query}) x`,
  )) as unknown as Rows<{ j: string }>;
  return JSON.parse(res.rows[0]?.j ?? "[]") as T[];
}

/** Rows fetched by id, put back in the ids' order. */
export function inOrder<T>(ids: string[], rows: T[], idOf: (row: T) => string): T[] {
  const byId = new Map(rows.map((r) => [idOf(r), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

export type { ListPage };

/**
 * An export call's answer: the rows as NDJSON (one JSON object a line), streamed batch by batch as
 * the client reads (pull), so memory stays flat at any size. The first batch is read before the
 * answer starts, so a 404 (unknown entity) is still a proper error.
 */
export async function ndjsonResponse<T>(batches: AsyncGenerator<T[]>, signal?: AbortSignal): Promise<Response> {
  const encoder = new TextEncoder();
  let next: IteratorResult<T[]> | null = await batches.next();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const current = next ?? (await batches.next());
        next = null;
        if (current.done || signal?.aborted) {
          controller.close();
          return;
        }
        let chunk = "";
        for (const row of current.value) chunk += `${JSON.stringify(row)}\n`;
        controller.enqueue(encoder.encode(chunk));
      } catch (err) {
        console.error("[platform] export failed:", (err as Error).message);
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The OpenAPI 200 response of an export call. */
export function ndjsonOk(item: z.ZodType, description: string) {
  return { 200: { description, content: { "application/x-ndjson": { schema: item } } } };
}
