/*
 * CSV (RFC 4180) for every table's export: the one writer, dependency-free. A cell is quoted when
 * it holds a comma, a quote, CR or LF (quotes doubled); a cell that a spreadsheet would run as a
 * formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe (OWASP "CSV injection").
 * Lines end with CRLF; the file starts with a UTF-8 BOM so spreadsheets read non-ASCII text right.
 */

export interface CsvColumn<T> {
  /** The table's column label. */
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

export const CSV_BOM = "\uFEFF";

/** One cell: neutralised and escaped. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  // A number is never a formula ("-3" stays a number); text starting like one is defused.
  if (typeof value !== "number" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** The header line of these columns. */
export function csvHeader<T>(columns: readonly CsvColumn<T>[]): string {
  return csvLine(columns.map((c) => c.header));
}

/** Rows as CSV lines (no header). */
export function csvRows<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  let out = "";
  for (const row of rows) out += csvLine(columns.map((c) => c.value(row)));
  return out;
}

/** A whole (small, bounded) table as CSV: the header line and one line per row, no BOM. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return csvHeader(columns) + csvRows(columns, rows);
}

/**
 * NDJSON bytes (one JSON row a line, as the platform's export calls stream them) → CSV bytes with
 * the BOM and header first. Streams: only the current chunk and a partial line are held.
 */
export function ndjsonToCsv<T>(columns: readonly CsvColumn<T>[]): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = "";
  const convert = (text: string) => {
    const lines = text.split("\n");
    rest = lines.pop() ?? "";
    return csvRows(
      columns,
      lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as T),
    );
  };
  return new TransformStream({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvHeader(columns)));
    },
    transform(chunk, controller) {
      const out = convert(rest + decoder.decode(chunk, { stream: true }));
      if (out) controller.enqueue(encoder.encode(out));
    },
    flush(controller) {
      const out = convert(`${rest}${decoder.decode()}\n`);
      if (out) controller.enqueue(encoder.encode(out));
    },
  });
}
