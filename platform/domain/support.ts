import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { iamUsers, ticketCorrespondence, ticketEvents, tickets } from "../db/schema.ts";
import { ticketEventsWritten } from "../webhooks/events.ts";
import type { Caller } from "../lib/context.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, execRows, isoText, jsonLines, listTable, type CappedPage, type ListQuery } from "../lib/list.ts";
import {
  apiLogCountCap,
  apiLogPlainMax,
  type ApiLogEntry,
  type Correspondence,
  type DeviceNames,
  type Ticket,
  type apiLogSortable,
  type ticketSortable,
} from "../contract/support.ts";

type TicketSortColumn = (typeof ticketSortable)[number];
type ApiLogSortColumn = (typeof apiLogSortable)[number];
import type { DbOrTx } from "../db/client.ts";
import { ownRow } from "../lib/own-rows.ts";

/*
 * Support Center (spec 3 §2.12, §3 Ticket, §4, §5) and the change log (§2.13, §3 Api log).
 *
 * A ticket is Open until resolved, then Closed for good: resolving and replying both change the
 * ticket row with a conditional UPDATE (state = 'Open'), so of concurrent resolves exactly one
 * wins and a reply never lands on a closed ticket (the row lock orders them). Each change writes
 * its ticket event (created, reply, resolved) in the same transaction: the outbox the operations
 * notifications will deliver (schema.ts ticketEvents).
 */

export const ticketNotFound = () => notFound("Ticket not found");
export const ticketClosed = () => conflict("The ticket is closed: it takes no more replies.");
export const ticketAlreadyClosed = () => conflict("The ticket is already closed.");


/** Who acted, as tickets and the log name them: the IAM username, else the account's. */
export const actorName = (who: Caller) => who.iamUsername ?? who.accountUsername;

// ---------------------------------------------------------------------------------------------
// Devices

/**
 * GET dashboard_get_device_names: the account's CPE and metro devices (name, id), by name
 * (issue #25's tables); a ticket's device_id must be one of them.
 */
export async function deviceNames(db: DbOrTx, accountId: string): Promise<DeviceNames> {
  const rows = await execRows<{ kind: "cpe" | "metro"; name: string; id: string }>(
    db,
    sql`select 'cpe' as kind, cpe_name as name, cpe_id as id from cpes where account_id = ${accountId}
      union all select 'metro', metro_name, metro_id from metros where account_id = ${accountId} order by name, id`,
  );
  return { cpe: rows.filter((r) => r.kind === "cpe").map(({ name, id }) => ({ name, id })), metro: rows.filter((r) => r.kind === "metro").map(({ name, id }) => ({ name, id })) };
}

// ---------------------------------------------------------------------------------------------
// Tickets

const ticketJson = sql`json_build_object(
  'ticket_id', t.ticket_id, 'title', t.title, 'category', t.category, 'priority', t.priority, 'state', t.state,
  'account_id', t.account_id, 'device_id', t.device_id, 'entity_id', t.entity_id, 'created_by', t.created_by,
  'created_at', ${isoText(sql`t.created_at`)}, 'updated_at', ${isoText(sql`t.updated_at`)})`;

/** GET get_ticket: the account's tickets, searched in id, subject, priority, category and status; newest first. */
export const ticketList = defineList<Ticket, TicketSortColumn>({
  ...listTable("tickets", "t", "ticket_id"),
  search: [sql`lower(t.ticket_id || ' ' || t.title || ' ' || t.priority || ' ' || t.category || ' ' || t.state)`],
  sortable: {
    ...columns("text", "t", ["ticket_id", "title", "priority", "category", "state"]),
    ...columns("time", "t", ["created_at"]),
  },
  defaultSort: "-created_at",
  json: ticketJson,
  idOf: (t) => t.ticket_id,
  notFound: ticketNotFound,
  all: (db, accountId) => jsonLines<Ticket>(db, sql`select ${ticketJson}::text as j from tickets t where t.account_id = ${accountId} order by t.created_at desc, t.ticket_id desc`),
});

/** GET get_ticket without list parameters: every ticket of the account, newest first. */
export const listTickets = (db: DbOrTx, accountId: string) => ticketList.all(db, accountId, {});

/** One page of the account's tickets, searched and sorted in SQL. */
export const queryTickets = (db: DbOrTx, accountId: string, query: ListQuery) => ticketList.page(db, accountId, query);

/** GET get-ticket-detail: one ticket of the account; another account's: 404. */
export const ticketDetail = (db: DbOrTx, accountId: string, ticketId: string): Promise<Ticket> => ticketList.one(db, accountId, ticketId);

/** GET get_correspondence: the ticket's correspondence, newest first (the description is the oldest). */
export async function correspondence(db: DbOrTx, accountId: string, ticketId: string): Promise<Correspondence[]> {
  await ticketDetail(db, accountId, ticketId);
  return jsonLines<Correspondence>(
    db,
    sql`select json_build_object('correspondence_id', c.correspondence_id, 'correspondence', c.correspondence,
      'created_by', c.created_by, 'created_at', ${isoText(sql`c.created_at`)})::text as j
    from ticket_correspondence c where c.ticket_id = ${ticketId}
    order by c.created_at desc, c.correspondence_id desc`,
  );
}

async function recordEvent(tx: DbOrTx, accountId: string, ticketId: string, kind: "created" | "reply" | "resolved", payload: Record<string, unknown>) {
  await tx.insert(ticketEvents).values({ eventId: newId("tev"), accountId, ticketId, kind, payload: { event: `ticket.${kind}`, ticket_id: ticketId, ...payload } });
  // Made into an operations event (webhook, digest) by a job sent with the change.
  await ticketEventsWritten(tx);
}

export interface CreateTicketInput {
  title: string;
  description: string;
  priority: string;
  category: string;
  device_id?: string;
}

/** POST create_ticket: the ticket, its description as the first correspondence, and its 'created' event. */
export async function createTicket(db: Db, who: Caller, input: CreateTicketInput): Promise<string> {
  let entityId: string | null = null;
  if (input.device_id) {
    const devices = await deviceNames(db, who.accountId);
    if (![...devices.cpe, ...devices.metro].some((d) => d.id === input.device_id)) throw notFound("Device not found");
  }
  if (who.iamUserId) {
    const [iam] = await db.select({ entityId: iamUsers.entityId }).from(iamUsers).where(eq(iamUsers.iamUserId, who.iamUserId)).limit(1);
    entityId = iam?.entityId ?? null;
  }
  const ticketId = newId("tkt");
  const by = actorName(who);
  await db.transaction(async (tx) => {
    await tx.insert(tickets).values({
      ticketId,
      accountId: who.accountId,
      title: input.title,
      category: input.category,
      priority: input.priority,
      deviceId: input.device_id || null,
      entityId,
      createdBy: by,
    });
    await tx.insert(ticketCorrespondence).values({ correspondenceId: newId("cor"), ticketId, correspondence: input.description, createdBy: by });
    await recordEvent(tx, who.accountId, ticketId, "created", {
      title: input.title,
      priority: input.priority,
      category: input.category,
      device_id: input.device_id || null,
      created_by: by,
      description: input.description,
    });
  });
  return ticketId;
}

/** Distinguishes "no such ticket" (404) from "closed" (409) after a conditional update changed nothing. */
async function refusal(tx: DbOrTx, accountId: string, ticketId: string, closed: () => Error): Promise<Error> {
  const [row] = await tx
    .select({ state: tickets.state })
    .from(tickets)
    .where(ownRow(tickets, tickets.ticketId, accountId, ticketId))
    .limit(1);
  return row ? closed() : ticketNotFound();
}

/** POST add_correspondence: a reply on an open ticket (409 on a closed one). */
export async function addCorrespondence(db: Db, who: Caller, input: { ticket_id: string; correspondence: string }): Promise<string> {
  const id = newId("cor");
  const by = actorName(who);
  await db.transaction(async (tx) => {
    // Locks the row: a concurrent resolve waits for this reply, or this reply sees it Closed.
    const touched = await tx
      .update(tickets)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(tickets.accountId, who.accountId), eq(tickets.ticketId, input.ticket_id), eq(tickets.state, "Open")))
      .returning({ id: tickets.ticketId });
    if (touched.length === 0) throw await refusal(tx, who.accountId, input.ticket_id, ticketClosed);
    await tx.insert(ticketCorrespondence).values({
      correspondenceId: id,
      ticketId: input.ticket_id,
      correspondence: input.correspondence,
      createdBy: by,
      createdAt: sql`clock_timestamp()`,
    });
    await recordEvent(tx, who.accountId, input.ticket_id, "reply", { correspondence_id: id, created_by: by, correspondence: input.correspondence });
  });
  return id;
}

/** POST resolve_ticket: closes an open ticket for good; resolving a closed one is refused (409). */
export async function resolveTicket(db: Db, who: Caller, ticketId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const closed = await tx
      .update(tickets)
      // The clock after the row lock, not the transaction's start: a reply that held the lock first is older.
      .set({ state: "Closed", updatedAt: sql`clock_timestamp()` })
      .where(and(eq(tickets.accountId, who.accountId), eq(tickets.ticketId, ticketId), eq(tickets.state, "Open")))
      .returning({ id: tickets.ticketId });
    if (closed.length === 0) throw await refusal(tx, who.accountId, ticketId, ticketAlreadyClosed);
    await recordEvent(tx, who.accountId, ticketId, "resolved", { resolved_by: actorName(who) });
  });
}

// ---------------------------------------------------------------------------------------------
// The change log (GET get_api_log, GET export_api_log)

export interface ApiLogQuery extends ListQuery {
  username?: string;
  command?: string;
  from?: Date;
  to?: Date;
}

const logJson = sql`json_build_object('id', l.id, 'created_at', ${isoText(sql`l.created_at`)},
  'iam_user_username', l.iam_user_username, 'account_username', l.account_username, 'url_path', l.url_path,
  'request_body', l.request_body, 'query_parameters', l.query_parameters, 'account_id', l.account_id, 'iam_user_id', l.iam_user_id,
  'status', l.status)`;

/** The username the log shows; the expression of the index api_log_account_username_idx. */
const shownUsername = sql`lower(coalesce(l.iam_user_username, l.account_username))`;

/** A command as typed ('create_ticket', '/create_ticket', '/api/v1/create_ticket') as the log stores it. */
export const normalCommand = (command: string) => `/${command.trim().replace(/^\/+/, "").replace(/^(api\/)?v\d+\//, "")}`;

/** Part of a command as typed: the version prefix goes ('/api/v1/create' → '/create'), a leading / stays only when typed. */
export const partCommand = (command: string) => {
  const typed = command.trim();
  return /^\/?(api\/)?v\d+\//.test(typed) ? normalCommand(typed) : typed;
};

/** A text matched literally inside LIKE (its %, _ and \ escaped). */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET get_api_log: the change log, newest first. Unfiltered, the total is the kept per-account
 * counter (api_log_counts) and pages are read from the (account_id, created_at, id) index.
 * Filtered, the rows are counted up to apiLogCountCap (+1); beyond that `total` is the cap and
 * `total_capped` true, and pages are read by offset within the cap. Export lines are built by the
 * database (one JSON text per row).
 */
export const apiLogList = defineList<ApiLogEntry, ApiLogSortColumn, ApiLogQuery, undefined, CappedPage<ApiLogEntry>>({
  ...listTable("api_log", "l", "id"),
  // Free text: the username, the command, the body and the params (secrets are never stored).
  search: [
    sql`lower(coalesce(l.iam_user_username, l.account_username) || ' ' || l.url_path || ' ' || coalesce(l.request_body::text, '')
      || ' ' || coalesce(l.query_parameters::text, ''))`,
  ],
  sortable: columns("time", "l", ["created_at"]),
  defaultSort: "-created_at",
  filter: (_db, _accountId, query) => {
    const where: SQL[] = [];
    // Parts match (issue 27 item 4): 'demo' finds demo@example.com, 'iam' every IAM call.
    if (query.username) where.push(sql`${shownUsername} like ${`%${likeEscape(query.username.trim().toLowerCase())}%`}`);
    if (query.command) where.push(sql`lower(l.url_path) like ${`%${likeEscape(partCommand(query.command).toLowerCase())}%`}`);
    if (query.from) where.push(sql`l.created_at >= ${query.from.toISOString()}::timestamptz`);
    if (query.to) where.push(sql`l.created_at <= ${query.to.toISOString()}::timestamptz`);
    return { where };
  },
  keptCount: (accountId) => sql`select coalesce((select n from api_log_counts where account_id = ${accountId}), 0)::bigint as n`,
  countCap: apiLogCountCap,
  json: logJson,
  idOf: (e) => e.id,
  notFound: () => notFound("Log entry not found"),
  all: (db, accountId) =>
    jsonLines<ApiLogEntry>(db, sql`select ${logJson}::text as j from api_log l where l.account_id = ${accountId} order by l.created_at desc, l.id desc limit ${apiLogPlainMax}`),
  exportBatch: 2000,
});

/** GET get_api_log without list parameters: the spec's array, newest first, at most apiLogPlainMax entries. */
export const listApiLog = (db: DbOrTx, accountId: string) => apiLogList.all(db, accountId, {});

/** One page of the change log (see apiLogList). */
export const queryApiLog = (db: DbOrTx, accountId: string, query: ApiLogQuery) => apiLogList.page(db, accountId, query);

/** Every log row the filters select, in the list's order, as NDJSON lines built by the database, in keyset batches. */
export const exportApiLog = (db: DbOrTx, accountId: string, query: ApiLogQuery) => apiLogList.lines(db, accountId, query);

/** Demo data (platform/seed.ts): one open ticket with a reply, and one resolved ticket. */
export async function seedSupportDemo(db: Db, accountId: string, username: string) {
  const who: Caller = { accountId, accountUsername: username, iamUserId: null, iamUsername: null, role: "owner", sessionType: "account", tokenHash: "" };
  const open = await createTicket(db, who, {
    title: "Intermittent packet loss at Branch East",
    description: "Since Monday the branch sees 2-5 % loss towards the data centre between 09:00 and 11:00.\nTraceroute attached below.",
    priority: "High",
    category: "Technical",
  });
  await addCorrespondence(db, who, { ticket_id: open, correspondence: "The loss is back this morning, from 09:12." });
  const done = await createTicket(db, who, { title: "Invoice address change", description: "Please send invoices to the Headquarters address.", priority: "Low", category: "Billing" });
  await resolveTicket(db, who, done);
}
