import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { iamUsers, ticketCorrespondence, ticketEvents, tickets } from "../db/schema.ts";
import type { Caller } from "../lib/context.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { inOrder, likePatterns, orderBy, orderKey, queryPage, type KeyPart } from "../lib/list.ts";
import {
  apiLogCountCap,
  apiLogPlainMax,
  type ApiLogEntry,
  type Correspondence,
  type DeviceNames,
  type ListPage,
  type Ticket,
} from "../contract/support.ts";
import type { DbOrTx } from "./entities.ts";

/*
 * Support Center (spec 3 §2.12, §3 Ticket, §4, §5) and the change log (§2.13, §3 Api log).
 *
 * A ticket is Open until resolved, then Closed for good: resolving and replying both change the
 * ticket row with a conditional UPDATE (state = 'Open'), so of concurrent resolves exactly one
 * wins and a reply never lands on a closed ticket (the row lock orders them). Each change writes
 * its ticket event (created, reply, resolved) in the same transaction: the outbox the operations
 * notifications will deliver (schema.ts ticketEvents).
 */

type Rows<T> = { rows: T[] };

export const ticketNotFound = () => notFound("Ticket not found");
export const ticketClosed = () => conflict("The ticket is closed: it takes no more replies.");
export const ticketAlreadyClosed = () => conflict("The ticket is already closed.");

const isoText = (expr: SQL) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Who acted, as tickets and the log name them: the IAM username, else the account's. */
export const actorName = (who: Caller) => who.iamUsername ?? who.accountUsername;

// ---------------------------------------------------------------------------------------------
// Devices

/**
 * GET dashboard_get_device_names: the account's CPE and metro devices (name, id). There is no
 * device table on the platform yet (the Internet NIDs and Metro Ethernet NIDs screens will add
 * them): the lists are empty until then, and a ticket's device_id must be one of them.
 */
export async function deviceNames(_db: DbOrTx, _accountId: string): Promise<DeviceNames> {
  return { cpe: [], metro: [] };
}

// ---------------------------------------------------------------------------------------------
// Tickets

const ticketJson = sql`json_build_object(
  'ticket_id', t.ticket_id, 'title', t.title, 'category', t.category, 'priority', t.priority, 'state', t.state,
  'account_id', t.account_id, 'device_id', t.device_id, 'entity_id', t.entity_id, 'created_by', t.created_by,
  'created_at', ${isoText(sql`t.created_at`)}, 'updated_at', ${isoText(sql`t.updated_at`)})`;

const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);

async function ticketsById(db: DbOrTx, accountId: string, ids: string[]): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  const res = (await db.execute(
    sql`select ${ticketJson} as row from tickets t where t.account_id = ${accountId} and t.ticket_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  )) as unknown as Rows<{ row: Ticket | string }>;
  return inOrder(ids, res.rows.map((r) => parsed(r.row)), (t) => t.ticket_id);
}

/** GET get_ticket without list parameters: every ticket of the account, newest first. */
export async function listTickets(db: DbOrTx, accountId: string): Promise<Ticket[]> {
  const res = (await db.execute(
    sql`select ${ticketJson} as row from tickets t where t.account_id = ${accountId} order by t.created_at desc, t.ticket_id desc`,
  )) as unknown as Rows<{ row: Ticket | string }>;
  return res.rows.map((r) => parsed(r.row));
}

export interface TicketListQuery {
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
}

const ticketSortColumns: Record<string, { expr: SQL; kind: "text" | "time" }> = {
  ticket_id: { expr: sql`t.ticket_id`, kind: "text" },
  title: { expr: sql`t.title`, kind: "text" },
  priority: { expr: sql`t.priority`, kind: "text" },
  category: { expr: sql`t.category`, kind: "text" },
  state: { expr: sql`t.state`, kind: "text" },
  created_at: { expr: sql`t.created_at`, kind: "time" },
};

/** One page of the account's tickets, searched (id, subject, priority, category, status) and sorted in SQL. */
export async function queryTickets(db: DbOrTx, accountId: string, query: TicketListQuery): Promise<ListPage<Ticket>> {
  const where: SQL[] = [sql`t.account_id = ${accountId}`];
  for (const pattern of likePatterns(query.q)) {
    where.push(sql`lower(t.ticket_id || ' ' || t.title || ' ' || t.priority || ' ' || t.category || ' ' || t.state) like ${pattern}`);
  }
  if (query.ids !== undefined) where.push(query.ids.length ? sql`t.ticket_id in (${sql.join(query.ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  const from = sql`from tickets t where ${sql.join(where, sql` and `)}`;
  // Default: newest first.
  const sort = query.sort ?? "-created_at";
  const desc = sort.startsWith("-");
  const column = ticketSortColumns[desc ? sort.slice(1) : sort] ?? ticketSortColumns.created_at!;
  const key = orderKey(column, sql`t.ticket_id`, desc);
  const { ids, total } = await queryPage(db, { from, id: sql`t.ticket_id`, key, desc, page: query.page ?? 1, size: query.size ?? 10 });
  return { items: await ticketsById(db, accountId, ids), total };
}

/** GET get-ticket-detail: one ticket of the account; another account's: 404. */
export async function ticketDetail(db: DbOrTx, accountId: string, ticketId: string): Promise<Ticket> {
  const [ticket] = await ticketsById(db, accountId, [ticketId]);
  if (!ticket) throw ticketNotFound();
  return ticket;
}

/** GET get_correspondence: the ticket's correspondence, newest first (the description is the oldest). */
export async function correspondence(db: DbOrTx, accountId: string, ticketId: string): Promise<Correspondence[]> {
  await ticketDetail(db, accountId, ticketId);
  const res = (await db.execute(sql`select json_build_object('correspondence_id', c.correspondence_id, 'correspondence', c.correspondence,
      'created_by', c.created_by, 'created_at', ${isoText(sql`c.created_at`)}) as row
    from ticket_correspondence c where c.ticket_id = ${ticketId}
    order by c.created_at desc, c.correspondence_id desc`)) as unknown as Rows<{ row: Correspondence | string }>;
  return res.rows.map((r) => parsed(r.row));
}

async function recordEvent(tx: DbOrTx, accountId: string, ticketId: string, kind: "created" | "reply" | "resolved", payload: Record<string, unknown>) {
  await tx.insert(ticketEvents).values({ eventId: newId("tev"), accountId, ticketId, kind, payload: { event: `ticket.${kind}`, ticket_id: ticketId, ...payload } });
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
    .where(and(eq(tickets.accountId, accountId), eq(tickets.ticketId, ticketId)))
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
      .set({ state: "Closed", updatedAt: sql`now()` })
      .where(and(eq(tickets.accountId, who.accountId), eq(tickets.ticketId, ticketId), eq(tickets.state, "Open")))
      .returning({ id: tickets.ticketId });
    if (closed.length === 0) throw await refusal(tx, who.accountId, ticketId, ticketAlreadyClosed);
    await recordEvent(tx, who.accountId, ticketId, "resolved", { resolved_by: actorName(who) });
  });
}

// ---------------------------------------------------------------------------------------------
// The change log (GET get_api_log, GET export_api_log)

export interface ApiLogQuery {
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
  username?: string;
  command?: string;
  from?: string;
  to?: string;
}

const logJson = sql`json_build_object('id', l.id, 'created_at', ${isoText(sql`l.created_at`)},
  'iam_user_username', l.iam_user_username, 'account_username', l.account_username, 'url_path', l.url_path,
  'request_body', l.request_body, 'query_parameters', l.query_parameters, 'account_id', l.account_id, 'iam_user_id', l.iam_user_id)`;

/** The username the log shows; the expression of the index api_log_account_username_idx. */
const shownUsername = sql`lower(coalesce(l.iam_user_username, l.account_username))`;

/** A command as typed ('create_ticket', '/create_ticket', '/api/v1/create_ticket') as the log stores it. */
export const normalCommand = (command: string) => `/${command.trim().replace(/^\/+/, "").replace(/^(api\/)?v\d+\//, "")}`;

const isFiltered = (q: ApiLogQuery) => Boolean(q.username || q.command || q.from || q.to || likePatterns(q.q).length || q.ids !== undefined);

function logFrom(accountId: string, query: ApiLogQuery): SQL {
  const where: SQL[] = [sql`l.account_id = ${accountId}`];
  if (query.username) where.push(sql`${shownUsername} = ${query.username.trim().toLowerCase()}`);
  if (query.command) where.push(sql`l.url_path = ${normalCommand(query.command)}`);
  if (query.from) where.push(sql`l.created_at >= ${query.from}::timestamptz`);
  if (query.to) where.push(sql`l.created_at <= ${query.to}::timestamptz`);
  // Free text: the username, the command, the body and the params (secrets are never stored).
  for (const pattern of likePatterns(query.q)) {
    where.push(sql`lower(coalesce(l.iam_user_username, l.account_username) || ' ' || l.url_path || ' ' || coalesce(l.request_body::text, '')
      || ' ' || coalesce(l.query_parameters::text, '')) like ${pattern}`);
  }
  if (query.ids !== undefined) where.push(query.ids.length ? sql`l.id in (${sql.join(query.ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  return sql`from api_log l where ${sql.join(where, sql` and `)}`;
}

function logOrder(sort: string | undefined): { key: KeyPart[]; desc: boolean } {
  const desc = (sort ?? "-created_at").startsWith("-");
  return { key: orderKey({ expr: sql`l.created_at`, kind: "time" }, sql`l.id`, desc), desc };
}

async function logById(db: DbOrTx, accountId: string, ids: string[]): Promise<ApiLogEntry[]> {
  if (ids.length === 0) return [];
  const res = (await db.execute(
    sql`select ${logJson} as row from api_log l where l.account_id = ${accountId} and l.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  )) as unknown as Rows<{ row: ApiLogEntry | string }>;
  return inOrder(ids, res.rows.map((r) => parsed(r.row)), (e) => e.id);
}

/** GET get_api_log without list parameters: the spec's array, newest first, at most apiLogPlainMax entries. */
export async function listApiLog(db: DbOrTx, accountId: string): Promise<ApiLogEntry[]> {
  const res = (await db.execute(
    sql`select ${logJson} as row from api_log l where l.account_id = ${accountId} order by l.created_at desc, l.id desc limit ${apiLogPlainMax}`,
  )) as unknown as Rows<{ row: ApiLogEntry | string }>;
  return res.rows.map((r) => parsed(r.row));
}

/**
 * One page of the change log. Unfiltered, the total is the kept per-account counter
 * (api_log_counts) and a page is read from the (account_id, created_at, id) index: a page in the
 * second half reads the reverse order, so the last page costs what the first does. Filtered, the
 * rows are counted up to apiLogCountCap (+1); beyond that `total` is the cap and `total_capped`
 * true, and pages are read by offset within the cap.
 */
export async function queryApiLog(db: DbOrTx, accountId: string, query: ApiLogQuery): Promise<ListPage<ApiLogEntry> & { total_capped: boolean }> {
  const from = logFrom(accountId, query);
  const { key, desc } = logOrder(query.sort);
  const page = query.page ?? 1;
  const size = query.size ?? 10;
  let n: number;
  if (isFiltered(query)) {
    // Counted in the list's order: the planner then walks the filter's index (username, command,
    // time) and stops after the cap. Without the order it chose a sequential scan, which on
    // PostgreSQL read ~10,000 rows (7 ms) to find 2,001 of one user's, against 1 ms by the index.
    const counted = (await db.execute(
      sql`select count(*)::int as n from (select 1 ${from} order by ${orderBy(key, desc)} limit ${apiLogCountCap + 1}) s`,
    )) as unknown as Rows<{ n: number }>;
    n = Number(counted.rows[0]?.n ?? 0);
  } else {
    const counted = (await db.execute(
      sql`select coalesce((select n from api_log_counts where account_id = ${accountId}), 0)::bigint as n`,
    )) as unknown as Rows<{ n: number | string }>;
    n = Number(counted.rows[0]?.n ?? 0);
  }
  if (n > apiLogCountCap && isFiltered(query)) {
    const offset = (page - 1) * size;
    if (offset >= apiLogCountCap) return { items: [], total: apiLogCountCap, total_capped: true };
    const limit = Math.min(size, apiLogCountCap - offset);
    const res = (await db.execute(
      sql`select l.id as id ${from} order by ${orderBy(key, desc)} limit ${limit} offset ${offset}`,
    )) as unknown as Rows<{ id: string }>;
    return { items: await logById(db, accountId, res.rows.map((r) => r.id)), total: apiLogCountCap, total_capped: true };
  }
  const { ids, total } = await queryPage(db, { from, id: sql`l.id`, key, desc, page, size, count: sql`select ${n}::int as n` });
  return { items: await logById(db, accountId, ids), total, total_capped: false };
}

/**
 * Every log row the filters select, in the list's order, as NDJSON lines built by the database
 * (one JSON text per row), in keyset batches: each batch an index range, nothing held open between
 * batches, flat memory at any size.
 */
export async function* exportApiLog(db: DbOrTx, accountId: string, query: ApiLogQuery, batch = 2000): AsyncGenerator<string[]> {
  const from = logFrom(accountId, query);
  const { key, desc } = logOrder(query.sort);
  let after: { t: string; id: string } | null = null;
  for (;;) {
    const cond = after ? sql`and (l.created_at, l.id) ${sql.raw(desc ? "<" : ">")} (${after.t}::timestamptz, ${after.id})` : sql``;
    const res = (await db.execute(
      sql`select ${logJson}::text as line, l.created_at::text as t, l.id as id ${from} ${cond} order by ${orderBy(key, desc)} limit ${batch}`,
    )) as unknown as Rows<{ line: string; t: string; id: string }>;
    if (res.rows.length === 0) return;
    yield res.rows.map((r) => r.line);
    if (res.rows.length < batch) return;
    const last = res.rows[res.rows.length - 1]!;
    after = { t: last.t, id: last.id };
  }
}

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
