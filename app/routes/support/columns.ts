import { listColumns, timeColumn } from "../../components/columns.ts";
import type { Ticket } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";

/* The Support Center table (spec 3 §2.12): Ticket ID, Subject, Priority, Category, Status, Created; the same for its CSV export. */

// The headers that are sort links: the platform's sortable columns (parseTableQuery hands them to the table).
export { ticketSortable as sortable } from "../../../platform/contract/support.ts";

export const { columns, csvColumns } = listColumns<Ticket>([
  { id: "ticket_id", header: "Ticket ID", text: (r) => r.ticket_id, className: "whitespace-nowrap" },
  { id: "title", header: "Subject", text: (r) => r.title, className: "wrap-anywhere" },
  { id: "priority", header: "Priority", text: (r) => r.priority },
  { id: "category", header: "Category", text: (r) => r.category },
  { id: "state", header: "Status", text: (r) => r.state },
  timeColumn("created_at", "Created"),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<Ticket>({ title: "Support Center", caption: "Tickets", columns, getRowId: (t) => t.ticket_id, rowLabel: (t) => `${t.ticket_id} ${t.title}`, selection: "single", linkColumn: "ticket_id", menuLabel: (t) => t.ticket_id, plural: "tickets", createLabel: "Create Ticket", refresh: true });
