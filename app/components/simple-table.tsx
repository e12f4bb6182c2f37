import type { ReactNode } from "react";
import { ID_CLASS } from "./cell.ts";

/*
 * The kit's secondary table: a short list inside a tab or a dialog (hostings, flows, an entity's
 * contacts…) that needs no paging, sorting, search or selection; use DataTable for a screen's list.
 *
 * A semantic <table> with a caption and `<th scope="col">` headers (a column's unit, when it has
 * one, is part of its header: "Rx (bytes)"). It wears DataTable's classes (`kit-table`, the stacked
 * CSS in app.css), so below 640 px each row is a card: the name cell on the first line, beside a
 * selection control and the row's actions if any, the other cells under it with their column's
 * name. Nothing scrolls sideways at 320 px. Server-rendered React: no client JS of its own.
 *
 *   const hostingColumns: SimpleColumn<Hosting>[] = [
 *     simpleIdColumn("hosting_id", "Hosting Id", (h) => h.hosting_id),              // an id, as DataTable's idColumn draws it
 *     { id: "rx", header: "Rx", unit: "bytes", cell: (t) => t.rx_bytes.toLocaleString("en-US") },
 *     { id: "remove", header: "Actions", kind: "actions", cell: (h) => <a href={…}>Remove</a> },
 *   ];
 *   <SimpleTable caption="Hostings" columns={hostingColumns} rows={hostings} getRowId={(h) => h.hosting_id}
 *     emptyMessage="No hosting available." />
 */

export interface SimpleColumn<T> {
  /** Unique within the table (the React key of its cells). */
  id: string;
  /** The header text; also the cell's label in the stacked (phone) layout. */
  header: string;
  /** The values' unit, shown in the header after the name: "Rx (bytes)". */
  unit?: string;
  cell: (row: T) => ReactNode;
  /**
   * "name": the row's name, first on its card on phones (default: the first "data" column).
   * "select": a row's checkbox or radio (before the name on phones; its header is read, not shown).
   * "actions": the row's buttons or links (after the name on phones; header read, not shown).
   */
  kind?: "data" | "name" | "select" | "actions";
  /** Classes for the <td> and <th> (e.g. "whitespace-nowrap", "text-right"). */
  className?: string;
}

/** An identifier (a device, node, service or hosting id) as `idCell` draws it in DataTable: monospace, small, never broken at its hyphens. */
export function IdText({ id }: { id: string | null | undefined }) {
  return id ? <code className={ID_CLASS}>{id}</code> : null;
}

/** A SimpleTable column of ids (DataTable's is `idColumn`, columns.ts). */
export function simpleIdColumn<T>(id: string, header: string, get: (row: T) => string | null | undefined): SimpleColumn<T> {
  return { id, header, cell: (row) => <IdText id={get(row)} /> };
}

export interface SimpleTableProps<T> {
  /** The table's accessible name (a <caption>, visually hidden unless `showCaption`). */
  caption: string;
  showCaption?: boolean;
  columns: readonly SimpleColumn<T>[];
  rows: readonly T[];
  /** The row's React key (the index is there for lists without ids, e.g. flows). */
  getRowId: (row: T, index: number) => string;
  /** When there are no rows (default 'No data'). */
  emptyMessage?: ReactNode;
  /**
   * A long list (flows, netflows): the table scrolls vertically inside a focusable region of this
   * name, at most `max-h-96` tall. Never sideways: on phones the rows are stacked cards.
   */
  scrollRegion?: string;
  className?: string;
}

/** The header text with its unit: "Rx (bytes)". */
export const columnLabel = (c: { header: string; unit?: string }) => (c.unit ? `${c.header} (${c.unit})` : c.header);

const cellClass: Record<NonNullable<SimpleColumn<unknown>["kind"]>, string> = {
  data: "",
  name: "kit-cell-name",
  select: "kit-cell-check",
  actions: "kit-cell-menu",
};

export function SimpleTable<T>({ caption, showCaption = false, columns, rows, getRowId, emptyMessage = "No data", scrollRegion, className = "" }: SimpleTableProps<T>) {
  const nameId = columns.find((c) => c.kind === "name")?.id ?? columns.find((c) => (c.kind ?? "data") === "data")?.id;
  const kindOf = (c: SimpleColumn<T>) => (c.id === nameId ? "name" : (c.kind ?? "data"));
  const table = (
    <table className={`kit-table table table-sm ${className}`.trim()}>
      <caption className={showCaption ? "mb-2 text-left font-semibold" : "sr-only"}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => {
            const kind = kindOf(c);
            const quiet = kind === "select" || kind === "actions";
            return (
              <th key={c.id} scope="col" className={[kind === "actions" ? cellClass.actions : "", c.className].filter(Boolean).join(" ") || undefined}>
                {quiet ? <span className="sr-only">{columnLabel(c)}</span> : columnLabel(c)}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className="text-base-content/70 py-6 text-center">
              {emptyMessage}
            </td>
          </tr>
        ) : (
          rows.map((row, index) => (
            <tr key={getRowId(row, index)}>
              {columns.map((c) => {
                const kind = kindOf(c);
                const cls = [cellClass[kind], c.className].filter(Boolean).join(" ") || undefined;
                // Phones: the data cells say which column they are (app.css shows data-label).
                return (
                  <td key={c.id} className={cls} data-label={kind === "data" ? columnLabel(c) : undefined}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
  if (scrollRegion) {
    return (
      // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
      <div className="kit-table-wrap max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label={scrollRegion}>
        {table}
      </div>
    );
  }
  return <div className="kit-table-wrap">{table}</div>;
}
