/*
 * A table page's rows travel from the loader to the browser as one JSON string. React Router's
 * turbo-stream encodes every value of the loader data one by one (to keep references, dates and
 * promises); for a 50-row page that was more work than writing the rows' HTML. Rows are plain
 * JSON data, so one JSON.stringify on the server and one JSON.parse in the browser do.
 */

/** JSON text of a T[] (branded so the row type is kept). */
export type RowsJson<T> = string & { readonly __rowType?: T };

export function rowsJson<T>(rows: readonly T[]): RowsJson<T> {
  return JSON.stringify(rows) as RowsJson<T>;
}

// The last text parsed: a page renders its table once per render, and both the table and the
// route component may ask for the rows.
let lastText: string | null = null;
let lastRows: unknown[] = [];

/** The rows of a page (`page.rows`). */
export function tableRows<T>(page: { rows: RowsJson<T> }): T[] {
  if (page.rows !== lastText) {
    lastRows = JSON.parse(page.rows) as unknown[];
    lastText = page.rows;
  }
  return lastRows as T[];
}
