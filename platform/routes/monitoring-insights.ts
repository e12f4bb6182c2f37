import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { monitoringRanges } from "../contract/devices.ts";
import { flowNotFound } from "../contract/monitoring-insights.ts";
import { AppFlowReport, AppFlows, AppVisibility, DdosProtection } from "../contract/monitoring-insights.shapes.ts";
import { appFlowReport, appFlows, appVisibility, ddosProtection } from "../domain/monitoring-insights.ts";
import { renderPcapInsightsPdf } from "../reports/pcap-insights.ts";
import { rememberIn } from "../lib/auth.ts";
import { caller } from "../lib/context.ts";
import { defineCall } from "../lib/openapi.ts";
import { nodeId } from "../contract/devices-fields.shapes.ts";

/*
 * /main-dashboard tabs 4–6 (spec 3 §2.14; §7.4 leaves these calls out, so they are ours, named in
 * the spec's style): Application Visibility, Application Performance Insights (the device's flows
 * judged, reported and printed as the PCAP analyzer does a capture's sessions) and the DDoS
 * Protection Suite. Every role may read them; time-based, so never cached.
 */

const tags = ["Main dashboard"];
const rangeField = () =>
  z
    .enum(monitoringRanges, {
      error: `Range must be one of: ${monitoringRanges.join(", ")}`,
    })
    .default("1d");
const DeviceRangeQuery = z.object({ node_id: nodeId(), range: rangeField() });
const FlowQuery = z.object({
  node_id: nodeId(),
  range: rangeField(),
  session_id: z
    .string({ error: "Field required" })
    .regex(/^[0-9a-f]{16}$/, "session_id must be a session id")
    .openapi({
      description: "A session_id of dashboard_get_app_flows for the same range",
      example: "9f86d081884c7d65",
    }),
});
const rangeText = `range one of ${monitoringRanges.join(", ")} (default 1d)`;

export const visibilityCall = defineCall({
  method: "get",
  path: "/dashboard_get_app_visibility",
  tags,
  summary: "Application Visibility: the device's applications over a range",
  description: `A CPE or metro id; ${rangeText}. The device's bytes over the range shared among the applications seen; sessions (one per application) most bytes first.`,
  query: DeviceRangeQuery,
  response: AppVisibility,
  errors: [404],
});

export const flowsCall = defineCall({
  method: "get",
  path: "/dashboard_get_app_flows",
  tags,
  summary: "App Flows & Performance Analysis: the device's flows and how many are degraded",
  description:
    `A CPE or metro id; ${rangeText}. Each flow is a PCAP session row judged with the PCAP analyzer's thresholds (docs/pcap.md) on what the device's flow monitor counted; ` +
    "`summary.degraded_percent` is the share of flows whose performance is not good, as the analyzer's summary says it.",
  query: DeviceRangeQuery,
  response: AppFlows,
  errors: [404],
});

export const flowReportCall = defineCall({
  method: "get",
  path: "/dashboard_get_app_flow_report",
  tags,
  summary: "The flow analysis report of one of the device's flows",
  description: `The PCAP analyzer's flow analysis report. 404 '${flowNotFound}' for a session that is not among the device's flows of the range.`,
  query: FlowQuery,
  response: AppFlowReport,
  errors: [404],
});

export const flowReportPdfCall = defineCall({
  method: "get",
  media: "application/pdf",
  path: "/dashboard_get_app_flow_report_pdf",
  tags,
  summary: "The performance insights report of one of the device's flows, as a PDF",
  description:
    "The PCAP analyzer's A4 report (Summary, General Info, Network Data, Flow Quality Assessment). Sent as an attachment named '{product}-performance-insights-report.pdf'.",
  query: FlowQuery,
  errors: [404],
  responseDescription: "The PDF",
});

export const ddosCall = defineCall({
  method: "get",
  path: "/dashboard_get_ddos",
  tags,
  summary: "DDoS Protection Suite: traffic geolocations, blocked malicious IPs, attacks and mitigation",
  description:
    `A CPE or metro id; ${rangeText}. Inbound sources and outbound destinations by city with their malicious scores, the blocked sources (none while blocking is off) and their history, ` +
    "the attacks judged against the device's DDoS thresholds (mitigated with DDoS mitigation on), and the mitigation traffic per bucket.",
  query: DeviceRangeQuery,
  response: DdosProtection,
  errors: [404],
});

export function registerMonitoringInsightsCalls(app: PlatformApp) {
  app.openapi(visibilityCall, async (c) => {
    const q = c.req.valid("query");
    return c.json(await appVisibility(c.get("deps"), caller(c).accountId, q.node_id, q.range, rememberIn(c)), 200);
  });
  app.openapi(flowsCall, async (c) => {
    const q = c.req.valid("query");
    return c.json(await appFlows(c.get("deps"), caller(c).accountId, q.node_id, q.range), 200);
  });
  app.openapi(flowReportCall, async (c) => {
    const q = c.req.valid("query");
    const { report } = await appFlowReport(c.get("deps"), caller(c).accountId, q.node_id, q.range, q.session_id);
    return c.json(
      {
        node_id: q.node_id,
        range: q.range,
        session_id: q.session_id,
        ...report,
      },
      200,
    );
  });
  app.openapi(flowReportPdfCall, async (c) => {
    const q = c.req.valid("query");
    const deps = c.get("deps");
    const found = await appFlowReport(deps, caller(c).accountId, q.node_id, q.range, q.session_id);
    const pdf = await renderPcapInsightsPdf({
      productName: deps.config.productName,
      fileName: `${found.device.name}, flows of the last ${q.range}`,
      session: found.session,
      report: found.report,
      generatedAt: new Date(),
    });
    const fileName = `${deps.config.productName}-performance-insights-report.pdf`;
    return c.body(new Uint8Array(pdf), 200, {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${fileName.replace(/[^\x20-\x7E]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "content-length": String(pdf.length),
      "cache-control": "private, no-store",
    });
  });
  app.openapi(ddosCall, async (c) => {
    const q = c.req.valid("query");
    return c.json(await ddosProtection(c.get("deps"), caller(c).accountId, q.node_id, q.range, rememberIn(c)), 200);
  });
}
