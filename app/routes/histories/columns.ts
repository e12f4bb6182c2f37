import { h, idCell, timeCell } from "../../components/cell.ts";
import type { Column } from "../../components/data-table.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import { logCommand, logUsername, type ApiLogEntry } from "../../../platform/contract/support.ts";

/*
 * The change log's columns (spec 3 §2.13): Time, Username, Command, Body, Params; Account ID and
 * IAM user ID hidden. Beyond the spec, Status: the call's answer, so a refused call is not taken for a
 * change (issue 27 item 4, docs/decisions/2026-11-25-change-log-outcome.md). The CSV export has the same columns, with the whole body.
 */

// The headers that are sort links: the platform's sortable columns (parseTableQuery hands them to the table).
export { apiLogSortable as sortable } from "../../../platform/contract/support.ts";
export const hideable = ["account_id", "iam_user_id"];

/** A body or params as one line of JSON ('' for none); the table cuts it at `max` characters. */
export function jsonText(value: unknown, max = Infinity): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && Object.keys(value as object).length === 0) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const SHOWN = 400;

/** The outcome of a logged call: its status and what it means ('200 Done', '409 Refused', '500 Failed'). */
export function outcome(status: number): string {
  const word = status < 300 ? "Done" : status < 500 ? "Refused" : "Failed";
  return `${status} ${word}`;
}

export const columns: Column<ApiLogEntry>[] = [
  {
    id: "created_at",
    header: "Time",
    cell: (r) => timeCell(r.created_at),
    className: "whitespace-nowrap",
  },
  { id: "username", header: "Username", cell: (r) => logUsername(r), className: "wrap-anywhere" },
  { id: "command", header: "Command", cell: (r) => logCommand(r), className: "wrap-anywhere" },
  {
    id: "status",
    header: "Status",
    cell: (r) => h("span", { class: r.status < 300 ? "" : "text-error font-medium" }, outcome(r.status)),
    className: "whitespace-nowrap",
  },
  { id: "body", header: "Body", cell: (r) => h("code", { class: "text-xs whitespace-pre-wrap wrap-anywhere" }, jsonText(r.request_body, SHOWN)) },
  { id: "params", header: "Params", cell: (r) => h("code", { class: "text-xs whitespace-pre-wrap wrap-anywhere" }, jsonText(r.query_parameters, SHOWN)) },
  { id: "account_id", header: "Account ID", hidden: true, cell: (r) => idCell(r.account_id) },
  { id: "iam_user_id", header: "IAM user ID", hidden: true, cell: (r) => idCell(r.iam_user_id) },
];

export const csvColumns: CsvColumn<ApiLogEntry>[] = [
  { header: "Time", value: (r) => formatTime(r.created_at) },
  { header: "Username", value: (r) => logUsername(r) },
  { header: "Command", value: (r) => logCommand(r) },
  { header: "Status", value: (r) => outcome(r.status) },
  { header: "Body", value: (r) => jsonText(r.request_body) },
  { header: "Params", value: (r) => jsonText(r.query_parameters) },
  { header: "Account ID", value: (r) => r.account_id },
  { header: "IAM user ID", value: (r) => r.iam_user_id ?? "" },
];
