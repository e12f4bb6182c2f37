import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import { execRows } from "../lib/list.ts";
import { agentFor, sendProblem } from "./address.ts";
import { deliverEventsThrough, queueAttempt, queueDigest, takeTicketEvents, type DeliveryJob, type DigestJob, type OpsPayload } from "./events.ts";
import { postOnce, type AttemptResult } from "./send.ts";
import { signedHeaders } from "./signing.ts";
import { observe } from "../../server/observe.mjs";

const log = observe("platform").logger.child({ component: "operations" });

/*
 * Webhook deliveries and digests as jobs on the platform's queue (jobs/queue.ts;
 * docs/decisions/2026-12-03-job-queue.md). Each delivery attempt is one `webhook-delivery` job:
 * the first is sent in the transaction that writes the event (events.ts), each next one with
 * `startAfter` on the Standard Webhooks schedule in the transaction that records the answer. Any
 * instance runs any job; one whose instance died (its heartbeat stopped) is run again by another,
 * and makes the attempt again with the same webhook-id. The `ops_deliveries` rows stay the log the
 * customer reads; a row names the job of its next attempt (`job_id`), and only that job, while the
 * row waits for it or is sending, makes the attempt: a job replaced (redeliver) or run again after
 * its answer was recorded does nothing. The HTTP call is made outside any transaction.
 */

/** Standard Webhooks' schedule: the delay before attempt n+1 (attempt 1 is immediate). */
export const RETRY_SCHEDULE_MS = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000] as const;
/** Attempts of one delivery before it is given up (the schedule's length). */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
/** An endpoint failing for this long is disabled (and the account told). */
export const DISABLE_AFTER_MS = 5 * 24 * 3600_000;
/** At most one digest e-mail per account per this period. */
export const MAIL_EVERY_MS = 10 * 60_000;
/** Attempts made at once by one instance. */
const CONCURRENCY = 5;

/** The delay after `attempts` failed attempts, ±10 % jitter; Retry-After (429, 503) wins when later, up to a day. */
export function retryDelay(attempts: number, retryAfter: string | null = null, now = Date.now(), random = Math.random): number {
  const base = RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length - 1)]!;
  let delay = Math.round(base * (0.9 + 0.2 * random()));
  if (retryAfter) {
    const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(seconds) && seconds > delay) delay = Math.min(seconds, 24 * 3600_000);
  }
  return delay;
}

export interface DeliveryOptions {
  db: Db;
  mailer: Mailer;
  config: { webhookAllowHosts: string[]; productName: string; consoleUrl: string };
  timeoutMs?: number;
  /** The retry schedule's jitter (tests fix it). */
  random?: () => number;
}

/** A job as the handlers need it (pg-boss's Job, or a test's). */
export interface JobOf<T> {
  id: string;
  data: T;
}

interface Claimed {
  delivery_id: string;
  event_id: string;
  account_id: string;
  attempt: number;
}

interface Target {
  payload: OpsPayload | string;
  webhook_url: string | null;
  signature_key: string | null;
  previous_key: string | null;
  email: string | null;
  disabled: boolean;
}

/**
 * One delivery attempt's job. Answers "skipped" when the row does not name this job any more (the
 * answer was recorded, the delivery was redelivered, failed with its endpoint disabled), otherwise
 * the attempt's outcome as written on the row.
 */
export async function runDeliveryJob(opts: DeliveryOptions, job: JobOf<DeliveryJob>): Promise<"skipped" | "succeeded" | "pending" | "failed"> {
  const { db } = opts;
  // The claim, one statement: the row names this job and waits for it (pending), or this job's
  // instance died while sending (sending): either way this is another attempt, counted.
  const [c] = await execRows<Claimed>(
    db,
    sql`update ops_deliveries set status = 'sending', attempt = attempt + 1, last_attempt_at = clock_timestamp(), next_attempt_at = null
         where delivery_id = ${job.data.delivery_id} and job_id = ${job.id} and status in ('pending', 'sending')
        returning delivery_id, event_id, account_id, attempt`,
  );
  if (!c) return "skipped";
  const [t] = await execRows<Target>(
    db,
    sql`select e.payload, o.webhook_url, o.signature_key, o.email,
               case when w.previous_key_until > now() then w.previous_key end as previous_key,
               (w.disabled_at is not null) as disabled
          from ops_events e
          left join account_ops o on o.account_id = e.account_id
          left join ops_webhooks w on w.account_id = e.account_id
         where e.event_id = ${c.event_id}`,
  );
  const none: AttemptResult = { status: null, retryAfter: null, latencyMs: 0, error: null };
  if (!t || !t.webhook_url || !t.signature_key) return record(opts, job, c, t, none, "No webhook address is set.");
  if (t.disabled) return record(opts, job, c, t, none, "The endpoint is disabled.");
  let url: URL;
  try {
    url = new URL(t.webhook_url);
  } catch {
    return record(opts, job, c, t, none, "The webhook address is not valid.");
  }
  const problem = sendProblem(url, opts.config.webhookAllowHosts);
  if (problem) return record(opts, job, c, t, none, problem);
  const body = typeof t.payload === "string" ? t.payload : JSON.stringify(t.payload);
  const secrets = [t.signature_key, ...(t.previous_key ? [t.previous_key] : [])];
  const result = await postOnce(url, body, signedHeaders(c.event_id, body, secrets), agentFor(url, opts.config.webhookAllowHosts), opts.timeoutMs);
  return record(opts, job, c, t, result, null);
}

/**
 * Records an attempt's answer (or why none was made) and, in the same transaction, sends the next
 * attempt's job on the schedule; then the endpoint's failure state, and disabling it.
 */
async function record(opts: DeliveryOptions, job: JobOf<DeliveryJob>, c: Claimed, t: Target | undefined, r: AttemptResult, giveUp: string | null) {
  const { db } = opts;
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  const finished = Date.now();
  let status: "succeeded" | "pending" | "failed";
  let next: Date | null = null;
  if (ok) status = "succeeded";
  else if (giveUp || r.status === 410 || c.attempt >= MAX_ATTEMPTS) status = "failed";
  else {
    status = "pending";
    const retryAfter = r.status === 429 || r.status === 503 ? r.retryAfter : null;
    next = new Date(finished + retryDelay(c.attempt, retryAfter, finished, opts.random));
  }
  const recorded = await db.transaction(async (tx) => {
    const rows = await execRows<{ delivery_id: string }>(
      tx,
      sql`update ops_deliveries set status = ${status}, next_attempt_at = ${next?.toISOString() ?? null}::timestamptz, job_id = null,
          http_status = ${r.status}, latency_ms = ${giveUp ? null : r.latencyMs}, error = ${giveUp ?? r.error}, url = coalesce(nullif(${t?.webhook_url ?? ""}, ''), url)
        where delivery_id = ${c.delivery_id} and job_id = ${job.id} and status = 'sending'
        returning delivery_id`,
    );
    if (rows.length === 0) return false;
    if (next) await queueAttempt(tx, c.delivery_id, next);
    return true;
  });
  // Another run of this job recorded it first (its instance was thought dead while still sending).
  if (!recorded || giveUp) return status;
  if (ok) {
    await db.execute(sql`update ops_webhooks set failing_since = null where account_id = ${c.account_id} and failing_since is not null`);
    return status;
  }
  await db.execute(sql`insert into ops_webhooks (account_id, failing_since) values (${c.account_id}, now())
    on conflict (account_id) do update set failing_since = coalesce(ops_webhooks.failing_since, excluded.failing_since)`);
  const reason =
    r.status === 410
      ? "The endpoint answered 410 Gone."
      : `Every delivery failed for 5 days (last: ${r.status !== null ? `HTTP ${r.status}` : (r.error ?? "no answer")}).`;
  // Disabling, failing what waited (their jobs find the row failed and do nothing) and the notice commit together (the notice on the mail queue).
  await db.transaction(async (tx) => {
    const disabled = await execRows<{ account_id: string }>(
      tx,
      sql`update ops_webhooks set disabled_at = now(), disabled_reason = ${reason}
           where account_id = ${c.account_id} and disabled_at is null
             and (${r.status === 410} or failing_since <= now() - ${`${DISABLE_AFTER_MS} milliseconds`}::interval)
         returning account_id`,
    );
    if (disabled.length === 0) return;
    await tx.execute(sql`update ops_deliveries set status = 'failed', next_attempt_at = null, job_id = null, error = 'The endpoint was disabled.'
      where account_id = ${c.account_id} and status = 'pending'`);
    if (t?.email) {
      await opts.mailer.send(
        {
          to: t.email,
          subject: `${opts.config.productName}: webhook endpoint disabled`,
          text: `Webhook deliveries to ${t.webhook_url} have been disabled. ${reason}\n\nEnable them again on the Operations page: ${opts.config.consoleUrl}/operations\n`,
        },
        { tx, accountId: c.account_id },
      );
    }
  });
  return status;
}

/**
 * An attempt's job the queue gave up (webhook-delivery-given-up, its dead letter): the delivery it
 * held, still waiting for that job or being sent by it, is failed with the reason, and may be
 * redelivered. A job that was not the row's any more (replaced, answered) changes nothing.
 */
export async function runGivenUpJob(db: Db, job: JobOf<DeliveryJob> & { sourceId?: string | null; sourceRetryCount?: number | null }): Promise<boolean> {
  if (!job.sourceId) return false;
  const tries = (job.sourceRetryCount ?? 0) + 1;
  const rows = await execRows<{ delivery_id: string }>(
    db,
    sql`update ops_deliveries set status = 'failed', job_id = null, next_attempt_at = null,
          error = ${`Not delivered: the platform could not complete the attempt (${tries} ${tries === 1 ? "try" : "tries"}).`}
        where delivery_id = ${job.data.delivery_id} and job_id = ${job.sourceId} and status in ('pending', 'sending')
        returning delivery_id`,
  );
  if (rows.length > 0) log.warn({ delivery_id: job.data.delivery_id, job_id: job.sourceId, tries }, "webhook delivery given up by the queue");
  return rows.length > 0;
}

/**
 * An account's digest job: the events waiting for its e-mail, in one message, at most one per
 * MAIL_EVERY_MS. Within that time of the last one, it sends the job again for when the time is up
 * (one queued per account: the events arriving meanwhile wait in it). Answers how many events the
 * mail carried (0: none sent).
 */
export async function runDigestJob(opts: Pick<DeliveryOptions, "db" | "mailer" | "config">, job: JobOf<DigestJob>): Promise<number> {
  const accountId = job.data.account_id;
  return opts.db.transaction(async (tx) => {
    await tx.execute(sql`insert into ops_webhooks (account_id) values (${accountId}) on conflict do nothing`);
    // Locked (not skipped): a digest job of the account on another instance finishes first.
    const [gate] = await execRows<{ open: boolean; opens_at: Date | string | null }>(
      tx,
      sql`select (last_mail_at is null or last_mail_at <= now() - ${`${MAIL_EVERY_MS} milliseconds`}::interval) as open,
                 last_mail_at + ${`${MAIL_EVERY_MS} milliseconds`}::interval as opens_at
            from ops_webhooks where account_id = ${accountId} for update`,
    );
    if (!gate?.open) {
      const [waiting] = await execRows<{ one: number }>(tx, sql`select 1 as one from ops_mail where account_id = ${accountId} and sent_at is null limit 1`);
      if (waiting && gate?.opens_at) await queueDigest(tx, accountId, new Date(gate.opens_at));
      return 0;
    }
    const rows = await execRows<{ payload: OpsPayload | string; email: string }>(
      tx,
      sql`update ops_mail m set sent_at = now() from ops_events e, account_ops o
           where m.account_id = ${accountId} and m.sent_at is null and e.event_id = m.event_id and o.account_id = m.account_id
          returning e.payload, o.email`,
    );
    if (rows.length === 0) return 0;
    await tx.execute(sql`update ops_webhooks set last_mail_at = now() where account_id = ${accountId}`);
    const events = rows.map((r) => (typeof r.payload === "string" ? (JSON.parse(r.payload) as OpsPayload) : r.payload)).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    const to = rows[0]!.email;
    // The digest is enqueued with the events it takes: both commit, or neither (and the job is tried again).
    if (to) await opts.mailer.send(digestMail(opts.config.productName, opts.config.consoleUrl, to, events), { tx, accountId });
    return events.length;
  });
}

/** Support tickets' changes made into operations events (their deliveries and digests queued with them). */
export async function runTicketEventsJob(db: Db): Promise<number> {
  let taken = 0;
  for (let n = await takeTicketEvents(db); n > 0; n = await takeTicketEvents(db)) taken += n;
  return taken;
}

/**
 * Deliveries waiting without a job (written where no queue was set, or by a version before the
 * queue) get one, due at their next attempt, once: the rows are locked while it is sent, and
 * another instance starting at the same time skips them. Answers how many.
 */
export async function queueStrayDeliveries(db: Db): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const rows = await execRows<{ delivery_id: string; next_attempt_at: Date | string | null }>(
        tx,
        sql`select delivery_id, next_attempt_at from ops_deliveries
             where job_id is null and status in ('pending', 'sending')
             order by created_at limit 100 for update skip locked`,
      );
      for (const r of rows) {
        const due = r.next_attempt_at ? new Date(r.next_attempt_at) : undefined;
        await queueAttempt(tx, r.delivery_id, due && due.getTime() > Date.now() ? due : undefined);
      }
      return rows.length;
    });
    total += n;
    if (n === 0) return total;
  }
}

/**
 * This instance takes webhook jobs from the queue, and events are delivered through it from now on.
 * At start, deliveries without a job get one and ticket changes not yet taken are taken. Answers
 * the undo (the queue's own stop ends the workers).
 */
export async function workWebhookDeliveries(jobs: JobQueue, opts: DeliveryOptions & { catchUp?: boolean }): Promise<() => void> {
  const undo = deliverEventsThrough(jobs);
  await jobs.work<DeliveryJob>(queues.webhookDelivery.name, (job) => runDeliveryJob(opts, job), CONCURRENCY);
  await jobs.work<DeliveryJob>(queues.webhookDeliveryGivenUp.name, (job) => runGivenUpJob(opts.db, job));
  await jobs.work<DigestJob>(queues.webhookDigest.name, (job) => runDigestJob(opts, job));
  await jobs.work(queues.webhookTicketEvents.name, () => runTicketEventsJob(opts.db));
  // Tests sharing one database with other test files leave their rows alone (catchUp: false).
  if (opts.catchUp ?? true) {
    const stray = await queueStrayDeliveries(opts.db);
    if (stray > 0) log.info({ deliveries: stray }, "deliveries without a job queued");
    await jobs.send(queues.webhookTicketEvents.name, {});
  }
  return undo;
}

const describe = (e: OpsPayload) => {
  const d = e.data as Record<string, unknown>;
  const when = e.timestamp.replace("T", " ").slice(0, 16) + " UTC";
  if (e.type.startsWith("ticket.")) return `${when}  ${e.type}  ticket ${String(d.ticket_id)}${d.title ? ` "${String(d.title)}"` : ""}`;
  const what = `${String(d.kind)} ${String(d.id)}${d.name ? ` (${String(d.name)})` : ""}`;
  const why = d.self_diagnosis ? ` (${String(d.self_diagnosis)})` : "";
  const record = typeof d.outage_url === "string" ? `\n    The outage record: ${d.outage_url}` : "";
  return `${when}  ${e.type}  ${what}: ${String(d.state)}${why}${record}`;
};

/** One e-mail for the events gathered since the last one (a flapping device makes one mail, not a hundred). */
export function digestMail(product: string, consoleUrl: string, to: string, events: OpsPayload[]) {
  const subject = events.length === 1 ? `${product}: ${events[0]!.type}` : `${product}: ${events.length} events`;
  const lines = events.slice(0, 200).map(describe);
  if (events.length > 200) lines.push(`… and ${events.length - 200} more.`);
  return { to, subject, text: `${lines.join("\n")}\n\nOperations settings and the delivery log: ${consoleUrl}/operations\n` };
}
