import { readCookie } from "./cookie-header.ts";
import { rowsJson, rowsJsonOf, type RowsJson } from "./table-rows.ts";
import type { ColumnSort } from "@tanstack/react-table";
import type { CallQuery, CallRow, ListCallName } from "../../platform/contract/calls.ts";
import type { ListPage } from "../../platform/contract/list.ts";
import { apiGetOrThrow } from "./api.server.ts";
import { derived } from "./shared-answer.server.ts";
import { requireSession } from "./session.server.ts";
import { listParam } from "./url.ts";
import { observe } from "../../server/observe.mjs";

/*
 * The server side of the data table (app/components/data-table.tsx). The loader turns the URL into
 * a TableState (parseTableQuery); the platform searches, sorts and pages in SQL (its list calls
 * take q, sort, page, size and answer {items, total}); fetchTablePage asks for the page and hands
 * it to <DataTable page={…}> (docs/decisions/2026-11-23-lists-on-the-platform.md):
 *
 *   const { state, headers } = parseTableQuery(request, { sortable: [...], hideable: [...] });
 *   const table = await fetchTablePage(request, "get-contact", state, { getRowId: (r) => r.contact_id });
 *   return data({ table }, { headers });
 *
 * pageRows (search, sort and page in the console) is only for lists bounded by design (at most
 * BOUNDED_MAX rows, e.g. the sessions of one capture); it throws beyond that.
 */

export const PAGE_SIZES = [10, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_COOKIE = "page_size";
const MAX_QUERY = 200;
const MAX_PAGE = 1_000_000;

/** The table's part of the URL (tanstack's shapes where they exist). */
export interface TableState {
  /** 1-based. */
  page: number;
  size: number;
  sizes: number[];
  /** The search text ("" for none). */
  q: string;
  /** `?sort=name` ascending, `?sort=-name` descending. */
  sort: ColumnSort | null;
  /** `?selected=a&selected=b` (or comma-joined). Only ids of existing rows after pageRows. */
  selected: string[];
  /** `?cols=address&cols=updated_at`: the columns hidden by default that are shown. */
  cols: string[];
  /** The column ids the list may be sorted by (their headers are sort links). */
  sortable?: readonly string[];
}

/** What a loader hands to <DataTable page={…}>. */
export interface TablePage<T> extends TableState {
  /** This page's rows, as JSON text (app/lib/table-rows.ts): read them with `tableRows(page)`. */
  rows: RowsJson<T>;
  /** How many rows this page has. */
  rowCount: number;
  /** Rows matching the search (all pages). */
  total: number;
  /** Rows before the search. */
  unfiltered: number;
  pageCount: number;
}

export interface TableOptions {
  /** Column ids that may be sorted; any other `sort` is ignored. */
  sortable?: readonly string[];
  defaultSort?: ColumnSort | null;
  /** Column ids hidden by default that the column chooser can show. */
  hideable?: readonly string[];
  /** 10, or 50 for the PCAP sessions table. Used when neither `?size=` nor the cookie says otherwise. */
  defaultSize?: number;
  sizes?: readonly number[];
  cookieName?: string;
}

/** A positive whole number from a parameter, or the fallback; clamped to [1, max]. */
export function parsePositiveInt(raw: string | null | undefined, fallback: number, max = MAX_PAGE): number {
  if (raw === null || raw === undefined || !/^\s*\d+\s*$/.test(raw)) return fallback;
  const n = Number.parseInt(raw, 10);
  if (!Number.isFinite(n) || n < 1) return fallback;
  return Math.min(n, max);
}

/**
 * The table state of a request. `headers` carries the `page_size` cookie when the URL chose a
 * size different from the remembered one, so the next visit (and every other table) uses it.
 */
export function parseTableQuery(request: Request | URL, options: TableOptions = {}): { state: TableState; headers: Headers } {
  const url = request instanceof URL ? request : new URL(request.url);
  const params = url.searchParams;
  const sizes = [...(options.sizes ?? PAGE_SIZES)];
  const cookieName = options.cookieName ?? PAGE_SIZE_COOKIE;
  const fallbackSize = options.defaultSize && sizes.includes(options.defaultSize) ? options.defaultSize : (sizes[0] ?? DEFAULT_PAGE_SIZE);
  const headers = new Headers();

  const cookieRaw = request instanceof URL ? null : readCookie(request.headers.get("Cookie"), cookieName);
  const cookieSize = cookieRaw !== null && sizes.includes(Number(cookieRaw)) ? Number(cookieRaw) : null;
  const urlRaw = params.get("size");
  const urlSize = urlRaw !== null && sizes.includes(Number(urlRaw)) ? Number(urlRaw) : null;
  const size = urlSize ?? cookieSize ?? fallbackSize;
  if (urlSize !== null && urlSize !== cookieSize) {
    headers.append("Set-Cookie", `${cookieName}=${urlSize}; Path=/; Max-Age=31536000; SameSite=Lax`);
  }

  const q = (params.get("q") ?? "").trim().slice(0, MAX_QUERY);

  let sort: ColumnSort | null = options.defaultSort ?? null;
  const sortRaw = params.get("sort");
  if (sortRaw) {
    const desc = sortRaw.startsWith("-");
    const id = desc ? sortRaw.slice(1) : sortRaw;
    if (options.sortable?.includes(id)) sort = { id, desc };
  }

  const hideable = options.hideable ?? [];
  const cols = listParam(params, "cols").filter((c) => hideable.includes(c));
  const selected = listParam(params, "selected").slice(0, 500);

  const sortable = options.sortable ? [...options.sortable] : undefined;
  return { state: { page: parsePositiveInt(params.get("page"), 1), size, sizes, q, sort, selected, cols, sortable }, headers };
}

/**
 * A list screen's loader start: the session (else /login), the table state of the URL, and the
 * dialog it opens (`?dialog=`, `?id=`).
 */
export async function listScreenQuery(request: Request, options: TableOptions = {}) {
  await requireSession(request);
  const { state, headers } = parseTableQuery(request, options);
  const params = new URL(request.url).searchParams;
  return { state, headers, dialog: params.get("dialog"), dialogId: params.get("id") };
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

type Sortable = string | number | boolean | Date | null | undefined;

/** Compares two cell values: blanks last, numbers as numbers, text naturally ("a2" < "a10"), case-insensitive. */
export function compareValues(a: Sortable, b: Sortable): number {
  const aBlank = a === null || a === undefined || a === "";
  const bBlank = b === null || b === undefined || b === "";
  if (aBlank || bBlank) return aBlank === bBlank ? 0 : aBlank ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return collator.compare(String(a), String(b));
}

export interface PageRowsOptions<T> {
  getRowId: (row: T) => string;
  /** Fields searched by `q` (case-insensitive; every word must match one of them), or a function giving the text to search. */
  search?: readonly (keyof T & string)[] | ((row: T) => string);
  /** The value a column sorts by; default `row[columnId]`. */
  sortValue?: (row: T, columnId: string) => Sortable;
}

/** The most rows pageRows accepts: a list that can grow with the customer is paged by the platform. */
export const BOUNDED_MAX = 5000;

/** Search, sort and page rows of a list bounded by design. The page is clamped to the last one. */
export function pageRows<T>(rows: readonly T[], state: TableState, options: PageRowsOptions<T>): TablePage<T> {
  if (rows.length > BOUNDED_MAX) {
    observe().logger.error({ rows: rows.length, max: BOUNDED_MAX }, "pageRows got too many rows: this list must be paged by the platform");
    throw new Error(`pageRows is for lists of at most ${BOUNDED_MAX} rows`);
  }
  let matching: T[] = rows as T[];
  if (state.q && options.search) {
    const words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
    const search = options.search;
    const text =
      typeof search === "function"
        ? (row: T) => search(row).toLowerCase()
        : (row: T) => {
            let s = "";
            for (const key of search) {
              const v = row[key];
              if (v !== null && v !== undefined) s += `${String(v).toLowerCase()}\u0000`;
            }
            return s;
          };
    matching = rows.filter((row) => {
      const haystack = text(row);
      return words.every((w) => haystack.includes(w));
    });
  }
  if (state.sort) {
    const { id, desc } = state.sort;
    const value = options.sortValue ?? ((row: T, col: string) => (row as Record<string, Sortable>)[col]);
    // Decorate-sort-undecorate: one value read per row, stable for ties.
    const decorated = matching.map((row, i) => ({ row, i, v: value(row, id) }));
    decorated.sort((a, b) => {
      const aBlank = a.v === null || a.v === undefined || a.v === "";
      const bBlank = b.v === null || b.v === undefined || b.v === "";
      // Blanks stay last in both directions.
      if (aBlank !== bBlank) return aBlank ? 1 : -1;
      const c = compareValues(a.v, b.v);
      return c === 0 ? a.i - b.i : desc ? -c : c;
    });
    matching = decorated.map((d) => d.row);
  }
  const total = matching.length;
  const pageCount = Math.max(1, Math.ceil(total / state.size));
  const page = Math.min(state.page, pageCount);
  const start = (page - 1) * state.size;
  const ids = new Set<string>();
  for (const row of rows) ids.add(options.getRowId(row));
  const pageSlice = matching.slice(start, start + state.size);
  return {
    ...state,
    page,
    rows: rowsJson(pageSlice),
    rowCount: pageSlice.length,
    total,
    unfiltered: rows.length,
    pageCount,
    selected: state.selected.filter((id) => ids.has(id)),
  };
}

/** The list parameters of a platform list call for this table state. */
export function listQuery(state: TableState, page = state.page): Record<string, string> {
  const query: Record<string, string> = { page: String(page), size: String(state.size) };
  if (state.q) query.q = state.q;
  if (state.sort) query.sort = `${state.sort.desc ? "-" : ""}${state.sort.id}`;
  return query;
}

/**
 * The platform's page `{items, total}` as the TablePage DataTable reads. `selectedInResult`: the
 * selected ids that the current result (search and filters, all pages) holds; selected rows the
 * search hides are not counted (issue 10 item 13).
 */
export function platformPage<T>(
  result: ListPage<T>,
  state: TableState,
  selectedInResult: readonly string[],
  unfiltered?: number,
  fields?: readonly string[],
  /** The rows' JSON when the caller has it already (fetchTablePage remembers it per shared answer). */
  rows?: RowsJson<T>,
): TablePage<T> {
  const pageCount = Math.max(1, Math.ceil(result.total / state.size));
  return {
    ...state,
    page: Math.min(state.page, pageCount),
    rows: rows ?? (fields ? rowsJsonOf(result.items, fields) : rowsJson(result.items)),
    rowCount: result.items.length,
    total: result.total,
    unfiltered: unfiltered ?? result.total,
    pageCount,
    selected: state.selected.filter((id) => selectedInResult.includes(id)),
  };
}

/**
 * One page of a platform list call (`name`, platform/contract/calls.ts; its filters in `query`) for this table state: a
 * page past the end is answered with the last page; the selection is checked against the result.
 * Selected rows on the page are found there; only selected rows on other pages cost a second call
 * (`ids=` with the same search and filters). `selectedRows(page)` gives the selected rows
 * themselves, so a loader showing one row's tabs need not ask for it again.
 */
export function fetchTablePage<N extends ListCallName>(
  request: Request,
  name: N,
  state: TableState,
  options: {
    getRowId: (row: CallRow<N>) => string;
    /** The list's filters (its query without the list parameters). */
    query?: Omit<NonNullable<CallQuery<N>>, "q" | "sort" | "page" | "size" | "ids">;
    /**
     * The only fields the table's columns and row menu read: the browser gets just these (an App
     * Service has 40 fields, its table shows 10). Without it, whole rows.
     */
    fields?: readonly (keyof CallRow<N> & string)[];
  },
): Promise<TablePage<CallRow<N>>> {
  // why the casts: the filters are the call's own query fields (text, numbers, flags), and the
  // list parameters are the ones every list call takes (platform/lib/list.ts).
  const filters = (options.query ?? {}) as Record<string, string>;
  const get = (query: Record<string, string>, shared: boolean) => apiGetOrThrow(request, name, query as CallQuery<N>, shared ? { shared } : {});
  return tablePageOf<CallRow<N>>(get, state, { ...options, query: filters });
}

/** fetchTablePage's work, given how to read one page (`get`). */
async function tablePageOf<T>(
  get: (query: Record<string, string>, shared: boolean) => Promise<unknown>,
  state: TableState,
  options: { getRowId: (row: T) => string; query: Record<string, string>; fields?: readonly (keyof T & string)[] },
): Promise<TablePage<T>> {
  const filters = options.query;
  const selected = state.selected.slice(0, 100);
  // Shared answers (lib/shared-answer.server.ts): a page viewed again parses nothing and writes
  // its rows' JSON once; the rows (selectedRows among them) are frozen.
  const read = async (query: Record<string, string>, shared = false) => pageOf<T>(await get(query, shared));
  let result = await read({ ...filters, ...listQuery(state) }, true);
  const lastPage = Math.max(1, Math.ceil(result.total / state.size));
  if (state.page > lastPage) result = await read({ ...filters, ...listQuery(state, lastPage) }, true);
  const found = new Map<string, T>();
  for (const row of result.items) {
    const id = options.getRowId(row);
    if (selected.includes(id)) found.set(id, row);
  }
  const elsewhere = selected.filter((id) => !found.has(id));
  if (elsewhere.length) {
    const inResult = await read({ ...filters, ...(state.q ? { q: state.q } : {}), ids: elsewhere.join(","), size: "100" });
    for (const row of inResult.items) found.set(options.getRowId(row), row);
  }
  const selectedIds = selected.filter((id) => found.has(id));
  // `unfiltered` only tells "no data" from "no match": a search that finds nothing is a no-match.
  const fields = options.fields;
  // why the cast: one memo for every row type; an answer's entries are made here, with its own T.
  const memo = rowsOfAnswer as unknown as WeakMap<readonly T[], Map<string, RowsJson<T>>>;
  const rows = derived(memo, result.items, fields ? fields.join(",") : "", () => (fields ? rowsJsonOf(result.items, fields) : rowsJson(result.items)));
  const page = platformPage(result, { ...state, page: Math.min(state.page, lastPage) }, selectedIds, state.q ? Math.max(result.total, 1) : result.total, fields, rows);
  selectedRowsOf.set(page, selectedIds.map((id) => found.get(id)!));
  return page;
}

/** A list call's answer given list parameters: its page (the plain array answers only without them). */
function pageOf<T>(answer: unknown): ListPage<T> {
  if (answer && typeof answer === "object" && "items" in answer && Array.isArray(answer.items) && "total" in answer && typeof answer.total === "number") {
    // why the cast: the rows are the list call's declared row (CallRow); the shape is checked above.
    return answer as ListPage<T>;
  }
  throw new Error("A list call given list parameters answered no page");
}

// The rows' JSON of a shared answer's items, by the fields asked for.
const rowsOfAnswer = new WeakMap<readonly unknown[], Map<string, string>>();

// Kept beside the page rather than in it: the page is loader data and goes to the browser.
const selectedRowsOf = new WeakMap<object, unknown[]>();

/** The selected rows (in the selection's order) of a page from fetchTablePage. */
export function selectedRows<T>(page: TablePage<T>): T[] {
  return (selectedRowsOf.get(page) ?? []) as T[];
}
