import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { fleetOpStateHooks, type OpStateChanged } from "../fleet/index.ts";
import { newId } from "../lib/ids.ts";
import { opsEventTypeNames } from "../contract/operations.ts";

/*
 * The events the operations settings deliver (docs/operations-events.md), written to the outbox
 * (ops_events, ops_deliveries, ops_mail) in the caller's transaction: the change and its
 * notification commit together or not at all. Delivery is the worker's (worker.ts).
 */

/** The event types (docs/operations-events.md): the contract's list. */
export const opsEventTypes = opsEventTypeNames;
export type OpsEventType = (typeof opsEventTypes)[number];

/** Standard Webhooks' payload: `{type, timestamp, data}`, kept under 20 KB. */
export interface OpsPayload {
  type: OpsEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export const MAX_PAYLOAD_BYTES = 20_000;
/** Channel of the wake-up NOTIFY (sent on commit); workers also sweep, so a missed one loses nothing. */
export const OPS_CHANNEL = "linkwise_ops_wake";

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const cut = (s: unknown, max = 2000) => (typeof s === "string" && s.length > max ? `${s.slice(0, max)}…` : s);

/** The payload, its long texts and lists cut until it is under MAX_PAYLOAD_BYTES. */
export function boundedPayload(type: OpsEventType, timestamp: string, data: Record<string, unknown>): OpsPayload {
  const fit: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) fit[k] = cut(v);
  let payload: OpsPayload = { type, timestamp, data: fit };
  for (const keep of [20, 5, 0]) {
    if (bytes(payload) < MAX_PAYLOAD_BYTES) break;
    const affected = fit.affected as { app_services?: unknown[]; endpoints?: unknown[] } | undefined;
    if (affected) {
      fit.affected = { app_services: (affected.app_services ?? []).slice(0, keep), endpoints: (affected.endpoints ?? []).slice(0, keep), truncated: true };
    }
    for (const [k, v] of Object.entries(fit)) fit[k] = cut(v, keep * 20);
    payload = { type, timestamp, data: fit };
  }
  return payload;
}

// In-process wake-ups (the worker of this process, after a change it made itself committed).
const wakers = new Set<() => void>();
export function onWake(wake: () => void): () => void {
  wakers.add(wake);
  return () => void wakers.delete(wake);
}
/** Wakes this process's delivery workers (call after the transaction committed). */
export function wakeDeliveries() {
  for (const w of wakers) w();
}

/**
 * Writes an event of the account, its delivery to the webhook address (when one is set and the
 * endpoint is enabled) and its place in the next digest e-mail (when `mail` and an address is set),
 * in `tx`. Nothing when the account has no operations settings, or when `sourceKey` was seen
 * already (a replayed cause). Answers the event id (`msg_…`, the webhook-id) or null.
 */
export async function enqueueEvent(
  tx: DbOrTx,
  accountId: string,
  payload: OpsPayload,
  opts: { sourceKey?: string; mail?: boolean } = {},
): Promise<string | null> {
  const eventId = newId("msg", 20);
  const rows = await tx.execute(sql`
    insert into ops_events (event_id, account_id, type, payload, source_key)
    select ${eventId}, o.account_id, ${payload.type}, ${JSON.stringify(payload)}::jsonb, ${opts.sourceKey ?? null}
      from account_ops o where o.account_id = ${accountId} and (o.webhook_url <> '' or o.email <> '')
    on conflict (source_key) do nothing
    returning event_id`);
  if (((rows as { rows?: unknown[] }).rows ?? []).length === 0) return null;
  await tx.execute(sql`
    insert into ops_deliveries (delivery_id, event_id, account_id, url, next_attempt_at)
    select ${newId("dlv", 16)}, ${eventId}, o.account_id, o.webhook_url, clock_timestamp()
      from account_ops o left join ops_webhooks w on w.account_id = o.account_id
     where o.account_id = ${accountId} and o.webhook_url <> '' and w.disabled_at is null`);
  if (opts.mail) {
    await tx.execute(sql`
      insert into ops_mail (event_id, account_id)
      select ${eventId}, o.account_id from account_ops o where o.account_id = ${accountId} and o.email <> ''`);
  }
  await tx.execute(sql`select pg_notify(${OPS_CHANNEL}, '')`);
  return eventId;
}

// The console's address (config CONSOLE_URL), for the links events carry. Set once when the
// platform starts (createPlatform), before the fleet clock runs; it is configuration, the same on
// every instance, so it may live in the process.
let consoleUrl: string | null = null;
export function linkOpsEventsTo(url: string | null) {
  consoleUrl = url ? url.replace(/\/$/, "") : null;
}

/** The kinds whose outages have a record page in the console (/outages/:id, get_outage): the devices. */
const RECORDED_KINDS = new Set(["cpe", "metro"]);

/** The outage record's address in the console, or null (no console address set, or a kind without a record). */
export function outageUrl(kind: string, outageId: string | null): string | null {
  if (!outageId || !consoleUrl || !RECORDED_KINDS.has(kind)) return null;
  return `${consoleUrl}/outages/${encodeURIComponent(outageId)}`;
}

/** The op state change as an event: outage.started / outage.ended when an outage caused it, op_state.changed otherwise. */
export function opStateEvent(change: OpStateChanged & { name: string | null }): OpsPayload {
  const type: OpsEventType = change.outage_id ? (change.after === "down" ? "outage.started" : "outage.ended") : "op_state.changed";
  return boundedPayload(type, change.at, {
    kind: change.kind,
    id: change.id,
    name: change.name,
    state: change.after,
    previous_state: change.before,
    changed_at: change.at,
    outage_id: change.outage_id,
    outage_url: outageUrl(change.kind, change.outage_id),
    self_diagnosis: change.self_diagnosis,
    announced: change.announced,
    affected: change.affected,
  });
}

// Every op state change the fleet clock applies (every kind in fleetKinds), in its transaction.
// A first state (no state before) is not a change anyone is told about.
fleetOpStateHooks.register("operations", async (tx, change) => {
  if (change.before === null) return;
  await enqueueEvent(tx, change.account_id, opStateEvent(change), { sourceKey: `fleet:${change.event_id}`, mail: !change.announced });
});

const ticketTypes: Record<string, OpsEventType> = { created: "ticket.created", reply: "ticket.replied", resolved: "ticket.resolved" };

/**
 * Moves the support outbox (ticket_events, written in each ticket change's transaction) into the
 * operations outbox: each undelivered ticket event becomes an operations event, once (its source
 * key), and is marked delivered, in one transaction; rows another worker holds are skipped.
 */
export async function takeTicketEvents(db: DbOrTx, limit = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      select e.event_id, e.account_id, e.kind, e.payload, e.created_at, t.title, t.state
        from ticket_events e join tickets t on t.ticket_id = e.ticket_id
       where e.delivered_at is null
       order by e.created_at limit ${limit}
       for update of e skip locked`);
    const rows = ((res as { rows?: Record<string, unknown>[] }).rows ?? []) as {
      event_id: string;
      account_id: string;
      kind: string;
      payload: Record<string, unknown> | string;
      created_at: Date | string;
      title: string;
      state: string;
    }[];
    for (const r of rows) {
      const type = ticketTypes[r.kind];
      if (type) {
        const stored = typeof r.payload === "string" ? (JSON.parse(r.payload) as Record<string, unknown>) : r.payload;
        const { event: _event, ...data } = stored;
        const at = new Date(r.created_at).toISOString();
        await enqueueEvent(tx, r.account_id, boundedPayload(type, at, { ...data, title: r.title, state: r.state }), { sourceKey: `ticket:${r.event_id}`, mail: true });
      }
      await tx.execute(sql`update ticket_events set delivered_at = now() where event_id = ${r.event_id}`);
    }
    return rows.length;
  });
}
