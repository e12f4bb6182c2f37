import { idColumn, listColumns, timeColumn } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import { EMPTY, type ServiceNodeGroupRow } from "./model.ts";

/* The service node groups table (spec 2 §2: its columns), and the same columns for its CSV export. */

// The headers that are sort links: the platform's sortable columns.
export { serviceNodeGroupSortable as sortable } from "../../../platform/contract/nodes.ts";
export const hideable: string[] = [];

export const { columns, csvColumns } = listColumns<ServiceNodeGroupRow>([
  { id: "service_node_group_name", header: "Node Group Name", text: (r) => r.service_node_group_name, className: "min-w-32" },
  idColumn("service_node_group_id", "Node Group Id"),
  { id: "external_certificate", header: "External Certificate", text: (r) => (r.external_certificate ? "Yes" : "No") },
  timeColumn("created_at", "Created at"),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<ServiceNodeGroupRow>({ title: "Manage Service Node Groups", caption: "Service node groups", columns, getRowId: (r) => r.service_node_group_id, rowLabel: (r) => r.service_node_group_name, selection: "single", linkColumn: "service_node_group_name", emptyMessage: EMPTY, plural: "service node groups" });
