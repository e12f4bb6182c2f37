import { timeCell } from "../../components/cell.ts";
import type { Column } from "../../components/data-table.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import type { IamUser } from "../../../platform/contract/iam.ts";

/* The IAM users table's columns (spec 1 §3 IAM user), and the same columns for its CSV export. */

export const sortable = ["username", "name", "role", "entity_name", "created_at"];
export const hideable = ["created_at"];

/** The role as the screen shows it ('readonly' → 'Readonly'). */
export const roleLabel = (role: string) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : "");

export const columns: Column<IamUser>[] = [
  { id: "username", header: "Username", sortable: true, cell: (r) => r.username },
  { id: "name", header: "Name", sortable: true, cell: (r) => r.name },
  { id: "role", header: "Role", sortable: true, cell: (r) => roleLabel(r.role) },
  { id: "entity_name", header: "Entity Name", sortable: true, cell: (r) => r.entity_name ?? "" },
  {
    id: "created_at",
    header: "Created at",
    sortable: true,
    cell: (r) => timeCell(r.created_at),
    className: "whitespace-nowrap",
  },
];

export const csvColumns: CsvColumn<IamUser>[] = [
  { header: "Username", value: (r) => r.username },
  { header: "Name", value: (r) => r.name },
  { header: "Role", value: (r) => roleLabel(r.role) },
  { header: "Entity Name", value: (r) => r.entity_name ?? "" },
  { header: "MFA", value: (r) => (r.mfa_enabled ? r.mfa_type || "enabled" : "") },
  { header: "Created at", value: (r) => formatTime(r.created_at) },
];
