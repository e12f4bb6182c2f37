import { z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import type { PlatformApp } from "../app.ts";
import { monitoringRanges, POST_MORTEM_EVENTS } from "../contract/monitoring.ts";
import { DashboardSummary, DeviceRoute, PostMortem, WanLinkHealth, WanLinkUtilization } from "../contract/monitoring.shapes.ts";
import { affectedOf } from "../domain/availability.ts";
import { dashboardSummary, deviceRoute, postMortemOf, POST_MORTEM_CHUNK_MS, wanLinkHealth, wanLinkUtilization } from "../domain/monitoring.ts";
import { renderPostMortemPdf } from "../reports/post-mortem.ts";
import { cachedJson } from "../lib/auth.ts";
import { answerQuery, caller, type Ctx } from "../lib/context.ts";
import { expects, idField, limits, maxMessage, plainText } from "../lib/fields.ts";
import { defineCall } from "../lib/openapi.ts";
import { nodeId } from "../contract/devices-fields.shapes.ts";

/*
 * /main-dashboard's monitoring feeds (spec 3 §2.14, §3; §7.4 shows none, so they are ours, in the
 * spelling of dashboard_get_device_names): Map View's summary, and per device of the account
 * (another account's: 404) WAN Link Health, WAN Link Utilization, the route and the post-mortem of
 * an outage (whole, streamed, as a PDF). Every role may read them; time-based, so never cached.
 */

const tags = ["Main dashboard"];
const rangeField = () =>
  z
    .enum(monitoringRanges, {
      error: `Range must be one of: ${monitoringRanges.join(", ")}`,
    })
    .default("1d");
const rangeText = `range one of ${monitoringRanges.join(", ")} (default 1d; 60–170 points)`;
const DeviceRangeQuery = z.object({ node_id: nodeId(), range: rangeField() });
const OutageQuery = z.object({
  node_id: nodeId(),
  outage_id: idField("Outage id").openapi({
    description: "An outage_id of the device's outage history",
    example: "out-cpe-1a2b3c-20412",
  }),
});

export const summaryCall = defineCall({
  method: "get",
  path: "/dashboard_get_summary",
  tags,
  summary: "Map View: the account's counts, its devices by region and the devices",
  description:
    "Global: item name to count (Internet NIDs, Metro Ethernet NIDs, Devices Up, Devices Down, App Services, Endpoints, Service Nodes, Endpoint Nodes, User Agents). " +
    "With entity_name the device counts, regions and devices are that entity's (unknown: 404); the Private Access counts are the account's.",
  query: z.object({
    entity_name: z
      .string({ error: expects("a valid string") })
      .max(limits.name, maxMessage(limits.name))
      .apply(plainText)
      .optional()
      .openapi({
        description: "One of GET get_entity_names; absent or '': every device",
      }),
  }),
  response: DashboardSummary,
  errors: [404],
});

export const healthCall = defineCall({
  method: "get",
  path: "/dashboard_get_wan_link_health",
  tags,
  summary: "WAN Link Health: uptime, health, RTT, loss, daily tests and outage history of a device",
  description: `A CPE or metro id; ${rangeText}. Uptime leaves announced maintenance out. performance_tests: the daily test of the last 7 days whatever the range. The outage history is newest first.`,
  query: DeviceRangeQuery,
  response: WanLinkHealth,
  errors: [404],
});

export const utilizationCall = defineCall({
  method: "get",
  path: "/dashboard_get_wan_link_utilization",
  tags,
  summary: "WAN Link Utilization: upload/download utilization and the peak hours of a device",
  description: `A CPE or metro id; ${rangeText}. Ratios 0–1 (the console shows them × 100); peak hours per UTC day.`,
  query: DeviceRangeQuery,
  response: WanLinkUtilization,
  errors: [404],
});

export const routeCall = defineCall({
  method: "get",
  path: "/dashboard_get_route",
  tags,
  summary: "Path Visualization: today's path to the monitored address and the path at the last outage",
  description: "A CPE or metro id. down_hops is the traceroute at the last outage (in the last 90 days); empty when the default gateway was unreachable.",
  query: z.object({ node_id: nodeId() }),
  response: DeviceRoute,
  errors: [404],
});

export const postMortemCall = defineCall({
  method: "get",
  path: "/dashboard_get_post_mortem",
  tags,
  summary: "The post-mortem analysis of an outage, whole (markdown)",
  description: "A CPE or metro id and one of its outages (an outage_id of its outage history); another device's outage or none: 404 'Outage not found.'.",
  query: OutageQuery,
  response: PostMortem,
  errors: [404],
});

export const streamCall = defineCall({
  method: "get",
  path: "/dashboard_stream_post_mortem",
  tags,
  summary: "The post-mortem analysis of an outage, streamed (server-sent events)",
  description:
    `Events \`${POST_MORTEM_EVENTS.chunk}\` (data: the next piece of the markdown as a JSON string; id: the offset after it), then \`${POST_MORTEM_EVENTS.end}\` (data: the total length), then the stream ends. ` +
    "The text is a function of the stored device and the time, so any platform instance serves it; reconnecting with Last-Event-ID resumes after that offset.",
  query: OutageQuery,
  response: z.string().openapi({ description: "Each chunk event's data: a JSON string" }),
  media: "text/event-stream",
  responseDescription: "text/event-stream",
  errors: [404],
});

export const pdfCall = defineCall({
  method: "get",
  media: "application/pdf",
  path: "/dashboard_get_post_mortem_pdf",
  tags,
  summary: "The post-mortem analysis of an outage as a multi-page A4 PDF (analysis.pdf)",
  description: "The analysis, then the path today on its own page. Another device's outage or none: 404 'Outage not found.'.",
  query: OutageQuery,
  responseDescription: "The PDF, attachment analysis.pdf",
  errors: [404],
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stream: the fleet's chunks after the Last-Event-ID offset, paced as they are written. */
async function postMortemStream(c: Ctx, nodeId: string, outageId: string) {
  const pm = await postMortemOf(c.get("deps"), caller(c).accountId, nodeId, outageId, { affected: affectedOf });
  const last = Number(c.req.header("last-event-id") ?? 0);
  const after = Number.isInteger(last) && last > 0 ? last : 0;
  c.header("cache-control", "no-cache, no-transform");
  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    let aborted = false;
    stream.onAbort(() => {
      aborted = true;
    });
    let offset = 0;
    for await (const chunk of pm.stream) {
      offset += chunk.length;
      if (offset <= after) continue;
      if (aborted) return;
      await sleep(POST_MORTEM_CHUNK_MS);
      const piece = offset - chunk.length < after ? chunk.slice(after - (offset - chunk.length)) : chunk;
      await stream.writeSSE({
        id: String(offset),
        event: POST_MORTEM_EVENTS.chunk,
        data: JSON.stringify(piece),
      });
    }
    await stream.writeSSE({
      event: POST_MORTEM_EVENTS.end,
      data: String(pm.markdown.length),
    });
  });
}

async function postMortemPdf(c: Ctx, nodeId: string, outageId: string) {
  const deps = c.get("deps");
  const accountId = caller(c).accountId;
  const [pm, today] = await Promise.all([postMortemOf(deps, accountId, nodeId, outageId, { affected: affectedOf }), deviceRoute(deps, accountId, nodeId)]);
  const pdf = await renderPostMortemPdf(pm, today, {
    productName: deps.config.productName,
    generatedAt: new Date(),
  });
  return c.body(new Uint8Array(pdf), 200, {
    "content-type": "application/pdf",
    "content-disposition": 'attachment; filename="analysis.pdf"',
    "content-length": String(pdf.length),
    "cache-control": "private, no-store",
  });
}

export function registerMonitoringCalls(app: PlatformApp) {
  app.openapi(
    summaryCall,
    (c) => cachedJson(c, () => dashboardSummary(c.get("deps").db, caller(c).accountId, c.req.valid("query").entity_name || undefined)),
  );
  app.openapi(
    healthCall,
    answerQuery(healthCall, (deps, who, q, remember) => wanLinkHealth(deps, who.accountId, q.node_id, q.range, remember)),
  );
  app.openapi(
    utilizationCall,
    answerQuery(utilizationCall, (deps, who, q, remember) => wanLinkUtilization(deps, who.accountId, q.node_id, q.range, remember)),
  );
  app.openapi(
    routeCall,
    answerQuery(routeCall, (deps, who, q, remember) => deviceRoute(deps, who.accountId, q.node_id, remember)),
  );
  app.openapi(
    postMortemCall,
    answerQuery(postMortemCall, async (deps, who, q) => {
      const { stream: _, ...pm } = await postMortemOf(deps, who.accountId, q.node_id, q.outage_id, { affected: affectedOf });
      return pm;
    }),
  );
  app.openapi(streamCall, async (c) => {
    const q = c.req.valid("query");
    return postMortemStream(c, q.node_id, q.outage_id);
  });
  app.openapi(pdfCall, async (c) => {
    const q = c.req.valid("query");
    return postMortemPdf(c, q.node_id, q.outage_id);
  });
}
