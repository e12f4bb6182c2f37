import { lazy, Suspense } from "react";
import { Form, Link, useLocation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DetailsTable } from "../../components/details-table.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { useCanWrite, useHydrated, usePendingIntent } from "../../components/hooks.ts";
import { currentTab, TabPanel, Tabs } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import { dialogHref, hrefWith } from "../../lib/url.ts";
import { KeyValues, LatencyForm } from "./dialogs.tsx";
import { deploymentLabels, protoLabel, topTalkerRanges, type AppService, type Endpoint, type Hosting, type TopTalker } from "./model.ts";

/* One selected App Service (spec 1 §2): Details, Endpoints, Top Talkers, Multi-Hosting, Latency. */

export const tabs = [
  { id: "details", label: "Details" },
  { id: "endpoints", label: "Endpoints" },
  { id: "top-talkers", label: "Top Talkers" },
  { id: "hosting", label: "Multi-Hosting" },
  { id: "latency", label: "Latency" },
] as const;
export const tabIds = tabs.map((t) => t.id);

// chart.js only when the Top Talkers tab renders it.
const TopTalkersChart = lazy(() => import("./chart.tsx"));

const when = (iso: string | null | undefined) => (iso ? <time dateTime={iso}>{formatTime(iso)}</time> : "");

export interface TabData {
  endpoints?: Endpoint[];
  talkers?: TopTalker[];
  range?: string;
  hostings?: Hosting[];
  latency?: Record<string, unknown> | null;
}

export function AppServiceTabs({ service, data }: { service: AppService; data: TabData }) {
  const [params] = useSearchParams();
  const tab = currentTab(params, tabIds);
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <h2 className="text-lg font-semibold">{service.app_service_name}</h2>
        <Tabs label={`App Service ${service.app_service_name}`} tabs={tabs} current={tab} />
        <TabPanel tab={tab}>
          {tab === "details" ? <Details s={service} /> : null}
          {tab === "endpoints" ? <Endpoints endpoints={data.endpoints ?? []} /> : null}
          {tab === "top-talkers" ? <TopTalkers talkers={data.talkers ?? []} range={data.range ?? "1h"} /> : null}
          {tab === "hosting" ? <MultiHosting hostings={data.hostings ?? []} /> : null}
          {tab === "latency" ? <Latency service={service} result={data.latency ?? null} /> : null}
        </TabPanel>
      </div>
    </div>
  );
}

function Details({ s }: { s: AppService }) {
  const specific: { label: string; value: React.ReactNode }[] =
    s.deployment === "aws"
      ? [
          { label: "Region", value: s.region },
          { label: "Endpoint Service Name", value: s.cloud_endpoint_service_name },
        ]
      : s.deployment === "azure"
        ? s.open_ai_private_link
          ? [
              { label: "Region", value: s.region },
              { label: "OpenAI/PaaS", value: "Yes" },
              { label: "Private Endpoint IP", value: s.private_endpoint_ip_address },
              { label: "Remote VNET Resource Id", value: s.remote_vnet_resource_id },
              { label: "Customer User Email", value: s.azure_user_email },
            ]
          : [
              { label: "Region", value: s.region },
              { label: "Private Link Service Id", value: s.cloud_endpoint_service_name },
            ]
        : s.deployment === "onprem"
          ? [
              { label: "FQDN", value: s.fqdn },
              { label: "Service Node Group Id", value: s.service_node_group_id ?? "" },
            ]
          : [
              { label: "Service Node Group Id", value: s.service_node_group_id ?? "" },
              { label: "Real Subnets", value: s.real_subnets.join(", ") },
              { label: "Address Translation", value: s.address_translation_enabled ? "Yes" : "No" },
              { label: "Virtual Subnet Pools", value: s.virtual_subnet_pools.join(", ") },
              { label: "Virtual Subnets", value: s.virtual_subnets.join(", ") },
              { label: "BGP", value: s.bgp_enabled ? "Yes" : "No" },
              { label: "BGP Local ASN", value: s.bgp_local_asn ?? "" },
              { label: "BGP Peer ASN", value: s.bgp_peer_asn ?? "" },
              { label: "BGP Peer IP", value: s.bgp_peer_ip },
            ];
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <section aria-labelledby="as-general">
        <h3 id="as-general" className="mb-2 font-semibold">
          General
        </h3>
        <DetailsTable
          items={[
            { label: "Service Name", value: s.app_service_name },
            { label: "Service ID", value: s.app_service_id },
            { label: "Description", value: s.description },
            { label: "Deployment", value: deploymentLabels[s.deployment] },
            { label: "Protocol", value: s.proto ? protoLabel(s.proto) : "" },
            { label: "Port", value: s.port ?? "" },
            { label: "Admin State", value: s.admin_state },
            { label: "Admin State Change at", value: when(s.admin_state_change_at) },
            { label: "Op State", value: s.op_state },
            { label: "Op State Change at", value: when(s.op_state_change_at) },
            { label: "Size", value: s.size },
            { label: "Health", value: s.health === null ? "" : `${s.health}%` },
            { label: "Created at", value: when(s.created_at) },
          ]}
        />
      </section>
      <section aria-labelledby="as-specific">
        <h3 id="as-specific" className="mb-2 font-semibold">
          Specific
        </h3>
        <DetailsTable items={specific} />
      </section>
      <section aria-labelledby="as-contacts">
        <h3 id="as-contacts" className="mb-2 font-semibold">
          Contacts
        </h3>
        <DetailsTable
          items={[
            { label: "Business Contact", value: s.primary_contact ?? "" },
            { label: "Technical Contact", value: s.secondary_contact ?? "" },
          ]}
        />
      </section>
    </div>
  );
}

function Empty({ cols, children = "No data" }: { cols: number; children?: React.ReactNode }) {
  return (
    <tr>
      <td colSpan={cols} className="text-base-content/70 py-6 text-center">
        {children}
      </td>
    </tr>
  );
}

/** Approve and Reject act on the one endpoint chosen with the radio buttons (a form: works without JS). */
function Endpoints({ endpoints }: { endpoints: Endpoint[] }) {
  const canWrite = useCanWrite();
  const pending = usePendingIntent() === "endpoint";
  const table = (
    <div className="overflow-x-auto">
      <table className="table table-sm" aria-labelledby="as-endpoints">
        <caption id="as-endpoints" className="sr-only">
          Endpoints of the App Service
        </caption>
        <thead>
          <tr>
            {canWrite ? (
              <th scope="col">
                <span className="sr-only">Select</span>
              </th>
            ) : null}
            <th scope="col">EP Name</th>
            <th scope="col">EP Id</th>
            <th scope="col">Deployment</th>
            <th scope="col">Status</th>
            <th scope="col">Op State</th>
            <th scope="col">Created at</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.length === 0 ? (
            <Empty cols={canWrite ? 7 : 6} />
          ) : (
            endpoints.map((e) => (
              <tr key={e.ep_id}>
                {canWrite ? (
                  <td>
                    <input type="radio" name="ep_id" value={e.ep_id} className="radio radio-sm" aria-label={`Select ${e.ep_name}`} />
                  </td>
                ) : null}
                <td>{e.ep_name}</td>
                <td>
                  <code className="text-xs">{e.ep_id}</code>
                </td>
                <td>{e.deployment}</td>
                <td>{e.approval_status}</td>
                <td>{e.op_state}</td>
                <td>{when(e.created_at)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
  if (!canWrite || endpoints.length === 0) return table;
  return (
    <Form method="post" preventScrollReset>
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="intent" value="endpoint" />
      {table}
      <div className="mt-2 flex gap-2">
        <SubmitButton name="decision" value="approve" className="btn btn-primary btn-sm" pending={pending}>
          Approve
        </SubmitButton>
        <SubmitButton name="decision" value="reject" className="btn btn-outline btn-error btn-sm" pending={pending}>
          Reject
        </SubmitButton>
      </div>
    </Form>
  );
}

function TopTalkers({ talkers, range }: { talkers: TopTalker[]; range: string }) {
  const location = useLocation();
  const hydrated = useHydrated();
  return (
    <div>
      <nav aria-label="Time range" className="mb-3">
        <div className="join">
          {topTalkerRanges.map((r) => (
            <Link
              key={r}
              to={hrefWith(location, { range: r })}
              preventScrollReset
              aria-current={r === range ? "true" : undefined}
              className={`btn btn-sm join-item ${r === range ? "btn-primary" : "btn-outline"}`}
            >
              {r}
            </Link>
          ))}
        </div>
      </nav>
      {talkers.length > 0 && hydrated ? (
        <div className="mb-4 h-56">
          <Suspense fallback={<p className="text-sm">Loading chart…</p>}>
            <TopTalkersChart talkers={talkers} />
          </Suspense>
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="table table-sm">
          <caption className="sr-only">Top talkers over {range}</caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">rx_bytes</th>
              <th scope="col">tx_bytes</th>
              <th scope="col">total_bytes</th>
            </tr>
          </thead>
          <tbody>
            {talkers.length === 0 ? (
              <Empty cols={4} />
            ) : (
              talkers.map((t) => (
                <tr key={t.epid}>
                  <td>
                    <code className="text-xs">{t.epid}</code>
                  </td>
                  <td>{t.rx_bytes.toLocaleString("en-US")}</td>
                  <td>{t.tx_bytes.toLocaleString("en-US")}</td>
                  <td>{t.total_bytes.toLocaleString("en-US")}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function MultiHosting({ hostings }: { hostings: Hosting[] }) {
  const location = useLocation();
  const canWrite = useCanWrite();
  return (
    <div>
      {canWrite ? (
        <a href={dialogHref(location, "add-hosting")} className="btn btn-primary btn-sm mb-3">
          Add Hosting
        </a>
      ) : null}
      <div className="overflow-x-auto">
        <table className="table table-sm">
          <caption className="sr-only">Hostings</caption>
          <thead>
            <tr>
              <th scope="col">Hosting Id</th>
              <th scope="col">Priority</th>
              <th scope="col">Type</th>
              <th scope="col">Provider</th>
              <th scope="col">Region / FQDN</th>
              <th scope="col">Size</th>
              <th scope="col">Op State</th>
              {canWrite ? (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {hostings.length === 0 ? (
              <Empty cols={canWrite ? 8 : 7}>No hosting available.</Empty>
            ) : (
              hostings.map((h) => (
                <tr key={h.hosting_id}>
                  <td>
                    <code className="text-xs">{h.hosting_id}</code>
                  </td>
                  <td>{h.priority_id}</td>
                  <td>{h.hosting_type}</td>
                  <td>{h.service_provider}</td>
                  <td>{h.region || h.fqdn}</td>
                  <td>{h.size}</td>
                  <td>{h.op_state}</td>
                  {canWrite ? (
                    <td className="text-right">
                      {h.priority_id === 1 ? null : (
                        <a href={dialogHref(location, "remove-hosting", h.hosting_id)} className="btn btn-outline btn-error btn-xs" aria-label={`Remove hosting ${h.hosting_id}`}>
                          Remove
                        </a>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Latency({ service, result }: { service: AppService; result: Record<string, unknown> | null }) {
  const canWrite = useCanWrite();
  return (
    <div>
      <DetailsTable
        className="mb-3"
        items={[
          { label: "Health", value: service.health === null ? "" : `${service.health}%` },
          { label: "Op State", value: service.op_state },
        ]}
      />
      {canWrite ? <LatencyForm service={service} result={result} /> : result ? <KeyValues values={result} label="Reachability result" /> : null}
    </div>
  );
}
