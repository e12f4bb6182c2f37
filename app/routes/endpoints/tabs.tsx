import { Form, useLocation, useSearchParams } from "react-router";
import { DetailsTable, type DetailsItem } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { currentTab, TabPanel, Tabs } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import { keptParams } from "../../lib/url.ts";
import { deploymentLabel, NETFLOW_RANGES, type EndpointDetail, type NetflowRow } from "./model.ts";

/*
 * The selected endpoint's tabs (spec 1 §2): Details (accordions General, Specific, Contacts as
 * <details>, which open and close without JavaScript), Netflows (get-ep-sessions over a range
 * chosen with a GET form) and Agents (the user agents linked to the endpoint).
 */

export const TAB_IDS = ["details", "netflows", "agents"] as const;
const tabs = [
  { id: "details", label: "Details" },
  { id: "netflows", label: "Netflows" },
  { id: "agents", label: "Agents" },
];

const UNITS = ["B", "KB", "MB", "GB", "TB"];
export function formatBytes(n: number): string {
  let v = n;
  let i = 0;
  while (v >= 1000 && i < UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${UNITS[i]}`;
}

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
  const [params] = useSearchParams();
  const tab = currentTab(params, TAB_IDS);
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <h2 className="text-lg font-semibold">{ep.ep_name}</h2>
        {/* daisyUI's inactive tab text is too faint for AA contrast: at least /80 of the text colour. */}
        <div className="[&_.tab:not(.tab-active)]:text-base-content/80">
          <Tabs label={`Endpoint ${ep.ep_name}`} tabs={tabs} current={tab} />
        </div>
        <TabPanel tab={tab}>
          {tab === "details" ? <DetailsPanel ep={ep} /> : null}
          {tab === "netflows" ? <NetflowsPanel ep={ep} rows={netflows} error={netflowsError} range={range} /> : null}
          {tab === "agents" ? <AgentsPanel ep={ep} /> : null}
        </TabPanel>
      </div>
    </div>
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
        <DetailsTable
          items={[
            { label: "Business Contact", value: ep.primary_contact ?? "" },
            { label: "Technical Contact", value: ep.secondary_contact ?? "" },
          ]}
        />
      </Accordion>
    </div>
  );
}

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
      {error ? (
        <p role="alert" className="text-error">
          {error}
        </p>
      ) : (
        <div className="kit-table-wrap max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label={`Netflows of ${ep.ep_name}`}>
          <table className="kit-table table table-sm">
            <caption className="sr-only">Netflows of {ep.ep_name}</caption>
            <thead>
              <tr>
                <th scope="col">Start</th>
                <th scope="col">End</th>
                <th scope="col">Source</th>
                <th scope="col">Destination</th>
                <th scope="col">Protocol</th>
                <th scope="col">Application</th>
                <th scope="col">Tx</th>
                <th scope="col">Rx</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8} className="text-base-content/70 py-6 text-center">
                    No data
                  </td>
                </tr>
              ) : (
                rows.map((r, i) => (
                  <tr key={i}>
                    <td className="kit-cell-name whitespace-nowrap">{formatTime(r.start_time)}</td>
                    <td data-label="End" className="whitespace-nowrap">
                      {formatTime(r.end_time)}
                    </td>
                    <td data-label="Source">
                      {r.src_addr}:{r.src_port}
                    </td>
                    <td data-label="Destination">
                      {r.dst_addr}:{r.dst_port}
                    </td>
                    <td data-label="Protocol">{r.proto}</td>
                    <td data-label="Application">{r.app_name}</td>
                    <td data-label="Tx">{formatBytes(r.tx_bytes)}</td>
                    <td data-label="Rx">{formatBytes(r.rx_bytes)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function AgentsPanel({ ep }: { ep: EndpointDetail }) {
  return (
    <div className="kit-table-wrap">
      <table className="kit-table table table-sm">
        <caption className="sr-only">User agents of {ep.ep_name}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Description</th>
            <th scope="col">Admin State</th>
            <th scope="col">Op State</th>
            <th scope="col">Last Auth</th>
            <th scope="col">Last Auth Status</th>
            <th scope="col">Created at</th>
          </tr>
        </thead>
        <tbody>
          {ep.user_agents.length === 0 ? (
            <tr>
              <td colSpan={8} className="text-base-content/70 py-6 text-center">
                No data
              </td>
            </tr>
          ) : (
            ep.user_agents.map((u) => (
              <tr key={u.user_agent_id}>
                <td className="kit-cell-name">{u.name}</td>
                <td data-label="Email">{u.email}</td>
                <td data-label="Description">{u.description}</td>
                <td data-label="Admin State">{u.admin_state}</td>
                <td data-label="Op State">
                  <OpState value={u.op_state} />
                </td>
                <td data-label="Last Auth" className="whitespace-nowrap">
                  {formatTime(u.last_auth_time)}
                </td>
                <td data-label="Last Auth Status">{u.last_auth_status}</td>
                <td data-label="Created at" className="whitespace-nowrap">
                  {formatTime(u.created_at)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
