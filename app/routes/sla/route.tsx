import type { ReactNode } from "react";
import { data, Form, Link } from "react-router";
import { ErrorText } from "../../components/error-text.tsx";
import { Screen } from "../../components/screen.tsx";
import { SimpleTable, type SimpleColumn, type SimpleTableProps } from "../../components/simple-table.tsx";
import { apiGet, apiList } from "../../lib/api.server.ts";
import { formatTime } from "../../lib/format.ts";
import { requireSession } from "../../lib/session.server.ts";
import { recordNote, type DeviceAvailability, type SlaOutage } from "../../../platform/contract/availability.ts";
import { lastMonth, loadSlaReport, slaQueryOf, slaQueryString } from "./data.server.ts";
import { Figures, n3, uptimeText } from "./figures.tsx";
import type { Route } from "./+types/route";
import { reportMessages } from "../../../platform/contract/messages.ts";

/*
 * /sla: the SLA report of a device or an entity for a calendar month (issue #26). A GET form (the
 * device or entity, the month) puts the choice in the URL; the page shows the platform's figures
 * (get_sla_report: announced maintenance excluded) and links to the one-page PDF and the CSV
 * (/sla/report.pdf, /sla/report.csv), plain downloads that work without JavaScript.
 */

export const handle = { breadcrumb: "SLA Report" };

/** The last 13 calendar months, newest first (the month picker: a select works everywhere). */
function months(now = Date.now()): string[] {
  const d = new Date(now);
  return Array.from({ length: 13 }, (_, i) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const params = new URL(request.url).searchParams;
  // The form's one select names the scope as `node_id:<id>` or `entity_id:<id>`.
  const scope = params.get("scope");
  if (scope) {
    const [key, id] = [scope.slice(0, scope.indexOf(":")), scope.slice(scope.indexOf(":") + 1)];
    if ((key === "node_id" || key === "entity_id") && id) params.set(key, id);
  }
  const [devices, entities] = await Promise.all([apiGet(request, "dashboard_get_device_names"), apiList(request, "get_entity")]);
  const query = slaQueryOf(params);
  const report = query ? await loadSlaReport(request, query) : null;
  return data(
    {
      months: months(),
      month: query?.month ?? params.get("month") ?? lastMonth(),
      chosen: query ? (query.node_id ? `node_id:${query.node_id}` : `entity_id:${query.entity_id}`) : "",
      devices: devices.ok ? [...devices.data.cpe, ...devices.data.metro] : [],
      entities: entities.ok ? entities.data.map((e) => ({ id: e.entity_id, name: e.entity_name })) : [],
      report: report?.data ?? null,
      error: report?.error ?? null,
      downloads: query && report?.data ? slaQueryString(query) : null,
    },
    { status: report && !report.data ? (report.status === 404 ? 404 : report.status === 422 ? 400 : 200) : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

const deviceColumns: SimpleColumn<DeviceAvailability>[] = [
  { id: "name", header: "Device", kind: "name", cell: (d) => `${d.name} (${d.node_id})` },
  { id: "uptime", header: "Availability", cell: (d) => uptimeText(d, true) },
  { id: "downtime", header: "Downtime", unit: "minutes", cell: (d) => n3(d.downtime_minutes) },
  { id: "outages", header: "Outages", cell: (d) => d.outages },
  { id: "maintenance", header: "Maintenance", unit: "minutes", cell: (d) => n3(d.maintenance_minutes) },
];

const outageColumns: SimpleColumn<SlaOutage>[] = [
  {
    id: "start",
    header: "Start",
    kind: "name",
    cell: (o) => (
      <Link to={`/outages/${encodeURIComponent(o.outage_id)}`} className="link link-primary">
        {formatTime(o.start_time)}
      </Link>
    ),
  },
  { id: "end", header: "End", cell: (o) => (o.end_time ? formatTime(o.end_time) : "Under way") },
  { id: "device", header: "Device", cell: (o) => o.name },
  { id: "counted", header: "Counted", unit: "minutes", cell: (o) => `${n3(o.counted_minutes)}${o.announced ? " (announced maintenance)" : ""}` },
  { id: "diagnosis", header: "Self Diagnosis", cell: (o) => o.self_diagnosis },
];

interface Group {
  label: string | null;
  options: { value: string; name: string }[];
}

/** The scope's choices: the devices and the entities, each option naming its kind of id. */
const scopeGroups = (devices: { id: string; name: string }[], entities: { id: string; name: string }[]): Group[] =>
  (
    [
      ["Devices", "node_id", devices],
      ["Entities", "entity_id", entities],
    ] as const
  ).map(([label, key, items]) => ({ label, options: items.map((x) => ({ value: `${key}:${x.id}`, name: x.name })) }));

/** A labelled select of the report's GET form (a select works without JavaScript and everywhere). */
function Choice({ id, name, label, value, width, groups }: { id: string; name: string; label: string; value: string; width: string; groups: Group[] }) {
  const options = (g: Group) =>
    g.options.map((o) => (
      <option key={o.value} value={o.value}>
        {o.name}
      </option>
    ));
  return (
    <label className="flex min-w-0 flex-col gap-1 text-sm" htmlFor={id}>
      <span className="font-semibold">{label}</span>
      <select id={id} name={name} defaultValue={value} key={value} className={`select select-sm ${width} max-w-full`} required>
        {value ? null : (
          <option value="" disabled>
            Choose one
          </option>
        )}
        {groups.map((g) =>
          g.label ? (
            <optgroup key={g.label} label={g.label}>
              {options(g)}
            </optgroup>
          ) : (
            options(g)
          ),
        )}
      </select>
    </label>
  );
}

/** One of the report's lists: its heading (with the count) and its table. */
function ReportTable<T>({ id, title, ...table }: { id: string; title: ReactNode } & SimpleTableProps<T>) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      <SimpleTable {...table} />
    </section>
  );
}

export default function SlaReportPage({ loaderData }: Route.ComponentProps) {
  const { months: choices, month, chosen, devices, entities, report, error, downloads } = loaderData;
  return (
    <Screen title="SLA Report" documentTitle={report ? `SLA Report: ${report.name}, ${report.month}` : "SLA Report"}>
      <p className="max-w-prose text-sm">
        Availability of a device or an entity for a calendar month, announced maintenance excluded, against the SLO of 99.9 %. Download it as a one-page PDF or as CSV.
      </p>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Choose the report">
        <Choice id="sla-scope" name="scope" label="Device or entity" value={chosen} width="w-72" groups={scopeGroups(devices, entities)} />
        <Choice id="sla-month" name="month" label="Month (UTC)" value={month} width="w-40" groups={[{ label: null, options: choices.map((m) => ({ value: m, name: m })) }]} />
        <button type="submit" className="btn btn-sm btn-primary">
          Show report
        </button>
      </Form>
      {error ? <ErrorText>{error}</ErrorText> : null}
      {report ? (
        // wrap-anywhere: a long unbroken device name (in the heading and the tables) wraps instead of widening the page (issue 63 item 21).
        <article aria-labelledby="sla-report-title" className="min-w-0 space-y-4 rounded-box bg-base-100 p-4 shadow-sm wrap-anywhere" data-testid="sla-report">
          <h2 id="sla-report-title" className="text-xl font-semibold">
            {report.name} ({report.scope === "entity" ? "entity" : "device"} {report.id}), {report.month}
          </h2>
          <p className="text-sm">
            From {formatTime(report.start)} to {formatTime(report.end)}. {recordNote(report, formatTime)}
          </p>
          <Figures figures={report} />
          {downloads ? (
            <p className="flex flex-wrap gap-3">
              <a href={`/sla/report.pdf?${downloads}`} download className="btn btn-sm btn-outline">
                Download PDF
              </a>
              <a href={`/sla/report.csv?${downloads}`} download className="btn btn-sm btn-outline">
                Download CSV
              </a>
            </p>
          ) : null}
          {report.scope === "entity" ? (
            <ReportTable id="sla-devices" title={<>Devices ({report.devices.length})</>} caption="Devices of the entity" columns={deviceColumns} rows={report.devices} getRowId={(d) => d.node_id} emptyMessage={reportMessages.noDevices} />
          ) : null}
          <ReportTable id="sla-outages" title={<>Outages ({report.outage_list.length})</>} caption="Outages of the month" columns={outageColumns} rows={report.outage_list} getRowId={(o) => o.outage_id} emptyMessage={reportMessages.noOutage} />
        </article>
      ) : null}
    </Screen>
  );
}
