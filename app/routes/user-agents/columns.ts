import { idColumn, listColumns, timeColumn } from "../../components/columns.ts";
import { timeCell } from "../../components/cell.ts";
import { opStateCell } from "../../components/op-state.tsx";
import { formatTime } from "../../lib/format.ts";
import type { UserAgent } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";

/* The user agents table's columns (spec 2 §2 /user-agents), and the same columns for its CSV export. */

// The headers that are sort links: the platform's sortable columns (the fleet's figures are not among them).
export { userAgentSortable as sortable } from "../../../platform/contract/user-agents.ts";
// Hidden by default (the Columns chooser shows them): the creation time, so that the
// spec's other columns and the row menu fit a 1366 px screen; the linked endpoints.
// Spec 2 §2 lists Created at among the visible columns (issue 63 item 22).
export const hideable = ["ep_ids"];

type FleetTime = "op_state_change_at" | "last_auth_time";
/**
 * The fleet's columns may wrap, header and time (date, then time), where the table is narrow: the
 * spec's columns and the row menu fit a 1366 px screen without scrolling the table sideways.
 */
const wraps = "whitespace-normal";
const fleetTime = (id: FleetTime, header: string) => ({
  id,
  header,
  className: wraps,
  cell: (r: UserAgent) => timeCell(r[id]),
  csv: (r: UserAgent) => formatTime(r[id]),
});

export const { columns, csvColumns } = listColumns<UserAgent>([
  { id: "name", header: "User Agent", text: (r) => r.name },
  idColumn("user_agent_id", "User Agent ID"),
  { id: "email", header: "Email", text: (r) => r.email },
  idColumn("app_service_id", "App Service ID"),
  { id: "op_state", header: "OP State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state },
  fleetTime("op_state_change_at", "OP State Changed at"),
  { id: "last_auth_status", header: "Last Auth Status", className: wraps, text: (r) => r.last_auth_status },
  fleetTime("last_auth_time", "Last Auth Time"),
  timeColumn("created_at", "Created at"),
  { id: "ep_ids", header: "Linked Endpoints", hidden: true, text: (r) => r.ep_ids.join(", ") },
]);

/** The row menu (writers): each item opens its dialog for the row. */
const menu: MenuItem[] = [
  { label: "Link", dialog: "link" },
  { label: "Unlink", dialog: "unlink" },
  { label: "Delete", dialog: "remove", danger: true },
];

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<UserAgent>({ title: "User Agents", caption: "User agents", columns, getRowId: (r) => r.user_agent_id, rowLabel: (r) => r.name, createLabel: "Create User Agent", menu });
