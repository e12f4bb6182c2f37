import { OpState } from "../../components/op-state.tsx";
import { simpleIdColumn, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { endpointKind, endpointNodeView } from "../service-nodes/node-kind.ts";
import { defineNodeScreen, formFactorItems, identityItems, stateItems, tabTable } from "../service-nodes/node-screen.tsx";
import { screen, tableFields } from "./columns.ts";
import { ENDPOINT_NODE_TABS, LAN, type EndpointNode, type EndpointNodeDetail, type EndpointNodeEndpoint } from "./model.ts";

/* /endpoint-nodes as a node screen (../service-nodes/node-screen.tsx): its tabs (spec 2 §2) Details, Endpoints, Monitoring, and its own row actions. */

const endpointColumns: SimpleColumn<EndpointNodeEndpoint>[] = [
  { id: "name", header: "EP Name", cell: (e) => e.ep_name },
  simpleIdColumn("id", "EP Id", (e) => e.ep_id),
  simpleIdColumn("as", "App Service Id", (e) => e.app_service_id),
  { id: "deployment", header: "Deployment", cell: (e) => e.deployment },
  { id: "admin", header: "Admin State", cell: (e) => e.admin_state },
  { id: "op", header: "Op State", cell: (e) => <OpState value={e.op_state} /> },
  { id: "ip", header: "IP Address", cell: (e) => e.ip_addr },
  { id: "created", header: "Created at", className: "sm:whitespace-nowrap", cell: (e) => formatTime(e.created_at) },
];

const hosted = (n: EndpointNodeDetail) =>
  n.form_factor === "hosted_aws"
    ? [
        { label: "Hosted Region", value: n.hosted_region },
        { label: "VPC CIDR", value: n.hosted_vpc_cidr },
        { label: "Peer IP", value: n.hosted_peer_ip ? `${n.hosted_peer_ip}/${n.hosted_peer_prefix ?? ""}` : "" },
      ]
    : [];

export const endpointNodes = defineNodeScreen<EndpointNode, EndpointNodeDetail>({ info: endpointKind, screen, view: endpointNodeView, tabs: ENDPOINT_NODE_TABS, fields: tableFields }, {
  details: (n) => [
    ...identityItems(endpointNodeView(n), ["Node Name", "Endpoint Node Id", "Node Group"], n.ep_node_group_name ? `${n.ep_node_group_name} (${n.ep_node_group_id})` : n.ep_node_group_id, n.created_at),
    ...stateItems(n),
    { label: "Primary IP", value: n.primary_ip },
    { label: "Secondary IPs", value: n.secondary_ips.join(", ") },
    { label: "LAN Interface", value: n.lan_interface_enabled ? `Enabled (${n.lan_interface_ipaddress})` : "Disabled" },
    ...formFactorItems(n),
    ...hosted(n),
  ],
  tables: { endpoints: tabTable("Endpoints", endpointColumns, (n) => n.endpoints, (e) => e.ep_id) },
  ownMenu: [[{ label: "Add Secondary IPs", dialog: "secondary-ips" }], [{ label: LAN.title, dialog: "lan" }]],
});
