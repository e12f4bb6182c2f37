import { OpState } from "../../components/op-state.tsx";
import { simpleIdColumn, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { serviceKind, serviceNodeView } from "./node-kind.ts";
import { defineNodeScreen, formFactorItems, identityItems, stateItems, tabTable } from "./node-screen.tsx";
import { screen, tableFields } from "./columns.ts";
import { SERVICE_NODE_TABS, type ServiceNode, type ServiceNodeAppService, type ServiceNodeDetail, type ServiceNodeEndpoint } from "./model.ts";

/* /service-nodes as a node screen (node-screen.tsx): the selected node's tabs (spec 2 §2) Details, App Services, Connected Endpoints, Monitoring. */

const appServiceColumns: SimpleColumn<ServiceNodeAppService>[] = [
  { id: "name", header: "Service Name", cell: (s) => s.app_service_name },
  simpleIdColumn("id", "Service ID", (s) => s.app_service_id),
  { id: "deployment", header: "Deployment", cell: (s) => s.deployment },
  { id: "admin", header: "Admin State", cell: (s) => s.admin_state },
  { id: "changed", header: "Last change", className: "sm:whitespace-nowrap", cell: (s) => formatTime(s.admin_state_change_at) },
  { id: "op", header: "Op State", cell: (s) => <OpState value={s.op_state} /> },
  { id: "fqdn", header: "App DNS or IP", cell: (s) => s.fqdn },
  { id: "proto", header: "App protocol", cell: (s) => s.proto },
  { id: "port", header: "App port", cell: (s) => (s.port === null ? "" : String(s.port)) },
];

const endpointColumns: SimpleColumn<ServiceNodeEndpoint>[] = [
  { id: "name", header: "EP Name", cell: (e) => e.ep_name },
  simpleIdColumn("id", "EP Id", (e) => e.ep_id),
  simpleIdColumn("node", "EP Node Id", (e) => e.ep_node_id),
  { id: "admin", header: "Admin State", cell: (e) => e.admin_state },
  { id: "op", header: "Op State", cell: (e) => <OpState value={e.op_state} /> },
  simpleIdColumn("as", "AppService ID", (e) => e.app_service_id),
  { id: "ip", header: "EP IP Address", cell: (e) => e.ip_addr },
  { id: "created", header: "EP Created at", className: "sm:whitespace-nowrap", cell: (e) => formatTime(e.created_at) },
  { id: "fqdn", header: "App DNS Name", cell: (e) => e.fqdn },
];

export const serviceNodes = defineNodeScreen<ServiceNode, ServiceNodeDetail>({ info: serviceKind, screen, view: serviceNodeView, tabs: SERVICE_NODE_TABS, fields: tableFields }, {
  // The Details fields in spec 2 §2's order.
  details: (n) => [
    ...identityItems(serviceNodeView(n), ["Service Node Name", "Service Node Id", "Service Node Group Id"], n.service_node_group_id, n.created_at),
    { label: "Description", value: n.description },
    ...stateItems(n),
    { label: "Private IP", value: n.private_ip },
    ...formFactorItems(n),
  ],
  tables: {
    "app-services": tabTable("App services", appServiceColumns, (n) => n.app_services, (s) => s.app_service_id),
    endpoints: tabTable("Connected endpoints", endpointColumns, (n) => n.endpoints, (e) => e.ep_id),
  },
});
