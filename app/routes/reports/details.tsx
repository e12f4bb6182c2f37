import { Card } from "../../components/card.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { recipientsText, scopeText, stateText } from "./columns.ts";
import { hourText, reportCadenceLabels, reportContentLabels, reportHref, type ReportHistoryEntry, type ReportSchedule } from "./model.ts";

/* The selected schedule: what it sends, to whom, when; and the history of the reports it made, each downloadable. */

const stateWords = { queued: "Being made", sent: "Sent", cancelled: "Not sent (paused)" } as const;

function deliveriesText(h: ReportHistoryEntry): string {
  if (h.state !== "sent") return "";
  if (!h.deliveries.length) return "No confirmed recipient: kept here only.";
  return h.deliveries.map((d) => (d.state === "refused" ? `${d.recipient}: refused (${d.answer ?? "no answer"})` : `${d.recipient}: e-mailed`)).join("; ");
}

function figuresText(h: ReportHistoryEntry): string {
  const s = h.summary;
  if (!s) return "";
  const uptime = s.uptime_percent === null ? "N/A" : `${s.uptime_percent} %`;
  const slo = s.slo_met === null ? "" : s.slo_met ? ", SLO met" : ", SLO missed";
  const removed = s.removed.length ? `. Removed: ${s.removed.join("; ")}` : "";
  return `${uptime}${slo}, ${s.devices} device${s.devices === 1 ? "" : "s"}, ${s.outages} outage${s.outages === 1 ? "" : "s"}${removed}`;
}

const historyColumns: SimpleColumn<ReportHistoryEntry>[] = [
  { id: "period", header: "Period", kind: "name", className: "whitespace-nowrap", cell: (h) => h.period_label },
  { id: "kind", header: "Kind", cell: (h) => (h.kind === "now" ? `Send now (${h.requested_by ?? ""})` : "Scheduled") },
  { id: "state", header: "State", cell: (h) => stateWords[h.state] },
  { id: "made", header: "Made", className: "whitespace-nowrap", cell: (h) => formatTime(h.made_at ?? h.created_at) },
  { id: "figures", header: "Availability", cell: figuresText },
  { id: "deliveries", header: "Delivery", cell: deliveriesText },
  {
    id: "download",
    header: "Download",
    kind: "actions",
    cell: (h) =>
      h.state === "sent" ? (
        <span className="flex flex-wrap gap-2">
          <a className="link link-primary" href={reportHref(h.report_id, "pdf")} download>
            PDF<span className="sr-only"> of {h.period_label}</span>
          </a>
          <a className="link link-primary" href={reportHref(h.report_id, "csv")} download>
            CSV<span className="sr-only"> of {h.period_label}</span>
          </a>
        </span>
      ) : null,
  },
];

export function ScheduleDetails({ schedule, history }: { schedule: ReportSchedule; history: { items: ReportHistoryEntry[]; total: number } }) {
  return (
    <div className="flex flex-col gap-4">
      <Card id="report-schedule-details" title={schedule.name}>
        <DetailsTable
          items={[
            { label: "Scope", value: scopeText(schedule) },
            { label: "Content", value: schedule.content.map((c) => reportContentLabels[c]).join("; ") },
            { label: "Cadence", value: `${reportCadenceLabels[schedule.cadence]} at ${hourText(schedule.hour)} (${schedule.time_zone})` },
            { label: "Recipients", value: recipientsText(schedule) },
            { label: "State", value: stateText(schedule) },
          ]}
        />
      </Card>
      <Card id="report-schedule-history" title="Reports sent">
        <SimpleTable caption={`Reports of ${schedule.name}`} columns={historyColumns} rows={history.items} getRowId={(h) => h.report_id} emptyMessage="No report yet." />
        {history.total > history.items.length ? <p className="text-sm">The {history.items.length} newest of {history.total}.</p> : null}
      </Card>
    </div>
  );
}
