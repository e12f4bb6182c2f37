import { h, idCell } from "../../components/cell.ts";
import type { Column } from "../../components/data-table.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import { splitEmails, type Entity } from "./schemas.ts";

/* The Entities table's columns, and the same columns (labels) for its CSV export. */

// The headers that are sort links: the platform's sortable columns (parseTableQuery hands them to the table).
export { entitySortable as sortable } from "../../../platform/contract/entities.ts";

/** The addresses, one per line, so a long list wraps between addresses. */
function emails(value: string) {
  const list = splitEmails(value);
  if (list.length === 0) return null;
  return h("ul", { class: "space-y-0.5" }, list.map((e) => h("li", { class: "wrap-anywhere" }, e)));
}

export const columns: Column<Entity>[] = [
  { id: "entity_name", header: "Name", cell: (e) => e.entity_name, className: "min-w-32" },
  { id: "parent_entity_name", header: "Parent Entity Name", cell: (e) => e.parent_entity_name },
  {
    id: "description",
    header: "Description",
    cell: (e) => h("span", { class: "line-clamp-3 whitespace-pre-line", title: e.description }, e.description),
    className: "min-w-48 max-w-md",
  },
  { id: "email", header: "Alert Message Emails", cell: (e) => emails(e.email), className: "min-w-56" },
  { id: "entity_id", header: "Entity ID", cell: (e) => idCell(e.entity_id) },
];


export const csvColumns: CsvColumn<Entity>[] = [
  { header: "Name", value: (e) => e.entity_name },
  { header: "Parent Entity Name", value: (e) => e.parent_entity_name },
  { header: "Description", value: (e) => e.description },
  { header: "Alert Message Emails", value: (e) => splitEmails(e.email).join(", ") },
  { header: "Entity ID", value: (e) => e.entity_id },
  { header: "Created at", value: (e) => formatTime(e.created_at) },
];
