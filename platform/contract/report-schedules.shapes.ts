import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";
import { reportCadences, reportContents } from "./report-schedules.ts";

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
