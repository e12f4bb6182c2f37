/* The Service Reports screen's constants (issue 58): shared by the dialogs, the columns and the server schemas. */

export type { ReportSchedule, ReportHistoryEntry } from "../../../platform/contract/report-schedules.ts";
export { reportCadenceLabels, reportCadences, reportContentLabels, reportContents, reportLimits, reportMessages } from "../../../platform/contract/report-schedules.ts";

export const TITLE = "Service Reports";
/** The word Delete Report Schedule asks for. */
export const REMOVE_PHRASE = "confirm";
/** A dialog opened on a schedule removed meanwhile. */
export const SCHEDULE_GONE = "This report schedule no longer exists.";
/** The scope choice for the whole account (the entity select's first option). */
export const WHOLE_ACCOUNT = "";
/** History rows shown under the selected schedule. */
export const HISTORY_SIZE = 12;

/** '06:00': the local hour a report is sent at. */
export const hourText = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** Where a report made can be downloaded in the console (the e-mail links here too). */
export const reportHref = (reportId: string, format: "pdf" | "csv") => `/reports/${encodeURIComponent(reportId)}/report.${format}`;
