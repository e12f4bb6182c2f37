import { Suspense } from "react";
import { useLocation } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { RangeToggle } from "../../components/chart/range-toggle.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { formatBytes, formatNumber } from "../../lib/format.ts";
import { useCanWrite } from "../../components/hooks.ts";
import { SimpleTable, simpleIdColumn, type SimpleColumn } from "../../components/simple-table.tsx";
import { defineTabs, useTab } from "../../components/tabs.tsx";
import { dialogHref } from "../../lib/url.ts";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { Details, when } from "./details.tsx";
import { topTalkerRanges, type AppService, type Endpoint, type Hosting, type NamedTalker } from "./model.ts";

/* One selected App Service (spec 1 §2): Details, Endpoints, Top Talkers, Multi-Hosting, Latency. */

export const tabs = defineTabs({ details: "Details", endpoints: "Endpoints", "top-talkers": "Top Talkers", hosting: "Multi-Hosting", latency: "Latency" });

// The chart kit only where the Top Talkers tab renders it: the Details tab loads no chart code
// (bench: ≤ 150 KB gzip; a static import of the kit made it 171 KB). lazyChart: lazy in the
// browser, loaded at start on the server, so the server still draws the SVG without JavaScript.
const TopTalkersChart = lazyChart(() => import("./chart.tsx").then((m) => m.TopTalkersChart));
// The same for the forms of the Endpoints and Latency tabs: the Details tab loads no form code.
const DecisionForm = lazyChart(() => import("../services-shared/decision.tsx").then((m) => m.DecisionForm));
const LatencyForm = lazyChart(() => import("../services-shared/dialogs.tsx").then((m) => m.LatencyForm));


export interface TabData {
  endpoints?: Endpoint[];
  talkers?: NamedTalker[];
  range?: string;
  hostings?: Hosting[];
  latency?: Record<string, unknown> | null;
}

export function AppServiceTabs({ service, data }: { service: AppService; data: TabData }) {
  const tab = useTab(tabs);
  return (
    <SubjectTabs name={service.app_service_name} label={`App Service ${service.app_service_name}`} tabs={tabs.list} current={tab}>
      {tab === "details" ? <Details s={service} /> : null}
      {tab === "endpoints" ? <Endpoints endpoints={data.endpoints ?? []} /> : null}
      {tab === "top-talkers" ? <TopTalkers talkers={data.talkers ?? []} range={data.range ?? "1h"} /> : null}
      {tab === "hosting" ? <MultiHosting hostings={data.hostings ?? []} /> : null}
      {tab === "latency" ? <Latency service={service} result={data.latency ?? null} /> : null}
    </SubjectTabs>
  );
}

const endpointColumns: SimpleColumn<Endpoint>[] = [
  { id: "ep_name", header: "EP Name", cell: (e) => e.ep_name },
  simpleIdColumn("ep_id", "EP Id", (e) => e.ep_id),
  { id: "deployment", header: "Deployment", cell: (e) => e.deployment },
  { id: "approval_status", header: "Status", cell: (e) => e.approval_status },
  { id: "op_state", header: "Op State", cell: (e) => <OpState value={e.op_state} /> },
  { id: "created_at", header: "Created at", className: "sm:whitespace-nowrap", cell: (e) => when(e.created_at) },
];
// Writers choose one endpoint to approve or reject.
const endpointChoiceColumns: SimpleColumn<Endpoint>[] = [
  { id: "pick", header: "Select", kind: "select", cell: (e) => <input type="radio" name="ep_id" value={e.ep_id} className="radio radio-sm" aria-label={`Select ${e.ep_name}`} /> },
  ...endpointColumns,
];

/** Approve and Reject act on the one endpoint chosen with the radio buttons (a form: works without JS). */
function Endpoints({ endpoints }: { endpoints: Endpoint[] }) {
  const canWrite = useCanWrite();
  const table = <SimpleTable caption="Endpoints of the App Service" columns={canWrite ? endpointChoiceColumns : endpointColumns} rows={endpoints} getRowId={(e) => e.ep_id} />;
  if (!canWrite || endpoints.length === 0) return table;
  return (
    <Suspense fallback={table}>
      <DecisionForm intent="endpoint">{table}</DecisionForm>
    </Suspense>
  );
}

// Bytes in units of 1024 with the exact count beside (spec 1: '10 GB (10737418240 bytes)').
const bytes = (n: number) => (Math.abs(n) < 1024 ? formatBytes(n) : `${formatBytes(n)} (${formatNumber(n)} bytes)`);
const talkerColumns: SimpleColumn<NamedTalker>[] = [
  { id: "name", header: "Endpoint", kind: "name", cell: (t) => t.name },
  simpleIdColumn("epid", "Endpoint ID", (t) => t.epid),
  { id: "rx_bytes", header: "Rx", cell: (t) => bytes(t.rx_bytes) },
  { id: "tx_bytes", header: "Tx", cell: (t) => bytes(t.tx_bytes) },
  { id: "total_bytes", header: "Total", cell: (t) => bytes(t.total_bytes) },
];

function TopTalkers({ talkers, range }: { talkers: NamedTalker[]; range: string }) {
  // The chart kit: the server's SVG, chart.js (loaded lazily) once the page runs JavaScript.
  return (
    <div>
      <div className="mb-3">
        <RangeToggle ranges={topTalkerRanges} current={range} />
      </div>
      <div className="mb-4">
        <Suspense fallback={null}>
          <TopTalkersChart talkers={talkers} range={range} />
        </Suspense>
      </div>
      <SimpleTable caption={`Top talkers over ${range}`} columns={talkerColumns} rows={talkers} getRowId={(t) => t.epid} />
    </div>
  );
}

const hostingColumns: SimpleColumn<Hosting>[] = [
  simpleIdColumn("hosting_id", "Hosting Id", (h) => h.hosting_id),
  { id: "priority_id", header: "Priority", cell: (h) => h.priority_id },
  { id: "hosting_type", header: "Type", cell: (h) => h.hosting_type },
  { id: "service_provider", header: "Provider", cell: (h) => h.service_provider },
  { id: "where", header: "Region / FQDN", cell: (h) => h.region || h.fqdn },
  { id: "size", header: "Size", cell: (h) => h.size },
  { id: "op_state", header: "Op State", cell: (h) => <OpState value={h.op_state} /> },
];

function MultiHosting({ hostings }: { hostings: Hosting[] }) {
  const location = useLocation();
  const canWrite = useCanWrite();
  // Writers may remove any hosting but the primary (priority 1).
  const columns: SimpleColumn<Hosting>[] = canWrite
    ? [
        ...hostingColumns,
        {
          id: "actions",
          header: "Actions",
          kind: "actions",
          className: "text-right",
          cell: (h) =>
            h.priority_id === 1 ? null : (
              <a href={dialogHref(location, "remove-hosting", h.hosting_id)} className="btn btn-outline btn-error btn-xs" aria-label={`Remove hosting ${h.hosting_id}`}>
                Remove
              </a>
            ),
        },
      ]
    : hostingColumns;
  return (
    <div>
      {canWrite ? (
        <a href={dialogHref(location, "add-hosting")} className="btn btn-primary btn-sm mb-3">
          Add Hosting
        </a>
      ) : null}
      <SimpleTable caption="Hostings" columns={columns} rows={hostings} getRowId={(h) => h.hosting_id} emptyMessage="No hosting available." />
    </div>
  );
}

function Latency({ service, result }: { service: AppService; result: Record<string, unknown> | null }) {
  return (
    <div>
      <DetailsTable
        className="mb-3"
        items={[
          { label: "Health", value: service.health === null ? "" : `${service.health}%` },
          { label: "Op State", value: <OpState value={service.op_state} /> },
        ]}
      />
      <Suspense fallback={null}>
        <LatencyForm idField="app_service_id" id={service.app_service_id} result={result} />
      </Suspense>
    </div>
  );
}
