import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { apiLogCountCap, apiLogPlainMax, apiLogSortable } from "../contract/support.ts";
import { ApiLogEntry, ApiLogPage } from "../contract/support.shapes.ts";
import { apiLogList, exportApiLog } from "../domain/support.ts";
import { caller } from "../lib/context.ts";
import { limits, timeParam } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse, searchField, wantsPage } from "../lib/list.ts";
import { defineCall, defineListCalls } from "../lib/openapi.ts";

/*
 * The change log (spec 3 §2.13, §3 Api log): every mutating call, as platform/lib/apilog.ts writes
 * it. Read by the Histories screen; its shapes are the support area's (contract/support.shapes.ts).
 */

const tags = ["Change log"];

const time = (what: string) => timeParam(what).optional().openapi({ description: `${what} (inclusive): ISO 8601, or milliseconds since the epoch` });

const logFilters = {
  username: searchField(limits.email, "Usernames containing this text (the IAM user's, else the account's; case-insensitive)"),
  command: searchField(200, "Commands containing this text (part of the call path; a version prefix is ignored; case-insensitive)"),
  from: time("From"),
  to: time("To"),
};

/** A From after its To says so (a 422), instead of a page that finds nothing. */
const rangeInOrder = (q: { from?: Date; to?: Date }, ctx: z.core.$RefinementCtx) => {
  if (q.from instanceof Date && q.to instanceof Date && q.from.getTime() > q.to.getTime()) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "To must be after From" });
  }
};

export const apiLogRoute = defineCall({
  method: "get",
  path: "/get_api_log",
  tags,
  summary: "The account's change log (every mutating call), newest first",
  description: `Without parameters: the spec's array of the newest ${apiLogPlainMax} entries. With any of q, sort, page, size, ids, username, command, from, to: one page \`{items, total, total_capped}\`. Unfiltered, total is exact (a kept counter); filtered, it is counted up to ${apiLogCountCap}.`,
  query: z.object({ ...logFilters, ...listQuery(apiLogSortable), ids: idsFilter }).superRefine(rangeInOrder),
  response: z.union([z.array(ApiLogEntry), ApiLogPage]),
  responseDescription: "The array, or a page",
});

export const exportApiLogRoute = defineListCalls({
  tags,
  item: ApiLogEntry,
  itemName: "ApiLogEntry",
  export: {
    path: "/export_api_log",
    summary: "Every change-log entry the filters select, streamed",
    description:
      "The rows of get_api_log with the same q, sort and filters, all of them, as NDJSON (one ApiLogEntry per line), streamed from SQL in keyset batches.",
    query: z.object({ ...logFilters, ...exportQuery(apiLogSortable) }).superRefine(rangeInOrder),
  },
}).export;

export function registerChangeLogCalls(app: PlatformApp) {
  app.openapi(apiLogRoute, async (c) => {
    const query = c.req.valid("query");
    const paged = wantsPage(query) || query.username !== undefined || query.command !== undefined || query.from !== undefined || query.to !== undefined;
    return apiLogList.answer(c, caller(c).accountId, query, paged);
  });

  app.openapi(exportApiLogRoute, async (c) => {
    const who = caller(c);
    // The first batch is read before the answer starts (ndjsonResponse): a query that fails answers
    // 500, not a 200 whose body then breaks; a later failure errors the stream (the client sees it).
    return ndjsonResponse(exportApiLog(c.get("deps").db, who.accountId, c.req.valid("query")), c.req.raw.signal);
  });
}
