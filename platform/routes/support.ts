import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { ticketCategories, ticketPriorities, ticketSortable } from "../contract/support.ts";
import { Correspondence, CreateTicketBody, DeviceNames, ReplyBody, Ticket, TicketCreated, TicketIdBody, TicketPage } from "../contract/support.shapes.ts";
import {
  addCorrespondence,
  correspondence,
  createTicket,
  deviceNames,
  resolveTicket,
  ticketDetail,
  ticketList,
} from "../domain/support.ts";
import { cachedJson } from "../lib/auth.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { ErrorSchema } from "../lib/errors.ts";
import { idField } from "../lib/fields.ts";
import { ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";
import { supportMessages } from "../contract/messages.ts";

/*
 * Support Center (spec 3 §2.12, §3 Ticket, §5, §7.3). The change log: platform/routes/change-log.ts.
 * The spec shows no call for the ticket list, its detail and resolving: they are get_ticket,
 * get-ticket-detail and resolve_ticket here, in the spelling of their neighbours.
 */

// ---------------------------------------------------------------------------------------------
// Schemas

const closedResponse = {
  409: { description: "The ticket is closed (resolving is irreversible)", content: { "application/json": { schema: ErrorSchema } } },
};

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["Support"];

export const priorityRoute = defineCall({ method: "get", path: "/get_ticket_priority", tags, summary: "The ticket priorities", response: z.array(z.string()) });
export const categoryRoute = defineCall({ method: "get", path: "/get_ticket_category", tags, summary: "The ticket categories", response: z.array(z.string()) });

export const deviceNamesRoute = defineCall({
  method: "get",
  path: "/dashboard_get_device_names",
  tags: ["Support", "Dashboard"],
  summary: "The account's devices (CPE and metro), name and id",
  description: "Empty lists until the platform has devices (the Internet NIDs and Metro Ethernet NIDs screens).",
  response: DeviceNames,
});

const ticketIdQuery = z.object({ ticket_id: idField("Ticket id", "tkt-8d2f6h1j5k9l") });

export const { list: getTicketRoute, export: exportTicketsRoute, detail: ticketDetailRoute } = defineListCalls({
  tags, sortable: ticketSortable, item: Ticket, itemName: "Ticket", page: TicketPage,
  list: { path: "/get_ticket", summary: "The account's tickets", rows: ["ticket", "newest first"] },
  export: { path: "/export_tickets", summary: "Every ticket the search selects, streamed", description: "The rows of get_ticket with the same q and sort, all of them, as NDJSON (one Ticket per line), streamed from SQL in batches. Readonly users may export." },
  detail: { path: "/get-ticket-detail", summary: "One ticket of the account", description: "Unknown id, or another account's: 404 'Ticket not found'.", query: ticketIdQuery },
});

export const correspondenceRoute = defineCall({
  method: "get",
  path: "/get_correspondence",
  tags,
  summary: "A ticket's correspondence, newest first",
  description: "The description is the first (oldest) entry, then every reply.",
  query: ticketIdQuery,
  response: z.array(Correspondence),
  errors: [404],
});

export const createTicketRoute = defineChange({
  path: "/create_ticket",
  tags,
  summary: "Open a ticket",
  description: "Answers 'Ticket created successfully.' and the ticket_id. Records a ticket.created event for the operations notifications.",
  body: CreateTicketBody,
  response: TicketCreated,
});

export const replyRoute = defineChange({
  path: "/add_correspondence",
  tags,
  summary: "Reply on a ticket",
  description: "Answers 'Reply sent successfully.'. A closed ticket takes no replies: 409.",
  body: ReplyBody,
  responses: closedResponse,
});

export const resolveRoute = defineChange({
  path: "/resolve_ticket",
  tags,
  summary: "Resolve (close) a ticket, irreversibly",
  description: "Answers 'Ticket closed.'. Resolving a closed ticket: 409 (of concurrent resolves exactly one succeeds).",
  body: TicketIdBody,
  responses: closedResponse,
});

export function registerSupportCalls(app: PlatformApp) {
  app.openapi(priorityRoute, async (c) => {
    caller(c);
    return c.json([...ticketPriorities], 200);
  });

  app.openapi(categoryRoute, async (c) => {
    caller(c);
    return c.json([...ticketCategories], 200);
  });

  app.openapi(deviceNamesRoute, (c) => cachedJson(c, () => deviceNames(c.get("deps").db, caller(c).accountId)));

  app.openapi(getTicketRoute, async (c) => {
    return ticketList.answer(c, caller(c).accountId, c.req.valid("query"));
  });

  app.openapi(exportTicketsRoute, async (c) => {
    return ndjsonResponse(ticketList.batches(c.get("deps").db, caller(c).accountId, c.req.valid("query")), c.req.raw.signal);
  });

  app.openapi(ticketDetailRoute, answerQuery(ticketDetailRoute, (deps, who, q) => ticketDetail(deps.db, who.accountId, q.ticket_id)));
  app.openapi(correspondenceRoute, answerQuery(correspondenceRoute, (deps, who, q) => correspondence(deps.db, who.accountId, q.ticket_id)));
  app.openapi(
    createTicketRoute,
    answerChange(createTicketRoute, (deps, who, b) => createTicket(deps.db, who, b), (ticketId) => ({ ticket_id: ticketId, detail: supportMessages.ticketCreated })),
  );
  app.openapi(replyRoute, answerDetail(replyRoute, (deps, who, b) => addCorrespondence(deps.db, who, b), supportMessages.replySent));
  app.openapi(resolveRoute, answerDetail(resolveRoute, (deps, who, b) => resolveTicket(deps.db, who, b.ticket_id), "Ticket closed."));
}
