import { Suspense } from "react";
import { useSearchParams } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import type { Monitoring } from "./node-metrics.ts";
import { formFactorText } from "./node-kind.ts";
import { SERVICE_NODE_TAB_IDS, SERVICE_NODE_TABS, type ServiceNodeAppService, type ServiceNodeDetail, type ServiceNodeEndpoint } from "./model.ts";

/* The selected service node's tabs (spec 2 §2): Details, App Services, Connected Endpoints, Monitoring. */

// The chart kit only on the Monitoring tab (lazyChart: drawn by the server, lazy in the browser).
const NodeMonitoring = lazyChart(() => import("./node-monitoring.tsx").then((m) => m.NodeMonitoring));

const mono = (s: string | null) => (s ? <code className="text-xs">{s}</code> : "");

const appServiceColumns: SimpleColumn<ServiceNodeAppService>[] = [
  { id: "name", header: "Service Name", cell: (s) => s.app_service_name },
  { id: "id", header: "Service ID", cell: (s) => mono(s.app_service_id) },
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
  { id: "id", header: "EP Id", cell: (e) => mono(e.ep_id) },
  { id: "node", header: "EP Node Id", cell: (e) => mono(e.ep_node_id) },
  { id: "admin", header: "Admin State", cell: (e) => e.admin_state },
  { id: "op", header: "Op State", cell: (e) => <OpState value={e.op_state} /> },
  { id: "as", header: "AppService ID", cell: (e) => mono(e.app_service_id) },
  { id: "ip", header: "EP IP Address", cell: (e) => e.ip_addr },
  { id: "created", header: "EP Created at", className: "sm:whitespace-nowrap", cell: (e) => formatTime(e.created_at) },
  { id: "fqdn", header: "App DNS Name", cell: (e) => e.fqdn },
];

function Details({ n }: { n: ServiceNodeDetail }) {
  return (
    <DetailsTable
      items={[
        { label: "Service Node Name", value: n.service_node_name },
        { label: "Service Node Id", value: n.service_node_id },
        { label: "Service Node Group Id", value: n.service_node_group_id },
        { label: "Created at", value: formatTime(n.created_at) },
        { label: "Description", value: n.description },
        { label: "Admin State", value: n.admin_state },
        { label: "Admin State Change at", value: formatTime(n.admin_state_change_at) },
        { label: "OP State", value: <OpState value={n.op_state} /> },
        { label: "OP State Change at", value: formatTime(n.op_state_change_at) },
        { label: "Registered at", value: n.registered_at ? formatTime(n.registered_at) : "Not registered" },
        { label: "Account Id", value: n.account_id },
        { label: "Private IP", value: n.private_ip },
        { label: "Form Factor", value: formFactorText(n.form_factor) },
        { label: "Shipping Addr", value: n.shipping_addr },
      ]}
    />
  );
}

export function ServiceNodeTabs({ node, monitoring }: { node: ServiceNodeDetail; monitoring: Monitoring | null }) {
  const [params] = useSearchParams();
  const tab = currentTab(params, SERVICE_NODE_TAB_IDS);
  return (
    <SubjectTabs name={node.service_node_name} label={`Service node ${node.service_node_name}`} tabs={SERVICE_NODE_TABS} current={tab}>
      {tab === "details" ? <Details n={node} /> : null}
      {tab === "app-services" ? <SimpleTable caption={`App services of ${node.service_node_name}`} columns={appServiceColumns} rows={node.app_services} getRowId={(s) => s.app_service_id} /> : null}
      {tab === "endpoints" ? <SimpleTable caption={`Connected endpoints of ${node.service_node_name}`} columns={endpointColumns} rows={node.endpoints} getRowId={(e) => e.ep_id} /> : null}
      {tab === "monitoring" && monitoring ? (
        <Suspense fallback={<p>Loading the charts…</p>}>
          <NodeMonitoring charts={monitoring.charts} range={monitoring.range} error={monitoring.error} />
        </Suspense>
      ) : null}
    </SubjectTabs>
  );
}
