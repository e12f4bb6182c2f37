import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { NET_STATS_MAX_DAYS, NET_STATS_MAX_IDS } from "../contract/dashboard.ts";
import { AccountSummary, DashboardObjects, NetStats } from "../contract/dashboard.shapes.ts";
import { accountSummary, dashboardObjects, netStats } from "../domain/dashboard.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { cachedJson } from "../lib/auth.ts";
import { caller } from "../lib/context.ts";
import { checkTimeRange, timeParam } from "../lib/fields.ts";
import { defineCall } from "../lib/openapi.ts";

// The Private Access dashboard (spec 2 §7 'Dashboard'): counts, the charted objects, their traffic.
// Every role may read them.

const tags = ["Dashboard"];
const NetStatsQuery = z
  .object({
    ids: z
      .string({ error: "Field required" })
      .max(NET_STATS_MAX_IDS * 101)
      .transform((s) => [...new Set(s.split(",").map((id) => id.trim()).filter(Boolean))])
      .refine((ids) => ids.length <= NET_STATS_MAX_IDS, `At most ${NET_STATS_MAX_IDS} ids may be asked for at once`)
      .openapi({ type: "string", description: `Endpoint and app service ids, comma-joined (at most ${NET_STATS_MAX_IDS})`, example: "ep-1,as-1" }),
    start_time: timeParam("start_time"),
    end_time: timeParam("end_time"),
  })
  .superRefine((q, ctx) => checkTimeRange(ctx, { start: q.start_time, end: q.end_time }, { maxDays: NET_STATS_MAX_DAYS }));

export const summaryCall = defineCall({
  method: "get",
  path: "/get-account-summary",
  tags,
  summary: "How many app services, endpoints, service nodes, endpoint nodes and user agents the account has",
  description: "Counted in SQL. Service nodes and endpoint nodes are 0 until those objects exist.",
  response: AccountSummary,
});

export const objectsCall = defineCall({
  method: "get",
  path: "/list-endpoint-dashboard",
  tags,
  summary: "The endpoints and app services the dashboard charts",
  description: "Oldest first. Their ids go to get-net-stats.",
  response: DashboardObjects,
});

export const netStatsCall = defineCall({
  method: "get",
  path: "/get-net-stats",
  tags,
  summary: "Transmit and receive bytes per second of endpoints and app services",
  description:
    `A series per id (\`{id: [{timestamp, tx_bytes, rx_bytes}]}\`), 60–170 buckets whatever the range; an app service's traffic is the sum of its endpoints'. ` +
    `Ids of another account, or unknown ones, are left out. 422 for more than ${NET_STATS_MAX_IDS} ids, an unreadable or reversed range, or one longer than ${NET_STATS_MAX_DAYS} days.`,
  query: NetStatsQuery,
  response: NetStats,
});

export function registerDashboardCalls(app: PlatformApp) {
  const db = (c: { get(k: "deps"): { db: import("../db/client.ts").Db } }) => c.get("deps").db;
  app.openapi(summaryCall, (c) => cachedJson(c, () => accountSummary(db(c), caller(c).accountId)));
  app.openapi(objectsCall, (c) => cachedJson(c, () => dashboardObjects(db(c), caller(c).accountId)));
  app.openapi(netStatsCall, async (c) => {
    const q = c.req.valid("query");
    return c.json(await netStats(db(c), fleetOf(c.get("deps")), caller(c).accountId, q.ids, q.start_time, q.end_time), 200);
  });
}
