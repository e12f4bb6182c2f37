import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { availabilityMessages, availabilityRanges, monthOf, type AvailabilityScope } from "../contract/availability.ts";
import { Availability, OutageHistoryEntry, OutageRecord, SlaReport } from "../contract/availability.shapes.ts";
import { availability, outageHistory, outageRecord, slaReport, type AvailabilityWindow } from "../domain/availability.ts";
import { renderSlaReportPdf } from "../reports/sla-report.ts";
import { answerQuery, caller, type Ctx } from "../lib/context.ts";
import { idField } from "../lib/fields.ts";
import { ndjsonResponse } from "../lib/list.ts";
import { defineCall } from "../lib/openapi.ts";

/*
 * Availability, the outage record and the SLA report (issue #26 "Beyond the peers"; the spec
 * leaves these feeds out, so they are defined in its style: snake_case GETs with the device's
 * node_id). Another account's device, entity or outage answers 404; readonly users may read all.
 */

const tags = ["Availability"];

const rangeField = () => z.enum(availabilityRanges, { error: `Range must be one of: ${availabilityRanges.join(", ")}` });
const monthField = () =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, availabilityMessages.month)
    // A month that has begun: the report of a month to come has nothing to say.
    .refine((m) => m >= "2000-01" && m <= monthOf(Date.now()), availabilityMessages.month)
    .openapi({ example: "2026-11" });

const scopeFields = { node_id: idField("Node id").optional().openapi({ description: "A CPE or metro id" }), entity_id: idField("Entity id").optional() };
const oneScope = <T extends { node_id?: string; entity_id?: string }>(q: T) => (q.node_id === undefined) !== (q.entity_id === undefined);
const scopeOf = (q: { node_id?: string; entity_id?: string }): AvailabilityScope => (q.node_id !== undefined ? { node_id: q.node_id } : { entity_id: q.entity_id! });
const scopeIssue = { message: availabilityMessages.oneScope, path: ["node_id"] };

const HistoryQuery = z.object({ node_id: idField("Node id", "cpe-7m3q9w5e1r8t").openapi({ description: "A CPE or metro id" }), range: rangeField().default("1d") });
const AvailabilityQuery = z
  .object({ ...scopeFields, range: rangeField().optional(), month: monthField().optional() })
  .refine(oneScope, scopeIssue)
  .refine((q) => q.range === undefined || q.month === undefined, { message: availabilityMessages.oneWindow, path: ["month"] });
const ReportQuery = z.object({ ...scopeFields, month: monthField() }).refine(oneScope, scopeIssue);

export const historyRoute = defineCall({
  method: "get",
  path: "/get_outage_history",
  tags,
  summary: "Outage History of a device",
  description: `The WAN Link Health tab's Outage History (spec 3 §2.14): per outage a down row at its start (the self-diagnosis) and an up row at its end (what recovered it), newest first, over a range (${availabilityRanges.join(", ")}; default 1d). Each row names its outage (get_outage).`,
  query: HistoryQuery,
  response: z.array(OutageHistoryEntry),
  errors: [404],
});
export const exportHistoryRoute = defineCall({
  method: "get",
  path: "/export_outage_history",
  tags,
  summary: "Outage History of a device, streamed",
  description: "The rows of get_outage_history with the same query, as NDJSON (one OutageHistoryEntry per line): the console's CSV export.",
  query: HistoryQuery,
  response: OutageHistoryEntry,
  media: "application/x-ndjson",
  responseDescription: "One OutageHistoryEntry (JSON) per line",
  errors: [404],
});
export const outageRoute = defineCall({
  method: "get",
  path: "/get_outage",
  tags,
  summary: "One outage: the outage record",
  description:
    "Start, end, duration, the self-diagnosis and what recovered it, the path at the time of failure beside today's path, the app services and endpoints served through the device, and the SLA impact in the month it began (minutes outside announced maintenance and percentage points of that month's availability).",
  query: z.object({ outage_id: idField("Outage id").openapi({ example: "out-cpe-abc123-20412" }) }),
  response: OutageRecord,
  errors: [404],
});
export const availabilityRoute = defineCall({
  method: "get",
  path: "/get_availability",
  tags,
  summary: "Availability of a device or an entity (excl. maintenance)",
  description:
    "node_id or entity_id; range (ending now) or month (YYYY-MM, UTC; default range 1d). Uptime = (window − downtime − maintenance) / (window − maintenance), 3 decimals, the downtime counted being the outages' time outside announced maintenance; the window starts at the device's creation when later. An entity adds its devices' minutes. With the downtime minutes, the outages counted and the SLO of 99.9 % (≈ 43.8 minutes a month).",
  query: AvailabilityQuery,
  response: Availability,
  errors: [404],
});
export const reportRoute = defineCall({
  method: "get",
  path: "/get_sla_report",
  tags,
  summary: "SLA report of a device or an entity for a calendar month",
  description: "get_availability for the month, with every outage of the month and the minutes of it that counted.",
  query: ReportQuery,
  response: SlaReport,
  errors: [404],
});
export const reportPdfRoute = defineCall({
  method: "get",
  media: "application/pdf",
  path: "/get_sla_report_pdf",
  tags,
  summary: "SLA report as a one-page A4 PDF",
  description: "The figures of get_sla_report for the same query, as an A4 attachment.",
  query: ReportQuery,
  errors: [404],
  responseDescription: "The PDF",
});

function windowOf(q: { range?: string; month?: string }): AvailabilityWindow {
  return q.month !== undefined ? { month: q.month } : { range: q.range ?? "1d" };
}

async function reportPdf(c: Ctx, q: { node_id?: string; entity_id?: string; month: string }) {
  const deps = c.get("deps");
  const report = await slaReport(deps, caller(c).accountId, scopeOf(q), q.month);
  const pdf = await renderSlaReportPdf(report, { productName: deps.config.productName });
  const fileName = `sla-report-${report.id}-${report.month}.pdf`.replace(/[^A-Za-z0-9._-]/g, "_");
  return c.body(new Uint8Array(pdf), 200, {
    "content-type": "application/pdf",
    "content-disposition": `attachment; filename="${fileName}"`,
    "content-length": String(pdf.length),
    "cache-control": "private, no-store",
  });
}

export function registerAvailabilityCalls(app: PlatformApp) {
  app.openapi(
    historyRoute,
    answerQuery(historyRoute, (deps, who, q) => outageHistory(deps, who.accountId, q.node_id, q.range)),
  );
  app.openapi(exportHistoryRoute, async (c) => {
    const q = c.req.valid("query");
    const rows = await outageHistory(c.get("deps"), caller(c).accountId, q.node_id, q.range);
    // One batch: a device's history over a week is a few dozen rows.
    return ndjsonResponse(
      (async function* () {
        yield rows;
      })(),
    );
  });
  app.openapi(
    outageRoute,
    answerQuery(outageRoute, (deps, who, q) => outageRecord(deps, who.accountId, q.outage_id)),
  );
  app.openapi(
    availabilityRoute,
    answerQuery(availabilityRoute, (deps, who, q, remember) => availability(deps, who.accountId, scopeOf(q), windowOf(q), remember)),
  );
  app.openapi(
    reportRoute,
    answerQuery(reportRoute, (deps, who, q) => slaReport(deps, who.accountId, scopeOf(q), q.month)),
  );
  app.openapi(reportPdfRoute, async (c) => reportPdf(c, c.req.valid("query")));
}
