import { listColumns, timeColumn } from "../../components/columns.ts";
import { h, timeCell } from "../../components/cell.ts";
import { opStateCell } from "../../components/op-state.tsx";
import { formatTime } from "../../lib/format.ts";
import { formFactorText } from "./node-kind.ts";
import type { ServiceNode } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";

/* The service nodes table (spec 2 §2: its columns, in its order), and the same columns for CSV. */

export { serviceNodeSortable as sortable } from "../../../platform/contract/nodes.ts";
export const hideable: string[] = [];

const mono = (s: string) => h("span", { class: "font-mono text-xs whitespace-nowrap" }, s);

export const { columns, csvColumns } = listColumns<ServiceNode>([
  { id: "service_node_name", header: "Node Name", text: (r) => r.service_node_name, className: "min-w-32" },
  { id: "service_node_id", header: "Service Node Id", cell: (r) => mono(r.service_node_id), csv: (r) => r.service_node_id },
  { id: "service_node_group_id", header: "Service Node Group Id", cell: (r) => mono(r.service_node_group_id), csv: (r) => r.service_node_group_id },
  { id: "admin_state", header: "Admin State", text: (r) => r.admin_state },
  { id: "registered_at", header: "Registered at", className: "whitespace-nowrap", cell: (r) => timeCell(r.registered_at) ?? "Not registered", csv: (r) => formatTime(r.registered_at) },
  { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state },
  { id: "form_factor", header: "Form Factor", text: (r) => formFactorText(r.form_factor) },
  timeColumn("created_at", "Created at"),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<ServiceNode>({ title: "Service Nodes", caption: "Service nodes", columns, getRowId: (r) => r.service_node_id, rowLabel: (r) => r.service_node_name, selection: "single", linkColumn: "service_node_name", plural: "service nodes", createLabel: "Create Service Node", refresh: true });
