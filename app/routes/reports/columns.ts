import { listColumns, timeColumn } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { formatTime } from "../../lib/format.ts";
import { hourText, reportCadenceLabels, TITLE, type ReportSchedule } from "./model.ts";

/* The report schedules table's columns, and the same columns for its CSV export. */

export { reportScheduleSortable as sortable } from "../../../platform/contract/report-schedules.ts";
export const hideable = ["created_at"];

export const scopeText = (s: ReportSchedule) => (s.entity_id ? `${s.entity_name ?? s.entity_id} and its children${s.entity_removed ? " (removed)" : ""}` : "Whole account");
export const recipientsText = (s: ReportSchedule) => (s.recipients.length ? s.recipients.map((r) => (r.confirmed ? r.email : `${r.email} (not confirmed)`)).join(", ") : "None");
export const stateText = (s: ReportSchedule) => (s.paused ? "Paused" : `Next ${formatTime(s.next_run_at)}`);

export const { columns, csvColumns } = listColumns<ReportSchedule>([
  { id: "name", header: "Name", text: (r) => r.name },
  { id: "scope", header: "Scope", text: scopeText },
  { id: "cadence", header: "Cadence", text: (r) => `${reportCadenceLabels[r.cadence]}, ${hourText(r.hour)}` },
  { id: "time_zone", header: "Time zone", text: (r) => r.time_zone },
  { id: "recipients", header: "Recipients", text: recipientsText },
  { id: "state", header: "State", text: stateText },
  { id: "last_sent_at", header: "Last sent", text: (r) => (r.last_sent_at ? formatTime(r.last_sent_at) : "Never") },
  timeColumn("created_at", "Created at", { hidden: true }),
]);

/** The row menu (writers): change, pause or resume, send now, delete. */
export const menuOf = (s: ReportSchedule): MenuItem[] => [
  { label: "Edit", dialog: "update" },
  s.paused ? { label: "Resume", intent: "resume", fields: { schedule_id: s.schedule_id } } : { label: "Pause", intent: "pause", fields: { schedule_id: s.schedule_id } },
  { label: "Send now", intent: "send", fields: { schedule_id: s.schedule_id } },
  { label: "Delete", dialog: "remove", danger: true },
];

export const screen = defineListScreen<ReportSchedule>({
  title: TITLE,
  caption: "Report schedules",
  columns,
  getRowId: (r) => r.schedule_id,
  rowLabel: (r) => r.name,
  selection: "single",
  linkColumn: "name",
  plural: "report schedules",
  createLabel: "Add Report Schedule",
  refresh: true,
});
