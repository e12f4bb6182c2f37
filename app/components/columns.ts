import { idCell, timeCell, type CellContent } from "./cell.ts";
import type { Column } from "./data-table.tsx";
import type { CsvColumn } from "../lib/csv.ts";
import { formatTime } from "../lib/format.ts";

/*
 * A list's columns defined once for its table and its CSV export (same labels, same order, the same
 * text where the cell is text). `listColumns` splits them into DataTable's `columns` and the export's
 * `csvColumns`:
 *
 *   export const { columns, csvColumns } = listColumns<Ticket>([
 *     { id: "title", header: "Subject", text: (r) => r.title },                          // the cell's text is the CSV value
 *     { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state }, // markup: its CSV value
 *     idColumn("ep_id", "EP Id", { sortable: true }),                                    // an id: idCell, its text in the CSV
 *     { header: "Region", value: (r) => r.region },                                      // CSV only
 *     ...adminOpStateColumns("op_state", "Admin / Op State"),                            // one cell, two CSV columns
 *     timeColumn("created_at", "Created at", { hidden: true }),
 *   ]);
 */

type TableOnly<T> = Omit<Column<T>, "cell">;
export type ListColumn<T> =
  | (TableOnly<T> & { text: (row: T) => string | number | null | undefined })
  /** `csv: null`: the column is not exported (its CSV columns follow it, e.g. adminOpStateColumns). */
  | (Column<T> & { csv: CsvColumn<T>["value"] | null })
  | CsvColumn<T>;

export function listColumns<T>(defs: readonly ListColumn<T>[]): { columns: Column<T>[]; csvColumns: CsvColumn<T>[] } {
  const columns: Column<T>[] = [];
  const csvColumns: CsvColumn<T>[] = [];
  for (const def of defs) {
    if (!("id" in def)) {
      csvColumns.push(def);
    } else if ("text" in def) {
      const { text, ...column } = def;
      columns.push({ ...column, cell: text });
      csvColumns.push({ header: def.header, value: text });
    } else {
      const { csv, ...column } = def;
      columns.push(column);
      if (csv) csvColumns.push({ header: def.header, value: csv });
    }
  }
  return { columns, csvColumns };
}

type TimeField = "created_at" | "updated_at";

/** A time: `<time>` in the table, the console's format ('2025-03-01 14:05 UTC') in both. */
export function timeColumn<T extends Partial<Record<TimeField, string | null>>>(id: TimeField, header: string, options: { hidden?: boolean } = {}): ListColumn<T> {
  return { id, header, hidden: options.hidden, className: "whitespace-nowrap", cell: (r) => timeCell(r[id]), csv: (r) => formatTime(r[id]) };
}

/** An id (a device, node, group, service id): `idCell` in the table (monospace, never broken), the id itself in the CSV. */
export function idColumn<K extends string, T extends Partial<Record<K, string | null>>>(id: K, header: string, options: { hidden?: boolean; sortable?: boolean } = {}): ListColumn<T> {
  return { id, header, hidden: options.hidden, sortable: options.sortable, cell: (r) => idCell(r[id]), csv: (r) => r[id] ?? "" };
}

/** The admin/op state cell (`cell`, e.g. adminOpStateCell) and, in the CSV, the two states as columns of their own. */
export function adminOpStateColumns<T extends { admin_state: string; op_state: string }>(id: string, header: string, cell: (row: T) => CellContent): ListColumn<T>[] {
  return [
    { id, header, cell, csv: null },
    { header: "Admin State", value: (r) => r.admin_state },
    { header: "Op State", value: (r) => r.op_state },
  ];
}
