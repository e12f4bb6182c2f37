import { Form, useLocation } from "react-router";
import { DetailsTable, type DetailsItem } from "../../components/details-table.tsx";
import { ErrorOr } from "../../components/error-text.tsx";
import { OpState } from "../../components/op-state.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { defineTabs, useTab } from "../../components/tabs.tsx";
import { formatBytes, formatTime } from "../../lib/format.ts";
import { keptParams } from "../../lib/url.ts";
import { contactItems } from "../services-shared/details.ts";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { deploymentLabel, NETFLOW_RANGES, type EndpointDetail, type EndpointUserAgent, type NetflowRow } from "./model.ts";

/*
 * The selected endpoint's tabs (spec 1 §2): Details (accordions General, Specific, Contacts as
 * <details>, which open and close without JavaScript), Netflows (get-ep-sessions over a range
 * chosen with a GET form) and Agents (the user agents linked to the endpoint).
 */

export const tabs = defineTabs({ details: "Details", netflows: "Netflows", agents: "Agents" });

const list = (items: string[]) => items.join(", ");
const yes = (b: boolean) => (b ? "Enabled" : "Disabled");

function specificItems(ep: EndpointDetail): DetailsItem[] {
  switch (ep.deployment) {
    case "agent":
      return [
        { label: "DNS Servers", value: list(ep.user_agent_dns_servers) },
        { label: "CIDRs", value: list(ep.user_agent_cidrs) },
      ];
    case "onprem":
      return [
        { label: "Node Group", value: ep.ep_node_group_name || ep.ep_node_group_id },
        { label: "Node", value: ep.ep_node_id },
      ];
    case "aws":
      return [
        { label: "Region", value: ep.region },
        { label: "Allowed Principal", value: ep.consumer_principle },
      ];
    case "azure":
      return [
        { label: "Region", value: ep.region },
        { label: "Subscription Id", value: ep.consumer_principle },
      ];
    case "network":
      return [
        { label: "Node Group", value: ep.ep_node_group_name || ep.ep_node_group_id },
        { label: "Node", value: ep.ep_node_id },
        { label: "Real Subnets", value: list(ep.real_subnets) },
        { label: "Virtual Subnets", value: list(ep.virtual_subnets) },
        { label: "Address Translation", value: yes(ep.address_translation_enabled) },
        { label: "BGP", value: yes(ep.bgp_enabled) },
        { label: "Local ASN", value: ep.bgp_local_asn === null ? "" : String(ep.bgp_local_asn) },
        { label: "Peer ASN", value: ep.bgp_peer_asn === null ? "" : String(ep.bgp_peer_asn) },
        { label: "Local IP", value: ep.bgp_local_ip },
        { label: "Peer IP", value: ep.bgp_peer_ip },
        { label: "Advertised Routes", value: list(ep.bgp_advertised_routes) },
      ];
    default:
      return [];
  }
}

function Accordion({ title, children, open = false }: { title: string; children: React.ReactNode; open?: boolean }) {
  return (
    <details className="collapse collapse-arrow border-base-300 border" open={open}>
      <summary className="collapse-title font-semibold">{title}</summary>
      <div className="collapse-content">{children}</div>
    </details>
  );
}

export function EndpointTabs({ ep, netflows, netflowsError, range }: { ep: EndpointDetail; netflows: NetflowRow[]; netflowsError: string | null; range: string }) {
  const tab = useTab(tabs);
  return (
    <SubjectTabs name={ep.ep_name} label={`Endpoint ${ep.ep_name}`} tabs={tabs.list} current={tab}>
      {tab === "details" ? <DetailsPanel ep={ep} /> : null}
      {tab === "netflows" ? <NetflowsPanel ep={ep} rows={netflows} error={netflowsError} range={range} /> : null}
      {tab === "agents" ? <AgentsPanel ep={ep} /> : null}
    </SubjectTabs>
  );
}

function DetailsPanel({ ep }: { ep: EndpointDetail }) {
  return (
    <div className="space-y-2">
      <Accordion title="General" open>
        <DetailsTable
          items={[
            { label: "EP Name", value: ep.ep_name },
            { label: "EP Id", value: ep.ep_id },
            { label: "Description", value: ep.description },
            { label: "Deployment", value: deploymentLabel(ep.deployment) },
            { label: "App Service", value: ep.app_service_name ? `${ep.app_service_name} (${ep.app_service_id})` : ep.app_service_id },
            { label: "Hosting", value: ep.hosting_id },
            { label: "FQDN", value: ep.fqdn },
            { label: "IP Address", value: ep.ip_addr },
            { label: "Admin State", value: ep.admin_state },
            { label: "Op State", value: <OpState value={ep.op_state} /> },
            { label: "Op State Changed", value: formatTime(ep.op_state_change_at) },
            { label: "Size", value: ep.size },
            { label: "Approval", value: ep.approval_status },
            { label: "Advanced Visibility", value: yes(ep.proxying_enabled) },
            { label: "Created at", value: formatTime(ep.created_at) },
          ]}
        />
      </Accordion>
      <Accordion title="Specific">
        <DetailsTable items={specificItems(ep)} />
      </Accordion>
      <Accordion title="Contacts">
        <DetailsTable items={contactItems(ep)} />
      </Accordion>
    </div>
  );
}

const netflowColumns: SimpleColumn<NetflowRow>[] = [
  { id: "start", header: "Start", className: "sm:whitespace-nowrap", cell: (r) => formatTime(r.start_time) },
  { id: "end", header: "End", className: "sm:whitespace-nowrap", cell: (r) => formatTime(r.end_time) },
  { id: "src", header: "Source", cell: (r) => `${r.src_addr}:${r.src_port}` },
  { id: "dst", header: "Destination", cell: (r) => `${r.dst_addr}:${r.dst_port}` },
  { id: "proto", header: "Protocol", cell: (r) => r.proto },
  { id: "app", header: "Application", cell: (r) => r.app_name },
  { id: "tx", header: "Tx", cell: (r) => formatBytes(r.tx_bytes) },
  { id: "rx", header: "Rx", cell: (r) => formatBytes(r.rx_bytes) },
];

function NetflowsPanel({ ep, rows, error, range }: { ep: EndpointDetail; rows: NetflowRow[]; error: string | null; range: string }) {
  const location = useLocation();
  return (
    <>
      <Form method="get" className="mb-3 flex flex-wrap items-end gap-2" preventScrollReset>
        {keptParams(location.search, ["range"]).map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        <label className="fieldset p-0">
          <span className="fieldset-legend">Time range</span>
          <select name="range" defaultValue={range} className="select select-sm w-28">
            {NETFLOW_RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-sm">
          Show
        </button>
      </Form>
      <ErrorOr error={error}>
        <SimpleTable caption={`Netflows of ${ep.ep_name}`} scrollRegion={`Netflows of ${ep.ep_name}`} columns={netflowColumns} rows={rows} getRowId={(_, i) => String(i)} />
      </ErrorOr>
    </>
  );
}

const agentColumns: SimpleColumn<EndpointUserAgent>[] = [
  { id: "name", header: "Name", cell: (u) => u.name },
  { id: "email", header: "Email", cell: (u) => u.email },
  { id: "description", header: "Description", cell: (u) => u.description },
  { id: "admin_state", header: "Admin State", cell: (u) => u.admin_state },
  { id: "op_state", header: "Op State", cell: (u) => <OpState value={u.op_state} /> },
  { id: "last_auth_time", header: "Last Auth", className: "sm:whitespace-nowrap", cell: (u) => formatTime(u.last_auth_time) },
  { id: "last_auth_status", header: "Last Auth Status", cell: (u) => u.last_auth_status },
  { id: "created_at", header: "Created at", className: "sm:whitespace-nowrap", cell: (u) => formatTime(u.created_at) },
];

function AgentsPanel({ ep }: { ep: EndpointDetail }) {
  return <SimpleTable caption={`User agents of ${ep.ep_name}`} columns={agentColumns} rows={ep.user_agents} getRowId={(u) => u.user_agent_id} />;
}
