import { ChartGrid } from "../../components/chart/chart-grid.tsx";
import { h } from "../../components/cell.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { formatBytes, formatNumber, formatTime } from "../../lib/format.ts";
import type { AppSession } from "../../../platform/contract/monitoring-insights.ts";
import type { TabProps } from "./tab-props.ts";
import type { load } from "./tab-visibility.server.ts";

/*
 * Application Visibility (spec 3 §2.14, §3 'App visibility', 'Session'): the cards Total Apps,
 * Total Visits and Total Bytes; the bar charts Top Apps by Hits and Top Apps by Bytes (the chart
 * kit: an SVG with its table without JavaScript, a canvas with it); the table 'Applications View
 * (n)', searched, sorted and paged by the URL.
 */

/** The columns the Applications View sorts by. */
export const appSortable = ["app_name", "protocol", "port", "hits", "bytes", "performance", "start_time"] as const;

const num = "text-right tabular-nums whitespace-nowrap";
const count = (n: number) => formatNumber(n);

const columns: Column<AppSession>[] = [
  {
    id: "app_name",
    header: "App",
    cell: (s) => h("span", { class: "font-medium" }, s.app_name),
  },
  { id: "description", header: "Description", cell: (s) => s.description },
  { id: "protocol", header: "Protocol", cell: (s) => s.protocol },
  { id: "port", header: "Port", className: num, cell: (s) => s.port },
  { id: "hits", header: "Hits", className: num, cell: (s) => count(s.hits) },
  {
    id: "bytes",
    header: "Bytes",
    className: num,
    cell: (s) => formatBytes(s.bytes),
  },
  {
    id: "performance",
    header: "Performance",
    cell: (s) => (s.performance === "good" ? "good" : h("strong", {}, "not good")),
  },
  {
    id: "start_time",
    header: "First Seen",
    cell: (s) => h("time", { datetime: s.start_time, class: "whitespace-nowrap" }, formatTime(s.start_time)),
  },
];

/** The Applications View's constant half (an application's name is its row's id and label). */
const applicationsView = {
  caption: "Applications View",
  id: "applications",
  columns,
  getRowId: (s: AppSession) => s.app_name,
  rowLabel: (s: AppSession) => s.app_name,
  searchPlaceholder: "Search applications",
};

export default function VisibilityTab({ data }: TabProps<Awaited<ReturnType<typeof load>>>) {
  const { error, visibility: v, table, charts } = data;
  if (error || !v || !table) return <p className="text-error">{error}</p>;
  const cards = [
    { id: "total-apps", label: "Total Apps", value: count(v.total_apps) },
    { id: "total-visits", label: "Total Visits", value: count(v.total_visits) },
    {
      id: "total-bytes",
      label: "Total Bytes",
      value: formatBytes(v.total_bytes),
      title: `${count(v.total_bytes)} bytes`,
    },
  ];
  return (
    <div className="min-w-0 space-y-4">
      <h2 className="sr-only">Application Visibility</h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-label="Totals">
        {cards.map((c) => (
          <li key={c.id} className="card bg-base-100 p-4 shadow-sm" data-testid={c.id}>
            <span className="block text-sm">{c.label}</span>
            <span className="block text-3xl font-semibold tabular-nums" title={c.title}>
              {c.value}
            </span>
          </li>
        ))}
      </ul>
      <ChartGrid charts={charts} card />
      <section aria-labelledby="applications-view" className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">
        <h2 id="applications-view" className="mb-2 text-xl font-semibold">
          Applications View ({v.total_apps})
        </h2>
        <DataTable {...applicationsView} page={table} />
      </section>
    </div>
  );
}
