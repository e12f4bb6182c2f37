import { timeCell } from "../../components/cell.ts";
import type { Column } from "../../components/data-table.tsx";
import type { Ticket } from "./model.ts";

/* The Support Center table (spec 3 §2.12): Ticket ID, Subject, Priority, Category, Status, Created. */

export const sortable = ["ticket_id", "title", "priority", "category", "state", "created_at"];

export const columns: Column<Ticket>[] = [
  { id: "ticket_id", header: "Ticket ID", sortable: true, cell: (r) => r.ticket_id, className: "whitespace-nowrap" },
  { id: "title", header: "Subject", sortable: true, cell: (r) => r.title, className: "wrap-anywhere" },
  { id: "priority", header: "Priority", sortable: true, cell: (r) => r.priority },
  { id: "category", header: "Category", sortable: true, cell: (r) => r.category },
  { id: "state", header: "Status", sortable: true, cell: (r) => r.state },
  {
    id: "created_at",
    header: "Created",
    sortable: true,
    cell: (r) => timeCell(r.created_at),
    className: "whitespace-nowrap",
  },
];
