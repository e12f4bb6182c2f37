import { h, timeCell } from "../../components/cell.ts";

import type { Column } from "../../components/data-table.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime, formatTypes } from "../../lib/format.ts";
import type { Contact } from "./model.tsx";

/* The Contacts table's columns, and the same columns (labels, formats) for its CSV export. */

export const sortable = ["first_name", "last_name", "email", "phone", "contact_type", "entity_name", "company_name", "created_at", "address", "updated_at"];
export const hideable = ["address", "updated_at"];


export const columns: Column<Contact>[] = [
  { id: "first_name", header: "First Name", sortable: true, cell: (r) => r.first_name || h("span", { class: "italic" }, "(no first name)") },
  { id: "last_name", header: "Last Name", sortable: true, cell: (r) => r.last_name },
  { id: "email", header: "Email", sortable: true, cell: (r) => r.email },
  { id: "phone", header: "Phone", sortable: true, cell: (r) => r.phone, className: "whitespace-nowrap" },
  { id: "contact_type", header: "Type", sortable: true, cell: (r) => formatTypes(r.contact_type) },
  { id: "entity_name", header: "Entity Name", sortable: true, cell: (r) => r.entity_name },
  { id: "company_name", header: "Company", sortable: true, cell: (r) => r.company_name },
  { id: "address", header: "Address", sortable: true, hidden: true, cell: (r) => r.address },
  { id: "created_at", header: "Created at", sortable: true, cell: (r) => timeCell(r.created_at), className: "whitespace-nowrap" },
  { id: "updated_at", header: "Updated at", sortable: true, hidden: true, cell: (r) => timeCell(r.updated_at), className: "whitespace-nowrap" },
];


export const csvColumns: CsvColumn<Contact>[] = [
  { header: "First Name", value: (r) => r.first_name },
  { header: "Last Name", value: (r) => r.last_name },
  { header: "Email", value: (r) => r.email },
  { header: "Phone", value: (r) => r.phone },
  { header: "Type", value: (r) => formatTypes(r.contact_type) },
  { header: "Entity Name", value: (r) => r.entity_name },
  { header: "Company", value: (r) => r.company_name },
  { header: "Address", value: (r) => r.address },
  { header: "Created at", value: (r) => formatTime(r.created_at) },
  { header: "Updated at", value: (r) => formatTime(r.updated_at) },
];
