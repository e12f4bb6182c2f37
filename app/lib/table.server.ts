import { readCookie } from "./cookie-header.ts";
import { rowsJson, type RowsJson } from "./table-rows.ts";
import type { Submission } from "@conform-to/react";
import type { ColumnSort } from "@tanstack/react-table";
import type { ApiResult } from "./api.server.ts";
import { listParam, returnUrl } from "./url.ts";

/*
 * The server side of the data table (app/components/data-table.tsx). The platform's list calls
 * return everything; the loader turns the URL into a TableState (parseTableQuery), then searches,
 * sorts and pages the rows (pageRows), and hands the page to <DataTable page={…}>.
 *
 *   const { state, headers } = parseTableQuery(request, { sortable: [...], hideable: [...] });
 *   const table = pageRows(rows, state, { getRowId: (r) => r.id, search: ["name", "email"] });
 *   return data({ table }, { headers });
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

  return { state: { page: parsePositiveInt(params.get("page"), 1), size, sizes, q, sort, selected, cols }, headers };
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

/** Search, sort and page rows that the platform returned all at once. The page is clamped to the last one. */
export function pageRows<T>(rows: readonly T[], state: TableState, options: PageRowsOptions<T>): TablePage<T> {
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

// platformFailure(request, result, {submission, fieldNames, redirectTo}) lives with the other
// platform error replies in ./api.server.ts; re-exported so the routes' imports keep working.
export { platformFailure } from "./api.server.ts";
