import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";
import { email, idField, limits, line, maxMessage, text } from "../lib/fields.ts";
import { fieldMessages } from "./messages.ts";
import { isTimeZone, reportCadences, reportContents, reportLimits, reportMessages } from "./report-schedules.ts";

/* The answers of the report schedule calls (platform/routes/reports.ts), once each. */

export const ReportRecipient = z
  .object({
    email: z.string(),
    confirmed: z.boolean().openapi({ description: "Confirmed by the link sent to it: only confirmed addresses receive reports" }),
  })
  .openapi("ReportRecipient");

export const ReportSchedule = z
  .object({
    schedule_id: z.string().openapi({ example: "rps-5q2w8e1r4t6y" }),
    name: z.string(),
    entity_id: z.string().nullable().openapi({ description: "The entity reported (with its children); null: the whole account" }),
    entity_name: z.string().nullable(),
    entity_removed: z.boolean().openapi({ description: "The entity was removed since: the report says so and covers nothing" }),
    content: z.array(z.enum(reportContents)),
    cadence: z.enum(reportCadences),
    time_zone: z.string().openapi({ example: "Europe/Berlin" }),
    hour: z.number().int().openapi({ description: "The local hour (0–23) the report is sent at, on the 1st or the Monday" }),
    recipients: z.array(ReportRecipient),
    paused: z.boolean(),
    next_run_at: isoTime().nullable().openapi({ description: "When the next report is sent (null while paused)" }),
    last_sent_at: isoTime().nullable(),
    created_at: isoTime(),
    updated_at: isoTime(),
  })
  .openapi("ReportSchedule");
export type ReportSchedule = z.infer<typeof ReportSchedule>;

export const ReportSummary = z
  .object({
    uptime_percent: z.number().nullable(),
    slo_met: z.boolean().nullable(),
    devices: z.number().int(),
    outages: z.number().int(),
    removed: z.array(z.string()).openapi({ description: "What was removed since the previous report (devices, the entity), named" }),
  })
  .openapi("ReportSummary");
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportDelivery = z
  .object({
    recipient: z.string(),
    state: z.enum(["queued", "refused"]).openapi({ description: "queued: on the mail queue (sent, or retried while the server answers 4xx); refused: the server refused it for good" }),
    answer: z.string().nullable().openapi({ description: "The mail server's refusal" }),
  })
  .openapi("ReportDelivery");
export type ReportDelivery = z.infer<typeof ReportDelivery>;

export const ReportHistoryEntry = z
  .object({
    report_id: z.string().openapi({ example: "rpt-5q2w8e1r4t6y" }),
    schedule_id: z.string(),
    kind: z.enum(["scheduled", "now"]).openapi({ description: "scheduled: the period's report; now: Send now, to the user who asked" }),
    period_label: z.string().openapi({ example: "2026-11" }),
    period_start: isoTime(),
    period_end: isoTime(),
    state: z.enum(["queued", "sent", "cancelled"]),
    requested_by: z.string().nullable(),
    created_at: isoTime(),
    made_at: isoTime().nullable(),
    summary: ReportSummary.nullable(),
    deliveries: z.array(ReportDelivery),
  })
  .openapi("ReportHistoryEntry");
export type ReportHistoryEntry = z.infer<typeof ReportHistoryEntry>;

// The calls' requests: the platform validates with them and the console's schedule form is these
// schemas (app/routes/reports/schemas.server.ts).

export const scheduleIdField = () => idField("Schedule id").openapi({ example: "rps-5q2w8e1r4t6y" });

/** A schedule's id alone: remove_report_schedule, send_report_now (and the console's Pause, Resume). */
export const ScheduleIdBody = z.strictObject({ schedule_id: scheduleIdField() }).openapi("ReportScheduleId");

/** The e-mailed link's token: a blank, long or unknown one is the same invalid link (the confirm page's words). */
export const ConfirmRecipientBody = z
  .strictObject({
    token: z.string({ error: reportMessages.confirmInvalid }).min(1, reportMessages.confirmInvalid).max(reportLimits.token, reportMessages.confirmInvalid),
  })
  .openapi("ConfirmReportRecipient");

const fields = {
  name: text(reportLimits.name, { min: 1, minMessage: fieldMessages.nameRequired }),
  entity_name: line(limits.name)
    .optional()
    .openapi({ description: "The entity reported, with its children; '' or absent: the whole account. Unknown: 404 'Entity {name} not found.'" }),
  content: z
    .array(z.enum(reportContents, { error: `Content must be among: ${reportContents.join(", ")}` }))
    .max(reportContents.length)
    .openapi({ description: "What the report holds besides availability (always in it)" }),
  cadence: z.enum(reportCadences, { error: reportMessages.cadence }),
  time_zone: z
    .string({ error: reportMessages.timeZone })
    .trim()
    .max(reportLimits.timeZone, maxMessage(reportLimits.timeZone))
    .refine(isTimeZone, reportMessages.timeZone)
    .openapi({ example: "Europe/Berlin", description: "IANA name; the calendar periods are this zone's" }),
  hour: z
    .number({ error: reportMessages.hour })
    .int(reportMessages.hour)
    .min(0, reportMessages.hour)
    .max(23, reportMessages.hour)
    .openapi({ description: "The local hour the report is sent at on the 1st (monthly) or the Monday (weekly)" }),
  recipients: z
    .array(email())
    .max(reportLimits.recipients, reportMessages.recipients)
    .openapi({ description: `At most ${reportLimits.recipients} addresses; each receives reports once it has confirmed the link e-mailed to it` }),
};

export const CreateReportScheduleBody = z
  .strictObject({ ...fields, time_zone: fields.time_zone.default("UTC"), hour: fields.hour.default(6), content: fields.content.default([...reportContents]), recipients: fields.recipients.default([]) })
  .openapi("CreateReportSchedule");
export const UpdateReportScheduleBody = z
  .strictObject({
    schedule_id: scheduleIdField(),
    name: fields.name.optional(),
    entity_name: fields.entity_name,
    content: fields.content.optional(),
    cadence: fields.cadence.optional(),
    time_zone: fields.time_zone.optional(),
    hour: fields.hour.optional(),
    recipients: fields.recipients.optional(),
    paused: z.boolean().optional().openapi({ description: "true pauses (nothing is sent), false resumes (from the next firing on)" }),
  })
  .openapi("UpdateReportSchedule", { description: "Fields left out keep their value." });
