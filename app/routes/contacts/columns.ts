import { h } from "../../components/cell.ts";
import { listColumns, timeColumn } from "../../components/columns.ts";
import { formatTypes } from "../../lib/format.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { contactName, type Contact } from "./model.tsx";

/* The Contacts table's columns, and the same columns (labels, formats) for its CSV export. */

// The headers that are sort links: the platform's sortable columns (parseTableQuery hands them to the table).
export { contactSortable as sortable } from "../../../platform/contract/contacts.ts";
export const hideable = ["address", "updated_at"];

export const { columns, csvColumns } = listColumns<Contact>([
  { id: "first_name", header: "First Name", cell: (r) => r.first_name || h("span", { class: "italic" }, "(no first name)"), csv: (r) => r.first_name },
  { id: "last_name", header: "Last Name", text: (r) => r.last_name },
  { id: "email", header: "Email", text: (r) => r.email },
  { id: "phone", header: "Phone", text: (r) => r.phone, className: "whitespace-nowrap" },
  { id: "contact_type", header: "Type", text: (r) => formatTypes(r.contact_type) },
  { id: "entity_name", header: "Entity Name", text: (r) => r.entity_name },
  { id: "company_name", header: "Company", text: (r) => r.company_name },
  { id: "address", header: "Address", hidden: true, text: (r) => r.address },
  timeColumn("created_at", "Created at"),
  timeColumn("updated_at", "Updated at", { hidden: true }),
]);

/** The row menu (writers): each item opens its dialog for the row. */
const menu: MenuItem[] = [
  { label: "Update Contact", dialog: "update" },
  { label: "Assign Entity", dialog: "assign" },
  { label: "Remove Contact", dialog: "remove", danger: true },
];

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<Contact>({ title: "Contacts", caption: "Contacts", columns, getRowId: (r) => r.contact_id, rowLabel: contactName, selection: "multiple", linkColumn: "first_name", plural: "contacts", createLabel: "Add Contact", menu });
