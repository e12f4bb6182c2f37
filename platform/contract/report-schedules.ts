/*
 * Scheduled service reports (issue 58): the constants and messages shared by the platform
 * (platform/routes/reports.ts, platform/domain/report-schedules*.ts) and the console
 * (app/routes/reports/). Plain TypeScript without dependencies: the console may import these values.
 */
export type { ReportSchedule, ReportHistoryEntry, ReportDelivery, ReportSummary } from "./report-schedules.shapes.ts";

/** What a report may hold; availability is always there. */
export const reportContents = ["availability", "outages", "maintenance", "activation_tests"] as const;
export type ReportContent = (typeof reportContents)[number];
export const reportContentLabels: Record<ReportContent, string> = {
  availability: "Availability and SLO per Internet NID, Metro NID and node",
  outages: "Outages (duration, cause, path at failure, link to the outage record)",
  maintenance: "Announced maintenance",
  activation_tests: "Activation tests of the period and their verdicts",
};

/** How often: a calendar month (sent on the 1st) or a week, Monday to Sunday (sent on the Monday after). */
export const reportCadences = ["monthly", "weekly"] as const;
export type ReportCadence = (typeof reportCadences)[number];
export const reportCadenceLabels: Record<ReportCadence, string> = { monthly: "Monthly, on the 1st", weekly: "Weekly, on Monday" };

export const reportLimits = { name: 200, recipients: 10, timeZone: 64, token: 200 } as const;

/**
 * True for a time zone the runtime knows (an IANA name such as 'Europe/Berlin', or 'UTC'): the
 * requests' check, so the console's form says the same before it calls.
 */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > reportLimits.timeZone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The columns the schedule list may be sorted by; default: name. */
export const reportScheduleSortable = ["name", "cadence", "time_zone", "created_at"] as const;
export type ReportScheduleSortColumn = (typeof reportScheduleSortable)[number];

/** How long a recipient's confirmation link works. */
export const RECIPIENT_LINK_DAYS = 7;

export const reportMessages = {
  scheduleNotFound: "Report schedule not found",
  reportNotFound: "Report not found",
  created: "Report schedule created.",
  updated: "Report schedule updated.",
  paused: "Report schedule paused.",
  resumed: "Report schedule resumed.",
  removed: "Report schedule removed.",
  sentNow: (email: string) => `The report was sent to ${email}.`,
  timeZone: "Enter an IANA time zone such as Europe/Berlin, or UTC.",
  hour: "Hour must be a whole number from 0 to 23.",
  cadence: "Choose monthly or weekly.",
  recipients: `Give at most ${reportLimits.recipients} recipients.`,
  confirmed: "Address confirmed: it will receive the reports it is sent.",
  confirmInvalid: "This confirmation link is invalid or has expired. Ask for the report schedule to be saved again to get a new one.",
  noRecipientForNow: "Your sign-in has no e-mail address to send the report to.",
} as const;
