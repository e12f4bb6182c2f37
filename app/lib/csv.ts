/*
 * A CSV file (RFC 4180) from rows. Cells that a spreadsheet would run as a formula (= + - @, tab,
 * CR at the start) get a leading apostrophe (OWASP "CSV injection").
 * TODO(lead): the lists branch writes a shared CSV writer too: keep one of the two.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !(typeof value === "number")) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line and one line per row, CRLF-separated, with a trailing CRLF. */
export function toCsv<T>(columns: readonly { header: string; value: (row: T) => CsvValue }[], rows: readonly T[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
