/*
 * A table page's rows travel from the loader to the browser as one JSON string. React Router's
 * turbo-stream encodes every value of the loader data one by one (to keep references, dates and
 * promises); for a 50-row page that was more work than writing the rows' HTML. Rows are plain
 * JSON data, so one JSON.stringify on the server and one JSON.parse in the browser do.
 */

/** JSON text of a T[] (branded so the row type is kept). */
export type RowsJson<T> = string & { readonly __rowType?: T };

/*
 * Rows that are plain objects with the same keys (every platform list) are written column-keyed:
 * `{"k":[keys],"v":[[values of row 1],…]}`, the keys once instead of once per row. The text is a
 * third shorter, and it is escaped twice more on its way into the page (turbo-stream's string, then
 * the hydration script's), so every byte saved is saved three times. Anything else stays a plain
 * JSON array.
 */
export function rowsJson<T>(rows: readonly T[]): RowsJson<T> {
  const first = rows[0];
  if (!first || typeof first !== "object" || Array.isArray(first) || Object.getPrototypeOf(first) !== Object.prototype) {
    return JSON.stringify(rows) as RowsJson<T>;
  }
  const keys = Object.keys(first);
  const values: unknown[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    if (!row || typeof row !== "object" || Object.getPrototypeOf(row) !== Object.prototype) return JSON.stringify(rows) as RowsJson<T>;
    let count = 0;
    const line = new Array(keys.length);
    for (let k = 0; k < keys.length; k++) {
      const value = row[keys[k]!];
      // undefined (and functions) would turn into null in an array: not this row's shape.
      if (value === undefined || typeof value === "function" || !Object.prototype.hasOwnProperty.call(row, keys[k]!)) {
        return JSON.stringify(rows) as RowsJson<T>;
      }
      line[k] = value;
      count++;
    }
    for (const _ in row) count--;
    if (count !== 0) return JSON.stringify(rows) as RowsJson<T>;
    values[r] = line;
  }
  return JSON.stringify({ k: keys, v: values }) as RowsJson<T>;
}

/**
 * The same text for rows reduced to `fields` (a table's columns): made straight from the whole
 * rows, without a reduced copy of each row first. A field a row lacks is written as null.
 */
export function rowsJsonOf<T>(rows: readonly T[], fields: readonly string[]): RowsJson<T> {
  if (rows.length === 0) return "[]" as RowsJson<T>;
  const values: unknown[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const line = new Array(fields.length);
    for (let k = 0; k < fields.length; k++) line[k] = row[fields[k]!] ?? null;
    values[r] = line;
  }
  return JSON.stringify({ k: fields, v: values }) as RowsJson<T>;
}

function parseRows(text: string): unknown[] {
  const parsed = JSON.parse(text) as unknown[] | { k: string[]; v: unknown[][] };
  if (Array.isArray(parsed)) return parsed;
  const { k: keys, v: values } = parsed;
  return values.map((line) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]!] = line[i];
    return row;
  });
}

// The last text parsed: a page renders its table once per render, and both the table and the
// route component may ask for the rows.
let lastText: string | null = null;
let lastRows: unknown[] = [];

/** The rows of a page (`page.rows`). */
export function tableRows<T>(page: { rows: RowsJson<T> }): T[] {
  if (page.rows !== lastText) {
    lastRows = parseRows(page.rows);
    lastText = page.rows;
  }
  return lastRows as T[];
}
