import { z } from "@hono/zod-openapi";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { DbOrTx } from "../db/client.ts";
import { cachedJson } from "./auth.ts";
import type { Env } from "./context.ts";
import { listLimits, sortValues, type ListPage } from "../contract/list.ts";
import { idField, maxMessage, plainText, textPattern } from "./fields.ts";
import { observe } from "../../server/observe.mjs";

/*
 * Lists queried in SQL (docs/decisions/2026-11-23-lists-on-the-platform.md). A list call declares
 * its query with `listQuery(sortable)`; given any of q/sort/page/size it answers one page
 * `{items, total}` (`pageSchema`), else the spec's plain array. The domain declares each list once
 * with `defineList` (below), which pages, sorts, searches, counts, exports and caches it.
 */

const whole = (what: string, max: number) =>
  z.coerce
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(max, `${what} must be at most ${max}`);

/** An optional text to search by: one line of at most `max` characters, trimmed. */
export const searchField = (max: number, description: string) =>
  z.string().trim().max(max, maxMessage(max)).apply(plainText).optional().openapi({ description });

/** The query parameters of a searchable, sortable, paged list. */
export function listQuery<const C extends string>(sortable: readonly C[]) {
  return {
    q: searchField(listLimits.maxQuery, "Search: every word (case-insensitive) must occur in one of the row's texts"),
    sort: z
      .enum(sortValues(sortable) as [string, ...string[]], { error: `Sort must be one of: ${sortable.join(", ")} (or -column)` })
      .optional()
      .openapi({ description: "A column, ascending; '-column' descending. Blanks come last either way; ties by id." }),
    page: whole("Page", listLimits.maxPage).optional().openapi({ type: "integer", minimum: 1, maximum: listLimits.maxPage, description: "1-based; default 1. Past the end: no items." }),
    size: whole("Size", listLimits.maxSize)
      .optional()
      .openapi({ type: "integer", minimum: 1, maximum: listLimits.maxSize, description: `Rows per page, 1 to ${listLimits.maxSize}; default 10` }),
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
  .openapi({ type: "string", pattern: textPattern(), description: `Comma-joined ids (at most ${listLimits.maxIds}): only these rows` });

/** True when a list call asked for a page (any list parameter given). */
export const wantsPage = (q: { q?: string; sort?: string; page?: number; size?: number; ids?: string[] }) =>
  q.q !== undefined || q.sort !== undefined || q.page !== undefined || q.size !== undefined || q.ids !== undefined;

/** The OpenAPI response of a list call: the spec's array, or a page when list parameters are given. */
export function pageSchema<S extends z.ZodType>(item: S, name: string) {
  return z.object({ items: z.array(item), total: z.number().int().openapi({ description: "Rows the search and filters select" }) }).openapi(name);
}

/** The list parameters every list call takes (the route's validated query; filters come on top). */
export interface ListQuery {
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
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
 * The rows of a raw statement (db.execute), keyed by the statement's column aliases.
 * why: drizzle types db.execute's answer as the driver's (unknown here); PGlite and node-postgres
 * both answer `{ rows }`, and the caller's SQL names the columns T declares. The one such cast.
 */
export async function execRows<T>(db: DbOrTx, query: SQLWrapper): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** A timestamptz as JavaScript's toISOString() writes it (UTC, milliseconds, 'Z'), for JSON built in SQL. */
export const isoText = (expr: SQLWrapper) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `x in (…)` for a list of ids (never empty: an empty list selects nothing). */
export const inIds = (column: SQL, ids: readonly string[]) =>
  ids.length ? sql`${column} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`;

/**
 * A sortable column. text: blanks ('') last, then case-insensitive (the expression must not be
 * null: coalesce it); time: a timestamptz (an index can serve it); number: nulls last.
 * Every sort ends with the id, so ties have one order.
 */
export interface SortColumn {
  expr: SQL;
  kind: "text" | "time" | "number";
}
export const textColumn = (expr: SQL): SortColumn => ({ expr, kind: "text" });
export const timeColumn = (expr: SQL): SortColumn => ({ expr, kind: "time" });
export const numberColumn = (expr: SQL): SortColumn => ({ expr, kind: "number" });
/** `from`, `id` and `account` of a list over one table: table("app_services", "a", "app_service_id"). */
export const listTable = (name: string, alias: string, id: string) => ({
  from: sql.raw(`from ${name} ${alias}`),
  id: sql.raw(`${alias}.${id}`),
  account: sql.raw(`${alias}.account_id`),
});

/** Sortable columns of one kind, each the same-named column of the FROM's `alias`: columns("text", "c", ["first_name", "email"]). */
export function columns<const N extends string>(kind: SortColumn["kind"], alias: string, names: readonly N[]): Record<N, SortColumn> {
  // The names are the code's own column names (never input), so raw SQL is safe.
  return Object.fromEntries(names.map((n) => [n, { expr: sql.raw(`${alias}.${n}`), kind }])) as Record<N, SortColumn>;
}
/** A column of ordered steps (sizes): sorted by the step's position; a value not among them is a blank. */
export const stepColumn = (expr: SQL, steps: readonly string[]): SortColumn =>
  numberColumn(sql`(case ${expr} ${sql.join(steps.map((s, i) => sql`when ${s} then ${sql.raw(String(i + 1))}`), sql` `)} end)`);

/** One part of an order key, and the type its text form is cast back to for a keyset comparison. */
interface KeyPart {
  expr: SQL;
  type: "boolean" | "text" | "timestamptz" | "numeric";
}

/**
 * The order key of a sort. Every part runs in the same direction, so the key reversed is the exact
 * reverse order (the last pages) and a row comparison continues it (export). Blanks last both
 * ways: ascending, false (non-blank) sorts first; descending, true (non-blank) does.
 */
function orderKey(column: SortColumn, id: SQL, desc: boolean): KeyPart[] {
  const idPart: KeyPart = { expr: id, type: "text" };
  const e = column.expr;
  if (column.kind === "time") return [{ expr: e, type: "timestamptz" }, idPart];
  if (column.kind === "number") {
    return [
      { expr: desc ? sql`(${e} is not null)` : sql`(${e} is null)`, type: "boolean" },
      { expr: sql`coalesce(${e}, 0)`, type: "numeric" },
      idPart,
    ];
  }
  return [{ expr: desc ? sql`(${e} <> '')` : sql`(${e} = '')`, type: "boolean" }, { expr: sql`lower(${e})`, type: "text" }, idPart];
}

const orderBy = (key: KeyPart[], desc: boolean) => sql.join(key.map((k) => (desc ? sql`${k.expr} desc` : sql`${k.expr} asc`)), sql`, `);

/** A search text (lower-cased by its SQL), or a condition of its own for one LIKE pattern. */
export type SearchText = SQL | ((pattern: string) => SQL);

/** Filters of a list beyond the account and the search: conditions, and what the rows need to know (an entity). */
export interface ListFilter<Ctx> {
  where?: SQL[];
  ctx?: Ctx;
}

export interface ListSpec<Row, Sort extends string, Q extends ListQuery, Ctx> {
  /** FROM and joins, with the aliases the other expressions use: sql`from contacts c`. */
  from: SQL;
  /** The row id (text): sql`c.contact_id`. */
  id: SQL;
  /** The account column: every list is one account's. */
  account: SQL;
  /** Every search word must occur in one of these (each a lower-cased text, or a condition). */
  search: SearchText[];
  sortable: Record<Sort, SortColumn>;
  /** The order without `sort` ('-created_at': newest first). */
  defaultSort: Sort | `-${Sort}`;
  /** The list's own filters (may throw a 404, e.g. an unknown entity). */
  filter?: (db: DbOrTx, accountId: string, query: Q) => ListFilter<Ctx> | Promise<ListFilter<Ctx>>;
  /** The total when nothing is searched or filtered, from a kept counter (counting 100,000 rows costs ~100 ms on PGlite). */
  keptCount?: (accountId: string) => SQL;
  /** A filtered total is counted up to this many; past it `total` is the cap and `total_capped` true. */
  countCap?: number;
  /** The rows of these ids, in any order. Or `json`. */
  rows?: (db: DbOrTx, accountId: string, ids: string[], ctx: Ctx | undefined) => Promise<Row[]>;
  /** The row as one JSON object over the FROM's aliases (json_build_object): rows and export lines built by the database. */
  json?: SQL;
  idOf: (row: Row) => string;
  /** The error of a detail call for an id that is not the account's (a 404). */
  notFound: () => Error;
  /** The spec's plain array (no list parameters). */
  all: (db: DbOrTx, accountId: string, query: Q, ctx: Ctx | undefined) => Promise<Row[]>;
  /** Rows per export batch (1000). */
  exportBatch?: number;
  /**
   * false: never answered from the read cache (docs/decisions/2026-11-23-read-cache.md: live data,
   * anything time-based). Default true: the list's rows change only through this platform's writes
   * (and the fleet clock, which forgets cached reads on each change).
   */
  cached?: boolean;
  /**
   * For rows holding a figure computed from the time (a certificate's 30-day warning): when the
   * first of them changes (ms); a cached answer is kept until then at most (FreshUntil).
   */
  freshUntil?: (rows: Row[], now: number) => number;
}

/** A page of a list with a `countCap`: it also says whether the total was capped. */
export type CappedPage<Row> = ListPage<Row> & { total_capped: boolean };

export interface List<Row, Q extends ListQuery, P extends ListPage<Row> = ListPage<Row>> {
  /** One page `{items, total}` for q/sort/page/size/ids and the list's filters. */
  page(db: DbOrTx, accountId: string, query: Q): Promise<P>;
  /** The spec's plain array. */
  all(db: DbOrTx, accountId: string, query: Q): Promise<Row[]>;
  /** These rows of the account in the ids' order (unknown or foreign ids left out): detail calls. */
  byIds(db: DbOrTx, accountId: string, ids: string[]): Promise<Row[]>;
  /** One row of the account (a detail call); another account's or an unknown id: `notFound`. */
  one(db: DbOrTx, accountId: string, id: string): Promise<Row>;
  /** Every row the search and filters select, in the page order, in keyset batches (export). */
  batches(db: DbOrTx, accountId: string, query: Q): AsyncGenerator<Row[]>;
  /** As `batches`, each row as its JSON text built by the database (lists with `json`). */
  lines(db: DbOrTx, accountId: string, query: Q): AsyncGenerator<string[]>;
  /**
   * A list call's answer: a page when `paged` (any list parameter given, by default), else the
   * plain array; through the read cache unless the list says `cached: false`.
   */
  answer(c: Context<Env>, accountId: string, query: Q, paged?: boolean): Promise<TypedResponse<JSONParsed<P | Row[]>, 200, "json">>;
}

/**
 * One list of the domain: paging, sorting, searching, counting, export and the read cache, the
 * same for every list. A page is read as ids (the count first; a page in the second half reads the
 * reversed order with a small offset, so the last page costs what the first does), then its rows;
 * an export walks the same order by keyset, no transaction held open between batches.
 */
export function defineList<Row, Sort extends string, Q extends ListQuery = ListQuery, Ctx = undefined, P extends ListPage<Row> = ListPage<Row>>(
  spec: ListSpec<Row, Sort, Q, Ctx>,
): List<Row, Q, P> {
  const rowsOf = async (db: DbOrTx, accountId: string, ids: string[], ctx: Ctx | undefined): Promise<Row[]> => {
    if (ids.length === 0) return [];
    const rows = spec.rows
      ? await spec.rows(db, accountId, ids, ctx)
      : await jsonLines<Row>(db, sql`select (${spec.json})::text as j ${spec.from} where ${spec.account} = ${accountId} and ${inIds(spec.id, ids)}`);
    return inOrder(ids, rows, spec.idOf);
  };

  async function prepare(db: DbOrTx, accountId: string, query: Q) {
    const filter = spec.filter ? await spec.filter(db, accountId, query) : {};
    const where: SQL[] = [sql`${spec.account} = ${accountId}`, ...(filter.where ?? [])];
    const patterns = likePatterns(query.q);
    for (const pattern of patterns) {
      where.push(sql`(${sql.join(spec.search.map((s) => (typeof s === "function" ? s(pattern) : sql`${s} like ${pattern}`)), sql` or `)})`);
    }
    if (query.ids !== undefined) where.push(inIds(spec.id, query.ids));
    const filtered = (filter.where?.length ?? 0) > 0 || patterns.length > 0 || query.ids !== undefined;
    const sort = query.sort ?? spec.defaultSort;
    const desc = sort.startsWith("-");
    const column = spec.sortable[(desc ? sort.slice(1) : sort) as Sort] ?? spec.sortable[spec.defaultSort.replace(/^-/, "") as Sort];
    return {
      from: sql`${spec.from} where ${sql.join(where, sql` and `)}`,
      key: orderKey(column, spec.id, desc),
      desc,
      filtered,
      ctx: filter.ctx,
    };
  }

  const count = async (db: DbOrTx, statement: SQL) => Number((await execRows<{ n: number | string }>(db, statement))[0]?.n ?? 0);

  // why `as P`: P is ListPage<Row>, or CappedPage<Row> for a list with a countCap, whose pages all carry total_capped.
  const page = async (db: DbOrTx, accountId: string, query: Q): Promise<P> => (await readPage(db, accountId, query)) as P;

  async function readPage(db: DbOrTx, accountId: string, query: Q): Promise<ListPage<Row> & { total_capped?: boolean }> {
    const { from, key, desc, filtered, ctx } = await prepare(db, accountId, query);
    const pageNo = query.page ?? 1;
    const size = query.size ?? 10;
    const capped = spec.countCap !== undefined ? { total_capped: false } : {};
    let total: number;
    if (filtered && spec.countCap !== undefined) {
      // Counted in the list's order: the planner then walks the filter's index and stops after
      // the cap (without the order it chose a sequential scan: 7 ms against 1 ms on PostgreSQL).
      const cap = spec.countCap;
      total = await count(db, sql`select count(*)::int as n from (select 1 ${from} order by ${orderBy(key, desc)} limit ${cap + 1}) s`);
      if (total > cap) {
        const offset = (pageNo - 1) * size;
        if (offset >= cap) return { items: [], total: cap, total_capped: true };
        const ids = await execRows<{ id: string }>(db, sql`select ${spec.id} as id ${from} order by ${orderBy(key, desc)} limit ${Math.min(size, cap - offset)} offset ${offset}`);
        return { items: await rowsOf(db, accountId, ids.map((r) => r.id), ctx), total: cap, total_capped: true };
      }
    } else {
      total = await count(db, !filtered && spec.keptCount ? spec.keptCount(accountId) : sql`select count(*)::int as n ${from}`);
    }
    const offset = (pageNo - 1) * size;
    if (offset >= total) return { items: [], total, ...capped };
    const reverse = offset + size / 2 > total / 2;
    const limit = Math.min(size, total - offset);
    const skip = reverse ? total - offset - limit : offset;
    const rows = await execRows<{ id: string }>(db, sql`select ${spec.id} as id ${from} order by ${orderBy(key, reverse ? !desc : desc)} limit ${limit} offset ${skip}`);
    const ids = rows.map((r) => r.id);
    return { items: await rowsOf(db, accountId, reverse ? ids.reverse() : ids, ctx), total, ...capped };
  }

  /** Keyset batches of (id, line?) in the list's order: each batch starts after the last row of the previous one. */
  async function* keyset(db: DbOrTx, accountId: string, query: Q, line: boolean): AsyncGenerator<{ rows: Record<string, string>[]; ctx: Ctx | undefined }> {
    const { from, key, desc, ctx } = await prepare(db, accountId, query);
    const batch = spec.exportBatch ?? 1000;
    const keys = sql.join(key.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`k${i}`)}`), sql`, `);
    const tuple = sql.join(key.map((k) => k.expr), sql`, `);
    const text = line ? sql`, (${spec.json})::text as line` : sql``;
    let after: string[] | null = null;
    for (;;) {
      const last: string[] | null = after;
      const cond: SQL = last ? sql`and (${tuple}) ${sql.raw(desc ? "<" : ">")} (${sql.join(key.map((k, i) => sql`${last[i]}::${sql.raw(k.type)}`), sql`, `)})` : sql``;
      const rows = await execRows<Record<string, string>>(db, sql`select ${spec.id} as id, ${keys} ${text} ${from} ${cond} order by ${orderBy(key, desc)} limit ${batch}`);
      if (rows.length === 0) return;
      yield { rows, ctx };
      if (rows.length < batch) return;
      const end = rows[rows.length - 1]!;
      after = key.map((_, i) => end[`k${i}`]!);
    }
  }

  const list: List<Row, Q, P> = {
    page,
    async all(db, accountId, query) {
      const { ctx } = await prepare(db, accountId, query);
      return spec.all(db, accountId, query, ctx);
    },
    byIds: (db, accountId, ids) => rowsOf(db, accountId, ids, undefined),
    async one(db, accountId, id) {
      const [row] = await rowsOf(db, accountId, [id], undefined);
      if (!row) throw spec.notFound();
      return row;
    },
    async *batches(db, accountId, query) {
      for await (const { rows, ctx } of keyset(db, accountId, query, false)) yield await rowsOf(db, accountId, rows.map((r) => r.id!), ctx);
    },
    async *lines(db, accountId, query) {
      if (!spec.json) throw new Error("lines() needs the list's json");
      for await (const { rows } of keyset(db, accountId, query, true)) yield rows.map((r) => r.line!);
    },
    async answer(c, accountId, query, paged = wantsPage(query)) {
      const db = c.get("deps").db;
      const compute = (): Promise<P | Row[]> => (paged ? page(db, accountId, query) : list.all(db, accountId, query));
      const freshUntil = spec.freshUntil;
      if (spec.cached === false) return c.json(await compute(), 200);
      return cachedJson(c, compute, freshUntil && ((answer, now) => freshUntil(Array.isArray(answer) ? answer : answer.items, now)));
    },
  };
  return list;
}

/** Rows built as JSON text by the database (a statement whose one column `j` is a row's JSON): V8 parses them. */
export async function jsonLines<T>(db: DbOrTx, query: SQLWrapper): Promise<T[]> {
  return (await execRows<{ j: string }>(db, query)).map((r) => JSON.parse(r.j) as T);
}

/**
 * The rows of a query as JSON objects, parsed by V8 instead of field by field: PGlite's protocol
 * parser costs ~2.5 ms for 50 rows of 40 columns, json_agg and one JSON.parse ~1 ms. `query` is a
 * select whose columns are aliased with the keys wanted (`sql\`${column}\`.as("key")`); `order`
 * orders the aggregate (by the subquery's column aliases, e.g. sql`x.created_at, x.id`): an
 * aggregate's ORDER BY is guaranteed where a subquery's is not. Timestamps arrive as ISO text.
 */
export async function jsonRows<T>(db: DbOrTx, query: SQLWrapper, order?: SQL): Promise<T[]> {
  const [res] = await execRows<{ j: string }>(
    db,
    sql`select coalesce(json_agg(x ${order ? sql`order by ${order}` : sql``}), '[]')::text as j from (${query}) x`,
  );
  return JSON.parse(res?.j ?? "[]") as T[];
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
 * answer starts, so a 404 (unknown entity) is still a proper error. A string is a row's JSON text
 * already (a list's `lines()`), written as it is.
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
        for (const row of current.value) chunk += `${typeof row === "string" ? row : JSON.stringify(row)}\n`;
        controller.enqueue(encoder.encode(chunk));
      } catch (err) {
        observe("platform").logger.error({ err }, "export failed");
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
