import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import { fleetOpStateHooks, type OpStateChanged } from "../fleet/index.ts";
import { newId } from "../lib/ids.ts";
import { opsEventTypeNames } from "../contract/operations.ts";

/*
 * The events the operations settings deliver (docs/operations-events.md), written to the outbox
 * (ops_events, ops_deliveries, ops_mail) in the caller's transaction: the change and its
 * notification commit together or not at all, with the jobs that deliver them (a delivery
 * attempt, the account's digest) on the job queue. Delivery is the jobs' (worker.ts).
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

// The job queue of this platform instance, through which events are delivered: set by
// workWebhookDeliveries when the platform starts (worker.ts). A handle on the shared database's
// queue, not state: every instance's sends land in the same queue. Rows written while none is set
// (a process without a platform) get no job; the next platform start queues them.
let deliveryQueue: JobQueue | null = null;
/** Sends the jobs of events through `jobs` from now on; answers the undo. */
export function deliverEventsThrough(jobs: JobQueue): () => void {
  deliveryQueue = jobs;
  return () => {
    if (deliveryQueue === jobs) deliveryQueue = null;
  };
}

/**
 * The job that makes a delivery's next attempt, sent in `tx` (due at `startAfter`, or now), and its
 * id written on the row: an attempt is made only by the job the row names (worker.ts), so a job
 * replaced (redeliver) or run again after its answer was recorded does nothing.
 */
export async function queueAttempt(tx: DbOrTx, deliveryId: string, startAfter?: Date): Promise<void> {
  const jobs = deliveryQueue;
  const jobId = jobs ? randomUUID() : null;
  await tx.execute(sql`update ops_deliveries set job_id = ${jobId} where delivery_id = ${deliveryId}`);
  if (jobs && jobId) {
    await jobs.send(queues.webhookDelivery.name, { delivery_id: deliveryId } satisfies DeliveryJob, {
      tx,
      id: jobId,
      // Given up by the queue (not by the schedule): the delivery is marked failed (worker.ts).
      deadLetter: queues.webhookDeliveryGivenUp.name,
      ...(startAfter ? { startAfter } : {}),
    });
  }
}

/** The account's next digest e-mail, sent in `tx`: one queued per account (the queue's `stately` policy), due at `startAfter` or now. */
export async function queueDigest(tx: DbOrTx, accountId: string, startAfter?: Date): Promise<void> {
  await deliveryQueue?.send(queues.webhookDigest.name, { account_id: accountId } satisfies DigestJob, { tx, singletonKey: accountId, ...(startAfter ? { startAfter } : {}) });
}

/** In the transaction of a ticket change that wrote ticket_events: a job makes them operations events (takeTicketEvents). */
export async function ticketEventsWritten(tx: DbOrTx): Promise<void> {
  await deliveryQueue?.send(queues.webhookTicketEvents.name, {}, { tx });
}

/** A delivery attempt's job: it makes the attempt while the row's `job_id` names it. */
export interface DeliveryJob {
  delivery_id: string;
}
/** An account's digest e-mail. */
export interface DigestJob {
  account_id: string;
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
  const delivery = await tx.execute(sql`
    insert into ops_deliveries (delivery_id, event_id, account_id, url, next_attempt_at)
    select ${newId("dlv", 16)}, ${eventId}, o.account_id, o.webhook_url, clock_timestamp()
      from account_ops o left join ops_webhooks w on w.account_id = o.account_id
     where o.account_id = ${accountId} and o.webhook_url <> '' and w.disabled_at is null
    returning delivery_id`);
  const [made] = (delivery as { rows?: { delivery_id: string }[] }).rows ?? [];
  if (made) await queueAttempt(tx, made.delivery_id);
  if (opts.mail) {
    const mail = await tx.execute(sql`
      insert into ops_mail (event_id, account_id)
      select ${eventId}, o.account_id from account_ops o where o.account_id = ${accountId} and o.email <> ''
      returning event_id`);
    // Due now: the job itself holds the digest back until 10 minutes after the last one (worker.ts).
    if (((mail as { rows?: unknown[] }).rows ?? []).length > 0) await queueDigest(tx, accountId);
  }
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
