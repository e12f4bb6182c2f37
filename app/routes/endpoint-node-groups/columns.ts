import { idColumn, listColumns, timeColumn } from "../../components/columns.ts";
import type { EndpointNodeGroup } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";

/* The endpoint node groups table (spec 2 §3 Endpoint node group), and the same columns for its CSV export. */

// The headers that are sort links: the platform's sortable columns.
export { endpointNodeGroupSortable as sortable } from "../../../platform/contract/nodes.ts";
export const hideable: string[] = [];

const state = (enabled: boolean, ip: string | null) => (enabled ? `Enabled (${ip ?? ""})` : "Disabled");

export const { columns, csvColumns } = listColumns<EndpointNodeGroup>([
  { id: "ep_node_group_name", header: "Node Group Name", text: (r) => r.ep_node_group_name, className: "min-w-32" },
  idColumn("ep_node_group_id", "Node Group Id"),
  { id: "dhcp_relay_enabled", header: "DHCP Relay", text: (r) => state(r.dhcp_relay_enabled, r.dhcp_relay_server_ip) },
  { id: "vrrp_enabled", header: "VRRP", text: (r) => state(r.vrrp_enabled, r.vrrp_virtual_ip) },
  timeColumn("created_at", "Created at"),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<EndpointNodeGroup>({ title: "Manage Endpoint Node Groups", caption: "Endpoint node groups", columns, getRowId: (r) => r.ep_node_group_id, rowLabel: (r) => r.ep_node_group_name });
