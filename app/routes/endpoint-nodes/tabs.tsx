import { Suspense } from "react";
import { useSearchParams } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import type { Monitoring } from "../service-nodes/node-metrics.ts";
import { formFactorText } from "../service-nodes/node-kind.ts";
import { ENDPOINT_NODE_TAB_IDS, ENDPOINT_NODE_TABS, type EndpointNodeDetail, type EndpointNodeEndpoint } from "./model.ts";

/* The selected endpoint node's tabs (spec 2 §2): Details, Endpoints, Monitoring. */

const NodeMonitoring = lazyChart(() => import("../service-nodes/node-monitoring.tsx").then((m) => m.NodeMonitoring));

const endpointColumns: SimpleColumn<EndpointNodeEndpoint>[] = [
  { id: "name", header: "EP Name", cell: (e) => e.ep_name },
  { id: "id", header: "EP Id", cell: (e) => <code className="text-xs">{e.ep_id}</code> },
  { id: "as", header: "App Service Id", cell: (e) => <code className="text-xs">{e.app_service_id}</code> },
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

function Details({ n }: { n: EndpointNodeDetail }) {
  return (
    <DetailsTable
      items={[
        { label: "Node Name", value: n.ep_node_name },
        { label: "Endpoint Node Id", value: n.ep_node_id },
        { label: "Node Group", value: n.ep_node_group_name ? `${n.ep_node_group_name} (${n.ep_node_group_id})` : n.ep_node_group_id },
        { label: "Created at", value: formatTime(n.created_at) },
        { label: "Admin State", value: n.admin_state },
        { label: "Admin State Change at", value: formatTime(n.admin_state_change_at) },
        { label: "OP State", value: <OpState value={n.op_state} /> },
        { label: "OP State Change at", value: formatTime(n.op_state_change_at) },
        { label: "Registered at", value: n.registered_at ? formatTime(n.registered_at) : "Not registered" },
        { label: "Account Id", value: n.account_id },
        { label: "Primary IP", value: n.primary_ip },
        { label: "Secondary IPs", value: n.secondary_ips.join(", ") },
        { label: "LAN Interface", value: n.lan_interface_enabled ? `Enabled (${n.lan_interface_ipaddress})` : "Disabled" },
        { label: "Form Factor", value: formFactorText(n.form_factor) },
        { label: "Shipping Addr", value: n.shipping_addr },
        ...hosted(n),
      ]}
    />
  );
}

export function EndpointNodeTabs({ node, monitoring }: { node: EndpointNodeDetail; monitoring: Monitoring | null }) {
  const [params] = useSearchParams();
  const tab = currentTab(params, ENDPOINT_NODE_TAB_IDS);
  return (
    <SubjectTabs name={node.ep_node_name} label={`Endpoint node ${node.ep_node_name}`} tabs={ENDPOINT_NODE_TABS} current={tab}>
      {tab === "details" ? <Details n={node} /> : null}
      {tab === "endpoints" ? <SimpleTable caption={`Endpoints of ${node.ep_node_name}`} columns={endpointColumns} rows={node.endpoints} getRowId={(e) => e.ep_id} /> : null}
      {tab === "monitoring" && monitoring ? (
        <Suspense fallback={<p>Loading the charts…</p>}>
          <NodeMonitoring charts={monitoring.charts} range={monitoring.range} error={monitoring.error} />
        </Suspense>
      ) : null}
    </SubjectTabs>
  );
}
