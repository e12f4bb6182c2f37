import { cachedJson } from "../lib/auth.ts";
import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  apiLogCountCap,
  apiLogPlainMax,
  apiLogSortable,
  ticketCategories,
  ticketLimits,
  ticketPriorities,
  ticketSortable,
  type ApiLogEntry,
  type Correspondence,
  type Ticket,
} from "../contract/support.ts";
import {
  addCorrespondence,
  correspondence,
  createTicket,
  deviceNames,
  exportApiLog,
  listApiLog,
  listTickets,
  queryApiLog,
  queryTickets,
  resolveTicket,
  ticketDetail,
} from "../domain/support.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { ErrorSchema } from "../lib/errors.ts";
import { expects, idField, isSingleLine, junkMessage, limits, maxMessage, text } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, pageSchema, wantsPage } from "../lib/list.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";

/*
 * Support Center and the change log (spec 3 §2.12, §2.13, §3 Ticket and Api log, §5, §7.3).
 * The spec shows no call for the ticket list, its detail and resolving: they are get_ticket,
 * get-ticket-detail and resolve_ticket here, in the spelling of their neighbours.
 */

// ---------------------------------------------------------------------------------------------
// Schemas

const TicketSchema = z
  .object({
    ticket_id: z.string().openapi({ example: "tkt-5q2w8e1r4t6y" }),
    title: z.string().openapi({ description: "The subject" }),
    category: z.string(),
    priority: z.string(),
    state: z.string().openapi({ description: "Open, or Closed once resolved (irreversible)" }),
    account_id: z.string(),
    device_id: z.string().nullable(),
    entity_id: z.string().nullable().openapi({ description: "The entity of the IAM user who opened it (null for the account)" }),
    created_by: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Ticket") satisfies z.ZodType<Ticket>;

const CorrespondenceSchema = z
  .object({
    correspondence_id: z.string(),
    correspondence: z.string().openapi({ description: "The text as typed (line breaks kept)" }),
    created_by: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Correspondence") satisfies z.ZodType<Correspondence>;

const DeviceNamesSchema = z
  .object({
    cpe: z.array(z.object({ name: z.string(), id: z.string() })),
    metro: z.array(z.object({ name: z.string(), id: z.string() })),
  })
  .openapi("DeviceNames");

const choice = (what: string, values: readonly string[]) =>
  z
    .string({ error: expects("a valid string") })
    .min(1, `${what} is required`)
    .refine((v) => values.includes(v), `${what} must be one of: ${values.join(", ")}`)
    .openapi({ enum: [...values] });

/** Non-blank text of at most `max` characters, line breaks allowed. */
const message = (what: string, max: number) => text(max, { min: 1, multiline: true, minMessage: `${what} is required` });

const CreateTicketBody = z
  .strictObject({
    title: text(ticketLimits.title, { min: 1, minMessage: "Subject is required" }).openapi({ description: "The subject" }),
    description: message("Description", ticketLimits.description),
    priority: choice("Priority", ticketPriorities).openapi({ description: "One of GET get_ticket_priority" }),
    category: choice("Category", ticketCategories).openapi({ description: "One of GET get_ticket_category" }),
    device_id: z
      .string({ error: expects("a valid string") })
      .max(limits.id, maxMessage(limits.id))
      .refine(isSingleLine, junkMessage)
      .optional()
      .openapi({ description: "One of GET dashboard_get_device_names (unknown: 404); '' or absent: none" }),
  })
  .openapi("CreateTicket");

const TicketIdBody = z.strictObject({ ticket_id: idField("Ticket id") }).openapi("TicketId");

const ReplyBody = z
  .strictObject({ ticket_id: idField("Ticket id"), correspondence: message("Reply", ticketLimits.correspondence) })
  .openapi("AddCorrespondence");

const TicketQuery = z.object({ ...listQuery(ticketSortable), ids: idsFilter });

const ApiLogEntrySchema = z
  .object({
    id: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    iam_user_username: z.string().nullable(),
    account_username: z.string(),
    url_path: z.string().openapi({ description: "The request path without the API version prefix (the Command)" }),
    request_body: z.unknown().openapi({ description: "The JSON body with every secret replaced by ***" }),
    query_parameters: z.unknown(),
    account_id: z.string(),
    iam_user_id: z.string().nullable(),
  })
  .openapi("ApiLogEntry") satisfies z.ZodType<ApiLogEntry>;

const time = (what: string) =>
  z.iso
    .datetime({ offset: true, error: `${what} must be a date and time (ISO 8601, e.g. 2026-11-23T10:00:00Z)` })
    .optional()
    .openapi({ description: `${what} (inclusive)` });

const logFilters = {
  username: z
    .string()
    .trim()
    .max(limits.email, maxMessage(limits.email))
    .refine(isSingleLine, junkMessage)
    .optional()
    .openapi({ description: "Only this username (the IAM user's, else the account's; case-insensitive)" }),
  command: z
    .string()
    .trim()
    .max(200, maxMessage(200))
    .refine(isSingleLine, junkMessage)
    .optional()
    .openapi({ description: "Only this command (the call path, with or without its leading / and version prefix)" }),
  from: time("From"),
  to: time("To"),
};

const ApiLogQuerySchema = z.object({ ...logFilters, ...listQuery(apiLogSortable), ids: idsFilter });

const ApiLogPageSchema = pageSchema(ApiLogEntrySchema, "ApiLogPage")
  .extend({
    total_capped: z
      .boolean()
      .openapi({ description: `True when the filters select more than ${apiLogCountCap} rows: total is then ${apiLogCountCap}, not counted further` }),
  })
  .openapi("ApiLogPage");

const TicketCreatedSchema = z.object({ ticket_id: z.string(), detail: z.string() }).openapi("TicketCreated");

const closedResponse = {
  409: { description: "The ticket is closed (resolving is irreversible)", content: { "application/json": { schema: ErrorSchema } } },
};

// ---------------------------------------------------------------------------------------------
// Calls

const priorityRoute = createRoute({
  method: "get",
  path: "/get_ticket_priority",
  tags: ["Support"],
  summary: "The ticket priorities",
  security: bearer,
  responses: { ...ok(z.array(z.string())), ...errors(401) },
});

const categoryRoute = createRoute({
  method: "get",
  path: "/get_ticket_category",
  tags: ["Support"],
  summary: "The ticket categories",
  security: bearer,
  responses: { ...ok(z.array(z.string())), ...errors(401) },
});

const deviceNamesRoute = createRoute({
  method: "get",
  path: "/dashboard_get_device_names",
  tags: ["Support", "Dashboard"],
  summary: "The account's devices (CPE and metro), name and id",
  description: "Empty lists until the platform has devices (the Internet NIDs and Metro Ethernet NIDs screens).",
  security: bearer,
  responses: { ...ok(DeviceNamesSchema), ...errors(401) },
});

const getTicketRoute = createRoute({
  method: "get",
  path: "/get_ticket",
  tags: ["Support"],
  summary: "The account's tickets",
  description:
    "Without list parameters: every ticket, newest first (an array). With any of q, sort, page, size, ids: one page `{items, total}`, searched, sorted and paged in SQL.",
  security: bearer,
  request: { query: TicketQuery },
  responses: {
    ...ok(z.union([z.array(TicketSchema), pageSchema(TicketSchema, "TicketPage")]), "The array, or a page when list parameters are given"),
    ...errors(401, 422),
  },
});

const ticketDetailRoute = createRoute({
  method: "get",
  path: "/get-ticket-detail",
  tags: ["Support"],
  summary: "One ticket of the account",
  description: "Unknown id, or another account's: 404 'Ticket not found'.",
  security: bearer,
  request: { query: z.object({ ticket_id: idField("Ticket id") }) },
  responses: { ...ok(TicketSchema), ...errors(401, 404, 422) },
});

const correspondenceRoute = createRoute({
  method: "get",
  path: "/get_correspondence",
  tags: ["Support"],
  summary: "A ticket's correspondence, newest first",
  description: "The description is the first (oldest) entry, then every reply.",
  security: bearer,
  request: { query: z.object({ ticket_id: idField("Ticket id") }) },
  responses: { ...ok(z.array(CorrespondenceSchema)), ...errors(401, 404, 422) },
});

const createTicketRoute = createRoute({
  method: "post",
  path: "/create_ticket",
  tags: ["Support"],
  summary: "Open a ticket",
  description: "Answers 'Ticket created successfully.' and the ticket_id. Records a ticket.created event for the operations notifications.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(CreateTicketBody),
  responses: { ...ok(TicketCreatedSchema), ...writeResponses },
});

const replyRoute = createRoute({
  method: "post",
  path: "/add_correspondence",
  tags: ["Support"],
  summary: "Reply on a ticket",
  description: "Answers 'Reply sent successfully.'. A closed ticket takes no replies: 409.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(ReplyBody),
  responses: { ...ok(DetailSchema), ...writeResponses, ...closedResponse },
});

const resolveRoute = createRoute({
  method: "post",
  path: "/resolve_ticket",
  tags: ["Support"],
  summary: "Resolve (close) a ticket, irreversibly",
  description: "Answers 'Ticket closed.'. Resolving a closed ticket: 409 (of concurrent resolves exactly one succeeds).",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(TicketIdBody),
  responses: { ...ok(DetailSchema), ...writeResponses, ...closedResponse },
});

const apiLogRoute = createRoute({
  method: "get",
  path: "/get_api_log",
  tags: ["Change log"],
  summary: "The account's change log (every mutating call), newest first",
  description: `Without parameters: the spec's array of the newest ${apiLogPlainMax} entries. With any of q, sort, page, size, ids, username, command, from, to: one page \`{items, total, total_capped}\`. Unfiltered, total is exact (a kept counter); filtered, it is counted up to ${apiLogCountCap}.`,
  security: bearer,
  request: { query: ApiLogQuerySchema },
  responses: { ...ok(z.union([z.array(ApiLogEntrySchema), ApiLogPageSchema]), "The array, or a page"), ...errors(401, 422) },
});

const exportApiLogRoute = createRoute({
  method: "get",
  path: "/export_api_log",
  tags: ["Change log"],
  summary: "Every change-log entry the filters select, streamed",
  description: "The rows of get_api_log with the same q, sort and filters, all of them, as NDJSON (one ApiLogEntry per line), streamed from SQL in keyset batches.",
  security: bearer,
  request: { query: z.object({ ...logFilters, ...exportQuery(apiLogSortable) }) },
  responses: { ...ndjsonOk(ApiLogEntrySchema, "One ApiLogEntry (JSON) per line"), ...errors(401, 422) },
});

/** NDJSON lines (JSON texts built by the database) streamed as the client reads. */
function ndjsonLines(batches: AsyncGenerator<string[]>, signal?: AbortSignal): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done || signal?.aborted) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.length ? `${next.value.join("\n")}\n` : ""));
      } catch (err) {
        console.error("[platform] export failed:", (err as Error).message);
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}

export function registerSupportCalls(app: PlatformApp) {
  app.openapi(priorityRoute, async (c) => {
    caller(c);
    return c.json([...ticketPriorities], 200);
  });

  app.openapi(categoryRoute, async (c) => {
    caller(c);
    return c.json([...ticketCategories], 200);
  });

  app.openapi(deviceNamesRoute, async (c) => {
    const who = caller(c);
    return c.json(await deviceNames(c.get("deps").db, who.accountId), 200);
  });

  app.openapi(getTicketRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    const db = c.get("deps").db;
    if (wantsPage(query)) return c.json(await queryTickets(db, who.accountId, query), 200);
    return c.json(await listTickets(db, who.accountId), 200);
  });

  app.openapi(ticketDetailRoute, async (c) => {
    const who = caller(c);
    return c.json(await ticketDetail(c.get("deps").db, who.accountId, c.req.valid("query").ticket_id), 200);
  });

  app.openapi(correspondenceRoute, async (c) => {
    const who = caller(c);
    return c.json(await correspondence(c.get("deps").db, who.accountId, c.req.valid("query").ticket_id), 200);
  });

  app.openapi(createTicketRoute, async (c) => {
    const who = requireWriter(c);
    const ticketId = await createTicket(c.get("deps").db, who, c.req.valid("json"));
    return c.json({ ticket_id: ticketId, detail: "Ticket created successfully." }, 200);
  });

  app.openapi(replyRoute, async (c) => {
    const who = requireWriter(c);
    await addCorrespondence(c.get("deps").db, who, c.req.valid("json"));
    return c.json({ detail: "Reply sent successfully." }, 200);
  });

  app.openapi(resolveRoute, async (c) => {
    const who = requireWriter(c);
    await resolveTicket(c.get("deps").db, who, c.req.valid("json").ticket_id);
    return c.json({ detail: "Ticket closed." }, 200);
  });

  app.openapi(apiLogRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    const db = c.get("deps").db;
    const paged = wantsPage(query) || query.username !== undefined || query.command !== undefined || query.from !== undefined || query.to !== undefined;
    // The log is written only inside calls that change something (platform/lib/apilog.ts, under
    // the auth middleware's whileWriting), which forget the cached reads: a page is remembered
    // until the next such call, as the other lists are (platform/lib/auth.ts).
    if (paged) return cachedJson(c, () => queryApiLog(db, who.accountId, query));
    return cachedJson(c, () => listApiLog(db, who.accountId));
  });

  app.openapi(exportApiLogRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    return ndjsonLines(exportApiLog(c.get("deps").db, who.accountId, query), c.req.raw.signal) as never;
  });
}
