import { z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import type { PlatformApp } from "../app.ts";
import { deviceMessages, monitoringRanges, type Y1564PerformanceDuration } from "../contract/devices.ts";
import { ActivationEvent, ActivationReport, ActivationStarted, DeviceMonitoring, NodeRegistered, NodeToken, ResetInterfaceBody, StartCpeTestBody, StartMetroTestBody, ToolQuery, ToolResult } from "../contract/devices.shapes.ts";
import { deviceMonitoring, diagnostics, generateNodeToken, registerNode, resetInterface, resetNode, runTool } from "../domain/device-ops.ts";
import { openTestStream, startTest, testEvents, testReport, type Peer, type TestChoices } from "../domain/device-tests.ts";
import type { DeviceKind } from "../domain/devices.ts";
import { renderActivationReportPdf } from "../reports/activation-report.ts";
import { registerCpeCalls } from "./cpe.ts";
import { registerMetroCalls } from "./metro.ts";
import { answerChange, answerDetail, answerQuery, caller, type Ctx } from "../lib/context.ts";
import { attachment } from "../lib/attachment.ts";
import { body, expects, idField, maxMessage } from "../lib/fields.ts";
import { defineCall, DetailSchema } from "../lib/openapi.ts";
import { cpeId, metroId, nodeId } from "../contract/devices-fields.shapes.ts";
import { fieldMessages } from "../contract/messages.ts";

/*
 * What both kinds of device answer (spec 3 §7.1 node calls: run_ping, run_traceroute,
 * run_health_check, reset_interface, reset_node, generate_node_token), the activation test
 * (start_cpe_test — ours —, start_metro_test), its server-sent event stream (check-test-status,
 * ours: the spec names it only) and its report, as JSON and as the A4 PDF.
 */

const tags = ["Internet NIDs", "Metro Ethernet NIDs"];

export const pingRoute = defineCall({ method: "get", path: "/run_ping", tags, summary: "Ping from the device (iputils ping -c 4)", description: "A CPE or metro id. Answers the output as `result`.", query: ToolQuery, response: ToolResult, errors: [404] });
export const tracerouteRoute = defineCall({ method: "get", path: "/run_traceroute", tags, summary: "Traceroute from the device", description: "A CPE or metro id. Answers the output as `result`.", query: ToolQuery, response: ToolResult, errors: [404] });
export const healthRoute = defineCall({
  method: "get",
  path: "/run_health_check",
  tags,
  summary: "Get Diagnostics",
  description: "The device's diagnostics as a JSON string (spec 3 §7.1); '' when the device does not answer (down): 'No diagnostic data available to download.'.",
  query: z.object({ node_id: nodeId() }),
  response: z.string().openapi({ description: "JSON text" }),
  errors: [404],
});
export const monitoringRoute = defineCall({
  method: "get",
  path: "/get_device_monitoring",
  tags,
  summary: "The Monitoring tab: WAN link health, RTT, loss and utilization",
  description: `A CPE or metro id; range one of ${monitoringRanges.join(", ")} (default 1d; 60–170 points). Uptime leaves announced maintenance out.`,
  query: z.object({
    node_id: nodeId(),
    range: z.enum(monitoringRanges, { error: `Range must be one of: ${monitoringRanges.join(", ")}` }).default("1d"),
  }),
  response: DeviceMonitoring,
  errors: [404],
});
export const resetInterfaceRoute = defineCall({
  method: "post",
  path: "/reset_interface",
  tags,
  summary: "Reset LAN Ports: one interface",
  description: "'Please choose an interface first.' when none; an interface the device does not have: 400. The port is down for 5 s. Answers 'Interface reset.'.",
  only: "writer",
  body: ResetInterfaceBody,
  response: DetailSchema,
  errors: [400, 404],
});
const NodeReset = z.object({ detail: z.string(), down_from: z.string(), up_at: z.string() }).openapi("NodeReset");
export const resetNodeRoute = defineCall({
  method: "post",
  path: "/reset_node",
  tags,
  summary: "Reset Device (hard)",
  description: "The device reboots: down from now until up_at (the fleet's op state follows). Answers 'Device reset.'.",
  only: "writer",
  body: body({ node_id: nodeId(), hard: z.literal(true, { error: "hard must be true" }) }).strict().openapi("ResetNode"),
  response: NodeReset,
  errors: [404],
});
export const tokenRoute = defineCall({
  method: "post",
  path: "/generate_node_token",
  tags,
  summary: "Generate Registration Token",
  description: "A new token, shown once (stored hashed; valid 7 days); the previous one stops working.",
  only: "writer",
  body: body({ node_id: nodeId() }).strict().openapi("GenerateNodeToken"),
  response: NodeToken,
  errors: [404],
});
export const registerRoute = defineCall({
  method: "post",
  path: "/register_node",
  tags,
  summary: "A device registers with its token (the device's call, no bearer)",
  description: "Only the newest token of a device works, until it expires (401 otherwise).",
  public: true,
  body: body({ token: z.string({ error: expects("a valid string") }).min(1, fieldMessages.required("Token")).max(200, maxMessage(200)) }).strict().openapi("RegisterDevice"),
  response: NodeRegistered,
  errors: [401],
});

// ---------------------------------------------------------------------------------------------
// The activation test

export const startCpeRoute = defineCall({
  method: "post",
  path: "/start_cpe_test",
  tags: ["Internet NIDs"],
  summary: "Start Activation Test (ITU-T Y.1564)",
  description:
    "peer_ip ('Please enter peer IP address first.'); optional acceptance criteria (default FTD ≤ 10 ms, FDV ≤ 5 ms, FLR ≤ 0.01 %, availability ≥ 99.9 %); optional performance_duration_s, the service performance test's duration as ITU-T Y.1564 names them: 900 (15 min, the default), 7200 (2 h) or 86400 (24 h). One test at a time (409). Follow it on check-test-status/cpe with the answered sse_id.",
  only: "writer",
  body: StartCpeTestBody,
  response: ActivationStarted,
  errors: [404, 409],
});
export const startMetroRoute = defineCall({
  method: "post",
  path: "/start_metro_test",
  tags: ["Metro Ethernet NIDs"],
  summary: "Start Activation Test (ITU-T Y.1564)",
  description: "peer_ip (L3), or peer_mac and vlan_id (L2); optional acceptance criteria and performance_duration_s (900, 7200 or 86400) as start_cpe_test. One test at a time (409). Answers status and sse_id.",
  only: "writer",
  body: StartMetroTestBody,
  response: ActivationStarted,
  errors: [404, 409],
});

const streamDescription =
  "Server-sent events, one per message (`id:` its seq, `data:` an ActivationEvent as JSON): the start, the link and peer checks, one per Y.1564 step (25/50/75/100 % of CIR, CIR+EIR, overshoot), one per interval of the service performance test (every minute of 15 min, 10 minutes of 2 h, hour of 24 h) with its link speed sample, then its end with the verdict (status completed), or a failure (status failed); then the stream ends. A test started through any instance streams from any other; reconnecting with Last-Event-ID resumes after that message.";
const eventSchema = ActivationEvent.openapi({ description: "Each event's data" });
const CpeQuery = z.object({ cpe_id: cpeId() });
const MetroQuery = z.object({ metro_id: metroId() });
const streamRoute = <P extends `/${string}`, Q extends z.ZodRawShape>(path: P, tag: string, ids: Q) =>
  defineCall({
    method: "get",
    path,
    tags: [tag],
    summary: "Follow an activation test (server-sent events)",
    description: streamDescription,
    query: z.object({ ...ids, sse_id: idField("Test id", "sse-1s5d9f3g7h2j") }),
    response: eventSchema,
    media: "text/event-stream",
    responseDescription: "text/event-stream",
    errors: [404],
  });
export const cpeStreamRoute = streamRoute("/check-test-status/cpe", "Internet NIDs", { cpe_id: cpeId() });
export const metroStreamRoute = streamRoute("/check-test-status/metro", "Metro Ethernet NIDs", { metro_id: metroId() });

const reportRoute = <P extends `/${string}`, Q extends z.ZodType>(path: P, tag: string, query: Q) =>
  defineCall({
    method: "get",
    path,
    tags: [tag],
    summary: "Retrieve Activation Test Report (data)",
    description: "The last finished test: each step's figures and verdict, the performance test, the overall verdict. None: 404 'There is no test data.'.",
    query,
    response: ActivationReport,
    errors: [404],
  });
const pdfRoute = <P extends `/${string}`, Q extends z.ZodType>(path: P, tag: string, query: Q) =>
  defineCall({
    method: "get",
    media: "application/pdf",
    path,
    tags: [tag],
    summary: "Retrieve Activation Test Report (A4 PDF)",
    description: "The last finished test as an A4 PDF attachment. None: 404 'There is no test data.'.",
    query,
    errors: [404],
    responseDescription: "The PDF",
  });
export const cpeReportRoute = reportRoute("/get_cpe_test_report", "Internet NIDs", CpeQuery);
export const metroReportRoute = reportRoute("/get_metro_test_report", "Metro Ethernet NIDs", MetroQuery);
export const cpePdfRoute = pdfRoute("/get_cpe_test_report_pdf", "Internet NIDs", CpeQuery);
export const metroPdfRoute = pdfRoute("/get_metro_test_report_pdf", "Metro Ethernet NIDs", MetroQuery);

/** The event stream of a test of the caller's device (404 before it starts). */
async function eventStream(c: Ctx, kind: DeviceKind, deviceId: string, sseId: string) {
  const deps = c.get("deps");
  await openTestStream(deps, caller(c).accountId, kind, deviceId, sseId);
  const after = Number(c.req.header("last-event-id") ?? 0);
  c.header("cache-control", "no-cache, no-transform");
  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    const abort = new AbortController();
    stream.onAbort(() => abort.abort());
    c.req.raw.signal.addEventListener("abort", () => abort.abort(), { once: true });
    for await (const e of testEvents(deps, sseId, Number.isInteger(after) && after > 0 ? after : 0, abort.signal)) {
      await stream.writeSSE({ id: String(e.seq), event: "message", data: JSON.stringify(e) });
    }
  });
}

async function pdfAnswer(c: Ctx, kind: DeviceKind, deviceId: string) {
  const deps = c.get("deps");
  const report = await testReport(deps, caller(c).accountId, kind, deviceId);
  const pdf = await renderActivationReportPdf(report, { productName: deps.config.productName, generatedAt: new Date() });
  return attachment(c, pdf, `activation-test-${deviceId}.pdf`.replace(/[^A-Za-z0-9._-]/g, "_"));
}

const peerOf = (b: { peer_ip?: string; peer_mac?: string; vlan_id?: unknown }): Peer =>
  b.peer_ip ? { peer_ip: b.peer_ip.trim() } : { peer_mac: String(b.peer_mac).trim().toLowerCase().replace(/-/g, ":"), vlan_id: Number(b.vlan_id) };
const choicesOf = (b: { ftd_max_ms?: number; fdv_max_ms?: number; flr_max_pct?: number; availability_min_pct?: number; performance_duration_s?: Y1564PerformanceDuration }): TestChoices => ({
  criteria: Object.fromEntries(Object.entries({ ftd_max_ms: b.ftd_max_ms, fdv_max_ms: b.fdv_max_ms, flr_max_pct: b.flr_max_pct, availability_min_pct: b.availability_min_pct }).filter(([, v]) => v !== undefined)),
  performanceS: b.performance_duration_s,
});

export function registerDeviceCalls(app: PlatformApp) {
  app.openapi(pingRoute, answerQuery(pingRoute, (deps, who, q) => runTool(deps, who.accountId, q.node_id, "ping", q.ip_address)));
  app.openapi(tracerouteRoute, answerQuery(tracerouteRoute, (deps, who, q) => runTool(deps, who.accountId, q.node_id, "traceroute", q.ip_address)));
  app.openapi(healthRoute, answerQuery(healthRoute, (deps, who, q) => diagnostics(deps, who.accountId, q.node_id)));
  app.openapi(monitoringRoute, answerQuery(monitoringRoute, (deps, who, q, remember) => deviceMonitoring(deps, who.accountId, q.node_id, q.range, remember)));
  app.openapi(resetInterfaceRoute, answerDetail(resetInterfaceRoute, (deps, who, b) => resetInterface(deps, who.accountId, b.node_id, b.interface), deviceMessages.interfaceReset));
  app.openapi(resetNodeRoute, answerChange(resetNodeRoute, (deps, who, b) => resetNode(deps, who.accountId, b.node_id), (r) => ({ detail: deviceMessages.deviceReset, ...r })));
  app.openapi(tokenRoute, answerChange(tokenRoute, (deps, who, b) => generateNodeToken(deps, who.accountId, b.node_id), (r) => r));
  app.openapi(registerRoute, async (c) => c.json(await registerNode(c.get("deps").db, c.req.valid("json").token), 200));
  app.openapi(startCpeRoute, answerChange(startCpeRoute, (deps, who, b) => startTest(deps, who.accountId, "cpe", b.cpe_id, peerOf(b), choicesOf(b)), (r) => r));
  app.openapi(startMetroRoute, answerChange(startMetroRoute, (deps, who, b) => startTest(deps, who.accountId, "metro", b.metro_id, peerOf(b), choicesOf(b)), (r) => r));
  app.openapi(cpeStreamRoute, async (c) => {
    const q = c.req.valid("query");
    return eventStream(c, "cpe", q.cpe_id, q.sse_id);
  });
  app.openapi(metroStreamRoute, async (c) => {
    const q = c.req.valid("query");
    return eventStream(c, "metro", q.metro_id, q.sse_id);
  });
  app.openapi(cpeReportRoute, answerQuery(cpeReportRoute, (deps, who, q) => testReport(deps, who.accountId, "cpe", q.cpe_id)));
  app.openapi(metroReportRoute, answerQuery(metroReportRoute, (deps, who, q) => testReport(deps, who.accountId, "metro", q.metro_id)));
  app.openapi(cpePdfRoute, async (c) => pdfAnswer(c, "cpe", c.req.valid("query").cpe_id));
  app.openapi(metroPdfRoute, async (c) => pdfAnswer(c, "metro", c.req.valid("query").metro_id));
}

/** The whole devices area (#25): Internet NIDs, Metro Ethernet NIDs and what both answer. */
export function registerDevicesArea(app: PlatformApp) {
  registerCpeCalls(app);
  registerMetroCalls(app);
  registerDeviceCalls(app);
}
