import { listColumns, timeColumn } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import type { IamUser } from "../../../platform/contract/iam.ts";

/* The IAM users table's columns (spec 1 §3 IAM user), and the same columns for its CSV export. */

// The headers that are sort links: the platform's sortable columns (parseTableQuery hands them to the table).
export { iamSortable as sortable } from "../../../platform/contract/iam.ts";
export const hideable = ["created_at"];

/** The role as the screen shows it ('readonly' → 'Readonly'). */
export const roleLabel = (role: string) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : "");

export const { columns, csvColumns } = listColumns<IamUser>([
  { id: "username", header: "Username", text: (r) => r.username },
  { id: "name", header: "Name", text: (r) => r.name },
  { id: "role", header: "Role", text: (r) => roleLabel(r.role) },
  { id: "entity_name", header: "Entity Name", text: (r) => r.entity_name ?? "" },
  { header: "MFA", value: (r) => (r.mfa_enabled ? r.mfa_type || "enabled" : "") },
  timeColumn("created_at", "Created at"),
]);

/** The row menu (writers): each item opens its dialog for the row. */
const menu: MenuItem[] = [
  { label: "Assign Entity", dialog: "assign" },
  { label: "Update IAM role", dialog: "role" },
  { label: "Delete IAM User", dialog: "remove", danger: true },
];

/** The screen: its title, the table's name and rows, the writer's create button. */
export const screen = defineListScreen<IamUser>({ title: "IAM", caption: "IAM users", columns, getRowId: (r) => r.iam_user_id, rowLabel: (r) => r.username, createLabel: "Add IAM User", menu });
