import { useMemo, type MouseEvent as ReactMouseEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import type { TablePage } from "../../lib/table.server.ts";
import {
  endpoint,
  formatCount,
  formatDuration,
  formatPercent,
  formatTime,
  pcapClientRuleText,
  pcapEncapsulationLabel,
  type PcapSession,
  type PcapSummary,
} from "../../lib/pcap.ts";
import { formatBytes } from "../../lib/format.ts";
import { applyParams, queryString } from "../../lib/url.ts";
import { h, type CellContent } from "../../components/cell.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { plainClick } from "../../components/query-link.tsx";

/*
 * The analysis of a capture (spec 1 §2, §3 'PCAP session', §4): a summary line, the degraded-flow
 * percentage bar, the warnings of a truncated capture, and the sessions table (50 rows a page)
 * whose rows open the flow analysis report by URL (`&session=ID&dialog=report`).
 */

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export function AnalysisSummary({ fileName, summary }: { fileName: string; summary: PcapSummary }) {
  return (
    <div className="flex flex-col gap-1">
      <h2 className="text-base font-semibold break-all">
        <span className="sr-only">Analysis of </span>
        {fileName}
      </h2>
      <p className="text-base-content/80 text-sm" data-testid="pcap-summary">
        {plural(summary.packets, "packet", "packets")} · {plural(summary.bytes, "byte", "bytes")}
        {summary.bytes >= 1024 ? ` (${formatBytes(summary.bytes)})` : ""} · {formatDuration(summary.duration)} ·{" "}
        {plural(summary.sessions, "session", "sessions")}
      </p>
    </div>
  );
}

/** 'N% degraded flows': the share of sessions whose performance is not good. */
export function DegradedBar({ summary }: { summary: PcapSummary }) {
  const percent = Math.max(0, Math.min(100, summary.degraded_percent));
  return (
    <div className="flex flex-col gap-1" data-testid="pcap-degraded">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <label htmlFor="pcap-degraded" className="font-semibold">
          {formatPercent(percent)}% degraded flows
        </label>
        <span className="text-base-content/80 text-sm">
          {formatCount(summary.degraded_sessions)} of {plural(summary.sessions, "session", "sessions")} not good
        </span>
      </div>
      {/* The track is the good share (green), the value the degraded one (red): 0 % shows all good. */}
      <progress id="pcap-degraded" className="progress progress-error bg-success h-3 w-full" value={percent} max={100} />
    </div>
  );
}

export function Warnings({ warnings }: { warnings: string[] }) {
  if (!warnings.length) return null;
  return (
    <div role="alert" className="alert alert-warning alert-soft border-warning text-base-content items-start border" data-testid="pcap-warnings">
      <span aria-hidden="true" className="text-lg leading-6">
        ⚠
      </span>
      <div>
        <h3 className="font-semibold">The capture could not be read to its end</h3>
        <ul className="list-disc pl-5 text-sm">
          {warnings.map((w, i) => (
            <li key={`${i}-${w}`}>{w}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** Good / not good, as text and a coloured badge (dark text on a light tint: AA contrast); table-cell markup. */
function performance(value: PcapSession["performance"]) {
  const good = value === "good";
  return h(
    "span",
    {
      class: `inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${
        good ? "border-green-700 bg-green-50 text-green-900" : "border-red-700 bg-red-50 text-red-900"
      }`,
    },
    h("span", { "aria-hidden": "true", class: `inline-block size-2 rounded-full ${good ? "bg-green-700" : "bg-red-700"}` }),
    good ? "good" : "not good",
  );
}

/** Under the source: it is the client, and how that was told ("client by SYN"); nothing for an analysis stored before the rule. */
function clientRule(r: PcapSession) {
  const text = pcapClientRuleText(r.client_chosen_by);
  return text ? h("span", { class: "text-base-content/70 block text-xs" }, `client ${text}`) : null;
}

/** Date over time of day: two short lines keep the eleven columns within a laptop's width. */
function time(iso: string | null) {
  if (!iso) return "—";
  const text = formatTime(iso);
  const space = text.indexOf(" ");
  return h("time", { datetime: iso, class: "whitespace-nowrap" }, space > 0 ? [text.slice(0, space), h("br"), text.slice(space + 1)] : text);
}
const num = "text-right tabular-nums whitespace-nowrap";
const narrow = "block max-w-40 break-words";

/** Long names and IPv6 endpoints may wrap after a dot or colon (<wbr>: copying the text is unchanged). */
function wrappable(text: string): CellContent {
  if (text.length <= 24) return text;
  const parts = text.split(/(?<=[.:])/);
  return parts.map((part, i) => (i < parts.length - 1 ? [part, h("wbr")] : part));
}

/** Mirrored traffic: the mirror session a session was seen through ("VXLAN VNI 100", its outer addresses below). */
function mirrorSession(r: PcapSession): CellContent {
  if (!r.encapsulation || r.vni === null) return "—";
  const outer = r.mirror_session?.split("@")[1]?.replace(",", " ↔ ") ?? "";
  return h(
    "span",
    { class: narrow },
    `${pcapEncapsulationLabel(r.encapsulation)} VNI ${r.vni}`,
    outer ? h("span", { class: "text-base-content/70 block text-xs" }, wrappable(outer)) : null,
  );
}

function columnsFor(reportHref: (id: string) => string, mirrored: boolean): Column<PcapSession>[] {
  const mirror: Column<PcapSession>[] = mirrored ? [{ id: "mirror_session", header: "Mirror Session", sortable: false, cell: mirrorSession }] : [];
  return [
    {
      id: "start_time",
      header: "Start Time",
      cell: (r) =>
        h(
          "a",
          { href: reportHref(r.session_id), class: "link link-primary link-hover font-medium", "data-report-link": "" },
          time(r.start_time),
          h("span", { class: "sr-only" }, ", open the report of this session"),
        ),
    },
    { id: "end_time", header: "End Time", cell: (r) => time(r.end_time) },
    { id: "app_name", header: "App", cell: (r) => r.app_name ?? "—" },
    { id: "server_name", header: "Server Name", cell: (r) => (r.server_name ? h("span", { class: narrow }, wrappable(r.server_name)) : "—") },
    { id: "src", header: "Source", cell: (r) => h("span", { class: narrow }, wrappable(endpoint(r.src_addr, r.src_port)), clientRule(r)) },
    { id: "dst", header: "Destination", cell: (r) => h("span", { class: narrow }, wrappable(endpoint(r.dst_addr, r.dst_port))) },
    { id: "proto", header: "Protocol", cell: (r) => r.proto.toUpperCase() },
    ...mirror,
    { id: "tx_bytes", header: "TX Bytes", className: num, cell: (r) => formatCount(r.tx_bytes) },
    { id: "rx_bytes", header: "RX Bytes", className: num, cell: (r) => formatCount(r.rx_bytes) },
    { id: "tx_packets", header: "TX Packets", className: num, cell: (r) => formatCount(r.tx_packets) },
    { id: "performance", header: "Performance", cell: (r) => performance(r.performance) },
  ];
}

/**
 * The sessions of one capture; `exportHref` null: no Export CSV (default: the PCAP analyzer's
 * sessions.csv of this search); `mirrored`: a capture of mirrored traffic (a Mirror Session column).
 */
export function SessionsTable({ page, exportHref, mirrored = false }: { page: TablePage<PcapSession>; exportHref?: string | null; mirrored?: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  // Each row's report link: this URL (key, name, from, page, sort, q…) plus session and dialog.
  const columns = useMemo(() => {
    const base = applyParams(location.search, { session: null, dialog: null, zoom: null, id: null });
    const q = queryString(base);
    const prefix = q ? `${location.pathname}${q}&` : `${location.pathname}?`;
    return columnsFor((id) => `${prefix}session=${encodeURIComponent(id)}&dialog=report`, mirrored);
  }, [location.pathname, location.search, mirrored]);

  const csvHref = useMemo(() => {
    const params = new URLSearchParams(location.search);
    const out = new URLSearchParams();
    for (const k of ["key", "name", "q", "sort", "vni"]) {
      const v = params.get(k);
      if (v) out.set(k, v);
    }
    return `/pcap-analyzer/sessions.csv?${out.toString()}`;
  }, [location.search]);

  /** With JS, a click anywhere on a row opens its report (the row's link does it without JS). */
  function onClick(event: ReactMouseEvent<HTMLDivElement>) {
    if (!plainClick(event)) return;
    const target = event.target as HTMLElement;
    if (target.closest("a, button, input, select, textarea, label, summary, details, form")) return;
    const link = target.closest("tbody tr")?.querySelector<HTMLAnchorElement>("a[data-report-link]");
    if (link) navigate(link.pathname + link.search, { preventScrollReset: true });
  }

  return (
    <div onClick={onClick} className="[&_td]:px-2 [&_th]:px-2 [&_tbody_tr:has(a[data-report-link])]:hover:bg-base-200 [&_tbody_tr:has(a[data-report-link])]:cursor-pointer">
      <DataTable
        caption="Sessions"
        id="sessions"
        columns={columns}
        page={page}
        getRowId={(r) => r.session_id}
        rowLabel={(r) => `${endpoint(r.src_addr, r.src_port)} to ${endpoint(r.dst_addr, r.dst_port)}`}
        selection="none"
        searchPlaceholder="Search sessions"
        toolbar={
          // The sessions the search selects (all pages, in the table's order), as CSV.
          exportHref === null ? undefined : (
            <a href={exportHref ?? csvHref} className="btn btn-sm btn-outline" download>
              Export CSV<span className="sr-only"> of the {page.total === 1 ? "session" : `${page.total} sessions`} shown</span>
            </a>
          )
        }
      />
    </div>
  );
}
