import { idColumn, listColumns } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import { nodeColumns } from "../service-nodes/node-columns.ts";
import type { EndpointNode } from "./model.ts";

/* The endpoint nodes table (spec 2 §3 Endpoint node), and the same columns for its CSV export. */

export { endpointNodeSortable as sortable } from "../../../platform/contract/nodes.ts";
export const hideable = ["created_at"];

const c = nodeColumns<EndpointNode>();

export const { columns, csvColumns } = listColumns<EndpointNode>([
  { id: "ep_node_name", header: "Node Name", text: (r) => r.ep_node_name, className: "min-w-32" },
  idColumn("ep_node_id", "Endpoint Node Id"),
  { id: "ep_node_group_id", header: "Node Group", text: (r) => r.ep_node_group_name || r.ep_node_group_id },
  { header: "Node Group Id", value: (r) => r.ep_node_group_id },
  c.admin,
  c.op,
  { id: "primary_ip", header: "Primary IP", text: (r) => r.primary_ip },
  { header: "Secondary IPs", value: (r) => r.secondary_ips.join(", ") },
  c.formFactor,
  c.registered,
  c.created(true),
]);

/** What the table and the row menu read of a row (the menu: the id and the form factor). */
export const tableFields = ["ep_node_id", "ep_node_name", "ep_node_group_id", "ep_node_group_name", "admin_state", "op_state", "primary_ip", "form_factor", "registered_at", "created_at"] as const;

/** The screen: its title, the table's name and rows, the writer's buttons; a readonly user's menu (Test Node Health). */
export const screen = defineListScreen<EndpointNode>({ title: "Endpoint Nodes", caption: "Endpoint nodes", columns, getRowId: (r) => r.ep_node_id, rowLabel: (r) => r.ep_node_name, selection: "single", linkColumn: "ep_node_name", plural: "endpoint nodes", createLabel: "Create Endpoint Node", refresh: true, readableMenu: true });
