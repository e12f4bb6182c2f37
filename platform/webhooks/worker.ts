import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { FleetBus } from "../fleet/index.ts";
import type { Mailer } from "../mail/mailer.ts";
import { listen, repeat } from "../lib/background.ts";
import { execRows } from "../lib/list.ts";
import { agentFor, sendProblem } from "./address.ts";
import { onWake, OPS_CHANNEL, takeTicketEvents, type OpsPayload } from "./events.ts";
import { DELIVERY_TIMEOUT_MS, postOnce, type AttemptResult } from "./send.ts";
import { signedHeaders } from "./signing.ts";
import { observe } from "../../server/observe.mjs";

const log = observe("platform").logger.child({ component: "operations" });

/*
 * The delivery worker, one per platform instance. It claims due deliveries with
 * FOR UPDATE SKIP LOCKED (a claim marks the row `sending` until a lease ends, in the claiming
 * statement, so of several instances exactly one sends each attempt), sends them outside any
 * transaction, and records the answer. It is woken by NOTIFY (PostgreSQL: sent on commit by every
 * transaction that wrote a delivery), by the fleet bus and by this process's own changes, and it
 * sweeps every `sweepMs` whatever happens, so a wake-up missed (the bus reconnecting, a restart)
 * delays a delivery by at most one sweep and loses nothing. The HTTP calls never run inside a
 * request or the clock's tick: those only write rows.
 */

/** Standard Webhooks' schedule: the delay before attempt n+1 (attempt 1 is immediate). */
export const RETRY_SCHEDULE_MS = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000] as const;
/** Attempts of one delivery before it is given up (the schedule's length). */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
/** An endpoint failing for this long is disabled (and the account told). */
export const DISABLE_AFTER_MS = 5 * 24 * 3600_000;
/** At most one digest e-mail per account per this period. */
export const MAIL_EVERY_MS = 10 * 60_000;
/** How long a claim lasts: the time-out and a margin (a worker that died mid-send is replaced after it). */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 15_000;
const BATCH = 10;

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

export interface DeliveryWorkerOptions {
  db: Db;
  mailer: Mailer;
  config: { webhookAllowHosts: string[]; productName: string; consoleUrl: string };
  /** PostgreSQL: LISTEN for wake-ups on a connection of its own. */
  databaseUrl?: string;
  bus?: FleetBus;
  /** Injectable time for scheduling (tests move it); signatures always carry the real time. */
  now?: () => number;
  sweepMs?: number;
  timeoutMs?: number;
  random?: () => number;
  /** Tests: only these accounts' deliveries and mails (test files share one database). */
  accounts?: readonly string[];
}

export interface DeliveryWorker {
  /** One pass: ticket events in, due deliveries out, digests sent. Answers the attempts made. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
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

export function createDeliveryWorker(opts: DeliveryWorkerOptions): DeliveryWorker {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const at = (ms: number) => new Date(ms).toISOString();
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = true;
  const cleanups: (() => void | Promise<void>)[] = [];
  const scope = (column: string) =>
    opts.accounts ? sql`and ${sql.raw(column)} in (${sql.join(opts.accounts.map((a) => sql`${a}`), sql`, `)})` : sql``;

  async function claim(): Promise<Claimed[]> {
    const t = now();
    return execRows<Claimed>(
      db,
      sql`with due as (
            select delivery_id from ops_deliveries
             where status in ('pending', 'sending') and next_attempt_at <= ${at(t)}::timestamptz ${scope("account_id")}
             order by next_attempt_at limit ${BATCH}
             for update skip locked)
          update ops_deliveries d
             set status = 'sending', attempt = d.attempt + 1, last_attempt_at = ${at(t)}::timestamptz,
                 next_attempt_at = ${at(t + LEASE_MS)}::timestamptz
            from due where d.delivery_id = due.delivery_id
          returning d.delivery_id, d.event_id, d.account_id, d.attempt`,
    );
  }

  async function target(c: Claimed): Promise<Target | undefined> {
    const [row] = await execRows<Target>(
      db,
      sql`select e.payload, o.webhook_url, o.signature_key, o.email,
                 case when w.previous_key_until > ${at(now())}::timestamptz then w.previous_key end as previous_key,
                 (w.disabled_at is not null) as disabled
            from ops_events e
            left join account_ops o on o.account_id = e.account_id
            left join ops_webhooks w on w.account_id = e.account_id
           where e.event_id = ${c.event_id}`,
    );
    return row;
  }

  /** Records an attempt's answer (or why none was made): the next retry, the endpoint's failure state, disabling it. */
  async function record(c: Claimed, t: Target | undefined, r: AttemptResult, giveUp: string | null): Promise<void> {
    const ok = r.status !== null && r.status >= 200 && r.status < 300;
    const finished = now();
    let status: string;
    let next: string | null = null;
    if (ok) status = "succeeded";
    else if (giveUp || r.status === 410 || c.attempt >= MAX_ATTEMPTS) status = "failed";
    else {
      status = "pending";
      const retryAfter = r.status === 429 || r.status === 503 ? r.retryAfter : null;
      next = at(finished + retryDelay(c.attempt, retryAfter, finished, random));
    }
    await db.execute(sql`update ops_deliveries set status = ${status}, next_attempt_at = ${next}::timestamptz,
        http_status = ${r.status}, latency_ms = ${giveUp ? null : r.latencyMs}, error = ${giveUp ?? r.error}, url = coalesce(nullif(${t?.webhook_url ?? ""}, ''), url)
      where delivery_id = ${c.delivery_id} and attempt = ${c.attempt} and status = 'sending'`);
    if (giveUp) return;
    if (ok) {
      await db.execute(sql`update ops_webhooks set failing_since = null where account_id = ${c.account_id} and failing_since is not null`);
      return;
    }
    await db.execute(sql`insert into ops_webhooks (account_id, failing_since) values (${c.account_id}, ${at(finished)}::timestamptz)
      on conflict (account_id) do update set failing_since = coalesce(ops_webhooks.failing_since, excluded.failing_since)`);
    const reason =
      r.status === 410
        ? "The endpoint answered 410 Gone."
        : `Every delivery failed for 5 days (last: ${r.status !== null ? `HTTP ${r.status}` : (r.error ?? "no answer")}).`;
    // Disabling, failing what waited and the notice commit together (the notice on the mail queue).
    await db.transaction(async (tx) => {
      const disabled = await execRows<{ account_id: string }>(
        tx,
        sql`update ops_webhooks set disabled_at = ${at(finished)}::timestamptz, disabled_reason = ${reason}
             where account_id = ${c.account_id} and disabled_at is null
               and (${r.status === 410} or failing_since <= ${at(finished - DISABLE_AFTER_MS)}::timestamptz)
           returning account_id`,
      );
      if (disabled.length === 0) return;
      await tx.execute(sql`update ops_deliveries set status = 'failed', next_attempt_at = null, error = 'The endpoint was disabled.'
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
  }

  async function deliver(c: Claimed): Promise<void> {
    const t = await target(c);
    const none: AttemptResult = { status: null, retryAfter: null, latencyMs: 0, error: null };
    if (!t || !t.webhook_url || !t.signature_key) return record(c, t, none, "No webhook address is set.");
    if (t.disabled) return record(c, t, none, "The endpoint is disabled.");
    let url: URL;
    try {
      url = new URL(t.webhook_url);
    } catch {
      return record(c, t, none, "The webhook address is not valid.");
    }
    const problem = sendProblem(url, opts.config.webhookAllowHosts);
    if (problem) return record(c, t, none, problem);
    const body = typeof t.payload === "string" ? t.payload : JSON.stringify(t.payload);
    const secrets = [t.signature_key, ...(t.previous_key ? [t.previous_key] : [])];
    const result = await postOnce(url, body, signedHeaders(c.event_id, body, secrets), agentFor(url, opts.config.webhookAllowHosts), opts.timeoutMs);
    await record(c, t, result, null);
  }

  async function sendDigests(): Promise<void> {
    const t = now();
    const accounts = await execRows<{ account_id: string }>(
      db,
      sql`select distinct m.account_id from ops_mail m left join ops_webhooks w on w.account_id = m.account_id
           where m.sent_at is null ${scope("m.account_id")} and (w.last_mail_at is null or w.last_mail_at <= ${at(t - MAIL_EVERY_MS)}::timestamptz)`,
    );
    for (const { account_id } of accounts) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into ops_webhooks (account_id) values (${account_id}) on conflict do nothing`);
        const gate = await execRows<{ ok: boolean }>(
          tx,
          sql`select (last_mail_at is null or last_mail_at <= ${at(t - MAIL_EVERY_MS)}::timestamptz) as ok
                from ops_webhooks where account_id = ${account_id} for update skip locked`,
        );
        if (!gate[0]?.ok) return;
        const rows = await execRows<{ payload: OpsPayload | string; email: string }>(
          tx,
          sql`update ops_mail m set sent_at = ${at(t)}::timestamptz from ops_events e, account_ops o
               where m.account_id = ${account_id} and m.sent_at is null and e.event_id = m.event_id and o.account_id = m.account_id
              returning e.payload, o.email`,
        );
        if (rows.length === 0) return;
        await tx.execute(sql`update ops_webhooks set last_mail_at = ${at(t)}::timestamptz where account_id = ${account_id}`);
        const events = rows.map((r) => (typeof r.payload === "string" ? (JSON.parse(r.payload) as OpsPayload) : r.payload)).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
        const to = rows[0]!.email;
        // The digest is enqueued with the events it takes: both commit, or neither (and the next pass tries again).
        if (to) await opts.mailer.send(digestMail(opts.config.productName, opts.config.consoleUrl, to, events), { tx, accountId: account_id });
      });
    }
  }

  async function pass(): Promise<number> {
    let attempts = 0;
    try {
      while ((await takeTicketEvents(db)) > 0);
    } catch (error) {
      log.error({ err: error }, "could not take ticket events");
    }
    for (;;) {
      const claimed = await claim();
      if (claimed.length === 0) break;
      attempts += claimed.length;
      await Promise.all(claimed.map((c) => deliver(c).catch((error: Error) => log.error({ err: error }, "delivery failed"))));
    }
    await sendDigests();
    return attempts;
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await pass();
      } while (again && !stopped);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const wake = () => {
    if (stopped) return;
    runOnce().catch((error: Error) => log.error({ err: error }, "worker pass failed"));
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      cleanups.push(onWake(wake));
      if (opts.bus) cleanups.push(opts.bus.subscribe(() => setTimeout(wake, 50)));
      // LISTEN wakes it at once; after a drop it listens again (the sweep covers the gap).
      if (opts.databaseUrl) cleanups.push(listen(opts.databaseUrl, OPS_CHANNEL, { notification: wake, listening: wake, retryFirst: true }).close);
      cleanups.push(repeat(wake, opts.sweepMs ?? 5000));
    },
    async stop() {
      stopped = true;
      for (const c of cleanups.splice(0)) await c();
      await running?.catch(() => {});
    },
  };
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
