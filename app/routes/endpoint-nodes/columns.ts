import { listColumns, timeColumn } from "../../components/columns.ts";
import { h, timeCell } from "../../components/cell.ts";
import { opStateCell } from "../../components/op-state.tsx";
import { formatTime } from "../../lib/format.ts";
import { formFactorText } from "../service-nodes/node-kind.ts";
import type { EndpointNode } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";

/* The endpoint nodes table (spec 2 §3 Endpoint node), and the same columns for its CSV export. */

export { endpointNodeSortable as sortable } from "../../../platform/contract/nodes.ts";
export const hideable = ["created_at"];

const mono = (s: string) => h("span", { class: "font-mono text-xs whitespace-nowrap" }, s);

export const { columns, csvColumns } = listColumns<EndpointNode>([
  { id: "ep_node_name", header: "Node Name", text: (r) => r.ep_node_name, className: "min-w-32" },
  { id: "ep_node_id", header: "Endpoint Node Id", cell: (r) => mono(r.ep_node_id), csv: (r) => r.ep_node_id },
  { id: "ep_node_group_id", header: "Node Group", text: (r) => r.ep_node_group_name || r.ep_node_group_id },
  { header: "Node Group Id", value: (r) => r.ep_node_group_id },
  { id: "admin_state", header: "Admin State", text: (r) => r.admin_state },
  { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state },
  { id: "primary_ip", header: "Primary IP", text: (r) => r.primary_ip },
  { header: "Secondary IPs", value: (r) => r.secondary_ips.join(", ") },
  { id: "form_factor", header: "Form Factor", text: (r) => formFactorText(r.form_factor) },
  { id: "registered_at", header: "Registered at", className: "whitespace-nowrap", cell: (r) => timeCell(r.registered_at) ?? "Not registered", csv: (r) => formatTime(r.registered_at) },
  timeColumn("created_at", "Created at", { hidden: true }),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<EndpointNode>({ title: "Endpoint Nodes", caption: "Endpoint nodes", columns, getRowId: (r) => r.ep_node_id, rowLabel: (r) => r.ep_node_name, selection: "single", linkColumn: "ep_node_name", plural: "endpoint nodes", createLabel: "Create Endpoint Node", refresh: true });
