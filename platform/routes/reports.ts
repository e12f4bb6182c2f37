import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { reportMessages, reportScheduleSortable } from "../contract/report-schedules.ts";
import { ConfirmRecipientBody, CreateReportScheduleBody, ReportHistoryEntry, ReportSchedule, ScheduleIdBody, scheduleIdField, UpdateReportScheduleBody } from "../contract/report-schedules.shapes.ts";
import { createdOf, pageOf } from "../contract/common.shapes.ts";
import { confirmRecipient, createSchedule, removeSchedule, reportFile, reportHistoryPage, scheduleList, sendReportNow, updateSchedule } from "../domain/report-schedules.ts";
import { answerChange, answerDetail, answerPublic, answerQuery, caller } from "../lib/context.ts";
import { idField } from "../lib/fields.ts";
import { idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";
import { exportQuery } from "../lib/list.ts";

/*
 * Scheduled service reports (issue 58), in the specs' style: snake_case calls, the schedule's id in
 * the body or query, `{detail}` answers. Another account's schedule or report answers 404;
 * readonly users read the schedules and their history and download the reports (403 on changes).
 * Every change is in the change log (lib/apilog.ts), the confirmation token scrubbed.
 */

const tags = ["Reports"];


const ReportSchedulePage = pageOf(ReportSchedule, "ReportSchedulePage");
const ReportHistoryPage = pageOf(ReportHistoryEntry, "ReportHistoryPage");

export const routes = {
  list: defineListCalls({
    tags,
    item: ReportSchedule,
    page: ReportSchedulePage,
    list: {
      path: "/list_report_schedule",
      summary: "The caller's report schedules",
      rows: ["report schedule", "sorted by name"],
      query: z.object({ ...listQuery(reportScheduleSortable), ids: idsFilter }),
    },
  }).list,
  export: defineListCalls({
    tags,
    item: ReportSchedule,
    itemName: "ReportSchedule",
    export: {
      path: "/export_report_schedules",
      summary: "Every report schedule the search selects, streamed as NDJSON",
      description: "The rows of list_report_schedule with the same q and sort (one ReportSchedule per line).",
      query: z.object(exportQuery(reportScheduleSortable)),
    },
  }).export,
  detail: defineCall({
    method: "get",
    path: "/get_report_schedule",
    tags,
    summary: "One report schedule",
    description: `Another account's id, or an unknown one: 404 '${reportMessages.scheduleNotFound}'.`,
    query: z.object({ schedule_id: scheduleIdField() }),
    response: ReportSchedule,
    errors: [404],
  }),
  create: defineChange({
    path: "/create_report_schedule",
    tags,
    summary: "Create a report schedule",
    description: `Answers '${reportMessages.created}' and the schedule_id. Each recipient not yet confirmed is e-mailed a confirmation link; nothing is sent to it before it confirms. The first report is the next firing's.`,
    body: CreateReportScheduleBody,
    response: createdOf("ReportScheduleCreated", "schedule_id"),
  }),
  update: defineChange({
    path: "/update_report_schedule",
    tags,
    summary: "Change, pause or resume a report schedule",
    description: `Answers '${reportMessages.updated}', or '${reportMessages.paused}' / '${reportMessages.resumed}' when only paused is given. A new cadence, zone or hour, or a resume, counts from now: a period whose hour has passed is not sent late.`,
    body: UpdateReportScheduleBody,
  }),
  remove: defineChange({ path: "/remove_report_schedule", tags, summary: "Delete a report schedule and its history", description: `Answers '${reportMessages.removed}'.`, body: ScheduleIdBody }),
  sendNow: defineChange({
    path: "/send_report_now",
    tags,
    summary: "Send the report of the last ended period to the signed-in user",
    description:
      "Made now, e-mailed to the caller's own sign-in address only (never the recipients), and kept in the history. Answers 'The report was sent to {address}.' and the report_id. 409 when the sign-in has no e-mail address.",
    body: ScheduleIdBody,
    response: createdOf("ReportSent", "report_id"),
    errors: [404, 409],
  }),
  history: defineCall({
    method: "get",
    path: "/list_report_history",
    tags,
    summary: "The reports of a schedule, newest first",
    description: "Each with its period, its state, the headline figures and each recipient's delivery (a refusal with the mail server's answer).",
    query: z.object({ schedule_id: scheduleIdField(), page: listQuery([]).page, size: listQuery([]).size }),
    response: ReportHistoryPage,
    errors: [404],
  }),
  download: defineCall({
    method: "get",
    path: "/download_report/{report_id}",
    tags,
    summary: "A report made: its PDF, or its CSV",
    description: `The stored file, as it was e-mailed (format=pdf, the default; format=csv for the tables). 404 '${reportMessages.reportNotFound}' for another account's report, an unknown one, or one not made yet.`,
    params: z.object({ report_id: idField("Report id").openapi({ example: "rpt-5q2w8e1r4t6y" }) }),
    query: z.object({ format: z.enum(["pdf", "csv"], { error: "Format must be pdf or csv" }).default("pdf") }),
    response: z.string().openapi({ format: "binary" }),
    media: "application/pdf",
    errors: [404],
    responses: {
      200: {
        description: "The PDF (format=pdf), or the CSV with a byte order mark (format=csv), as an attachment",
        content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) }, "text/csv": { schema: z.string() } },
      },
    },
  }),
  confirm: defineChange({
    path: "/confirm_report_recipient",
    tags,
    summary: "Confirm an address for reports (the e-mailed link)",
    description: `No bearer token: the link's token is the authorization. Answers '${reportMessages.confirmed}'; 400 '${reportMessages.confirmInvalid}' for a token unknown, used or expired.`,
    public: true,
    body: ConfirmRecipientBody,
    errors: [400],
  }),
};

export function registerReportCalls(app: PlatformApp) {
  app.openapi(routes.list, async (c) => scheduleList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(routes.export, async (c) => ndjsonResponse(scheduleList.batches(c.get("deps").db, caller(c).accountId, c.req.valid("query")), c.req.raw.signal));
  app.openapi(
    routes.detail,
    answerQuery(routes.detail, (deps, who, q) => scheduleList.one(deps.db, who.accountId, q.schedule_id)),
  );
  app.openapi(
    routes.create,
    answerChange(
      routes.create,
      (deps, who, b) => createSchedule(deps, who.accountId, b),
      (id) => ({ schedule_id: id, detail: reportMessages.created }),
    ),
  );
  app.openapi(
    routes.update,
    answerChange(
      routes.update,
      (deps, who, { schedule_id, ...b }) => updateSchedule(deps, who.accountId, schedule_id, b),
      (what) => ({ detail: reportMessages[what] }),
    ),
  );
  app.openapi(
    routes.remove,
    answerDetail(routes.remove, (deps, who, b) => removeSchedule(deps.db, who.accountId, b.schedule_id), reportMessages.removed),
  );
  app.openapi(
    routes.sendNow,
    answerChange(
      routes.sendNow,
      (deps, who, b) => sendReportNow(deps, who, b.schedule_id),
      (r) => ({ report_id: r.report_id, detail: reportMessages.sentNow(r.email) }),
    ),
  );
  app.openapi(
    routes.history,
    answerQuery(routes.history, (deps, who, q) => reportHistoryPage(deps.db, who.accountId, q.schedule_id, q.page, q.size)),
  );
  app.openapi(routes.download, async (c) => {
    const file = await reportFile(c.get("deps").db, caller(c).accountId, c.req.valid("param").report_id, c.req.valid("query").format);
    return c.body(new Uint8Array(file.body), 200, {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.fileName}"`,
      "content-length": String(file.body.length),
      "cache-control": "private, no-store",
    });
  });
  app.openapi(
    routes.confirm,
    answerPublic(routes.confirm, (deps, b) => confirmRecipient(deps.db, b.token), reportMessages.confirmed),
  );
}
