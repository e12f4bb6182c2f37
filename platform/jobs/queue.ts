import { sql, type SQL } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss, type JobWithMetadata, type Queue, type SendOptions } from "pg-boss";
import type { Database, DbOrTx } from "../db/client.ts";

/*
 * The platform's background work on pg-boss (docs/decisions/2026-12-03-job-queue.md,
 * docs/decisions/2026-12-03-pcap-analyses-on-the-queue.md): one job
 * queue in the platform's own database, PGlite (embedded default, through pg-boss's PGlite
 * adapter) or PostgreSQL (several instances, each with its own small pool). Any instance takes any
 * job; a job whose instance dies is taken again once its heartbeat stops (`heartbeatSeconds`); a
 * job is enqueued in the caller's transaction (`tx`), so it exists exactly when the change does.
 */

/** The queues and their rules. Each handler is registered by the module that owns the work. */
export const queues = {
  /** Outgoing e-mail (mail/mailer.ts): temporary failures retry with backoff up to 10 minutes apart, for a day. */
  mail: { name: "mail", retryLimit: 150, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10, notify: true },
  /**
   * PCAP analyses (domain/pcap-analysis.ts): one job per capture (`exclusive` per pcap_file_key:
   * never two queued or running), one at a time per instance. A job whose instance dies is given
   * back when its heartbeat stops; a failure that is not the file's fault is tried again with
   * backoff. Expires past the analysis' own 30-minute limit.
   */
  pcapAnalysis: { name: "pcap-analysis", policy: "exclusive", retryLimit: 4, retryDelay: 5, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 35 * 60, heartbeatSeconds: 10, notify: true },
  /**
   * One webhook delivery attempt (webhooks/worker.ts): the next attempt is its own job, sent with
   * `startAfter` on the Standard Webhooks schedule by the attempt before. pg-boss's retry is only
   * for an instance that died holding the attempt (its heartbeat stops) or an error of the platform's
   * own: the job runs again elsewhere, with the same webhook-id.
   */
  webhookDelivery: { name: "webhook-delivery", retryLimit: 5, retryDelay: 5, expireInSeconds: 120, heartbeatSeconds: 10, notify: true },
  /**
   * An attempt's job that pg-boss gave up (its instances died holding it, or the platform failed on
   * it, six times): each attempt's job names this queue as its dead letter (webhooks/events.ts), and
   * its handler marks the delivery failed, so the log never shows one "sending" for ever.
   */
  webhookDeliveryGivenUp: { name: "webhook-delivery-given-up", retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10, notify: true },
  /** An account's digest e-mail of operations events (webhooks/worker.ts): one queued per account (`stately` per account id), at most one mail per 10 minutes. */
  webhookDigest: { name: "webhook-digest", policy: "stately", retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10, notify: true },
  /** Support tickets' changes (ticket_events) made into operations events (webhooks/events.ts), sent by each ticket change. */
  webhookTicketEvents: { name: "webhook-ticket-events", retryLimit: 10, retryDelay: 10, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10, notify: true },
  /** The PCAP retention sweep (domain/pcap-retention.ts), hourly on one instance. */
  pcapRetention: { name: "pcap-retention", policy: "singleton", retryLimit: 2, retryDelay: 60, expireInSeconds: 900, heartbeatSeconds: 30 },
  /** The scheduled reports' clock (domain/report-schedules-jobs.ts): every 5 minutes on one instance, it queues the reports due. */
  reportTick: { name: "report-tick", policy: "singleton", retryLimit: 1, retryDelay: 30, expireInSeconds: 300, heartbeatSeconds: 30 },
  /** One scheduled report (one job per schedule and period, its key): made, stored and mailed once; a failure is tried again with backoff. */
  report: { name: "report", retryLimit: 6, retryDelay: 60, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 900, heartbeatSeconds: 15, notify: true },
} as const satisfies Record<string, Queue>;

export type QueueName = (typeof queues)[keyof typeof queues]["name"];

/** How many jobs wait and for how long (for the metrics: queue depth and age). */
export interface QueueDepth {
  queue: string;
  /** Ready to run now. */
  ready: number;
  /** Waiting for a later time (retries with backoff included). */
  deferred: number;
  active: number;
  /** Failed for good (retained a while). */
  failed: number;
  /** Seconds the oldest ready job has waited; 0 when none waits. */
  oldestReadySeconds: number;
}

export interface JobQueueOptions {
  database: Database;
  /** PostgreSQL: pg-boss's own pool (a few connections) and LISTEN connection. */
  databaseUrl?: string;
  /** Seconds between pg-boss's supervision passes (expired jobs, stopped heartbeats): how soon a dead instance's job is given back. Default 10. */
  superviseSeconds?: number;
  /** Seconds between fetches of an idle worker when no NOTIFY wakes it. Default 2. */
  pollingSeconds?: number;
  /** Run schedules (cron) on this instance. Default true. */
  schedule?: boolean;
  /** pg-boss's schema (default `pgboss`); tests sharing one database keep their jobs apart with their own. */
  schema?: string;
  /** First wait before a failed mail is tried again, in seconds (default the queue's, 30); tests shorten it. */
  mailRetryDelaySeconds?: number;
  /** Tries of a mail after its first before the queue gives up (default the queue's, 150); tests shorten it. */
  mailRetryLimit?: number;
}

export interface JobQueue {
  boss: PgBoss;
  /** Enqueues a job; in `tx` when given, so it commits (or rolls back) with the caller's change. */
  send(queue: QueueName, data: object, options?: SendOptions & { tx?: DbOrTx }): Promise<string | null>;
  /** Takes jobs of a queue on this instance, one at a time per slot (`concurrency`). */
  work<T extends object>(queue: QueueName, handler: (job: JobWithMetadata<T>) => Promise<unknown>, concurrency?: number): Promise<void>;
  depth(): Promise<QueueDepth[]>;
  stop(): Promise<void>;
}

/**
 * pg-boss's drizzle adapter over the caller's transaction (or database handle), as its docs show
 * (`boss.send(name, data, { db: fromDrizzle(tx, sql) })`).
 */
function inTransaction(tx: DbOrTx) {
  // why: Db's `execute` answers the driver's result, typed `unknown` through the common Db interface
  // (node-postgres and PGlite both answer `{ rows }`, which is what the adapter reads); and drizzle's
  // `sql` tag is the tag the adapter asks for, its typings differing only in what the tag returns.
  const execute = (query: unknown) => tx.execute(query as SQL) as Promise<{ rows: unknown[] }>;
  return fromDrizzle({ execute }, sql as unknown as Parameters<typeof fromDrizzle>[1]);
}

export async function openJobQueue(opts: JobQueueOptions): Promise<JobQueue> {
  const common = {
    superviseIntervalSeconds: opts.superviseSeconds ?? 10,
    monitorIntervalSeconds: opts.superviseSeconds ?? 10,
    schedule: opts.schedule ?? true,
    useListenNotify: true,
    // The platform names its own instances in its logs; the registry is pg-boss's and stays small.
    registerInstance: false,
    ...(opts.schema ? { schema: opts.schema } : {}),
  };
  let boss: PgBoss;
  if (opts.databaseUrl) {
    boss = new PgBoss({ ...common, connectionString: opts.databaseUrl, max: 4, application_name: "linkwise-jobs" });
  } else if (opts.database.pglite) {
    boss = new PgBoss({ ...common, db: fromPglite(opts.database.pglite), backend: "pglite" });
  } else {
    throw new Error("the job queue needs DATABASE_URL or the embedded PGlite database");
  }
  boss.on("error", (error: Error) => console.error("[jobs] queue error:", error.message));
  boss.on("warning", (w: { message: string }) => console.warn("[jobs] queue warning:", w.message));
  await boss.start();
  const rules: Queue[] = Object.values(queues).map((q) => (q.name === queues.mail.name ? { ...q, retryDelay: opts.mailRetryDelaySeconds ?? q.retryDelay, retryLimit: opts.mailRetryLimit ?? q.retryLimit } : q));
  for (const { name, ...options } of rules) {
    // createQueue keeps an existing queue as it is; updateQueue applies today's rules to it.
    await boss.createQueue(name, options);
    const { policy: _policy, partition: _partition, ...today } = options;
    await boss.updateQueue(name, { ...today, heartbeatSeconds: today.heartbeatSeconds ?? null, retryDelayMax: today.retryDelayMax ?? null });
  }
  const pollingIntervalSeconds = opts.pollingSeconds ?? 2;
  const workers: string[] = [];
  return {
    boss,
    send(queue, data, { tx, ...options } = {}) {
      return boss.send(queue, data, tx ? { ...options, db: inTransaction(tx) } : options);
    },
    async work(queue, handler, concurrency = 1) {
      const id = await boss.work<object>(queue, {
        batchSize: 1,
        // A handler knows its job's retry limit: the last try of a mail records that it gave up.
        includeMetadata: true,
        localConcurrency: concurrency,
        pollingIntervalSeconds,
        // NOTIFY wakes a worker for a new job, not for a retry coming due: the backstop poll stays short.
        notifyPollingIntervalSeconds: pollingIntervalSeconds * 5,
      }, async ([job]) => {
        // why: each queue's data is written by its own module's send (Job<object> → that module's type).
        if (job) return handler(job as JobWithMetadata<never>);
      });
      workers.push(id);
    },
    async depth() {
      const rows = await boss.getQueues(Object.values(queues).map((q) => q.name));
      return rows.map((q) => ({
        queue: q.name,
        ready: q.readyCount,
        deferred: q.deferredCount,
        active: q.activeCount,
        failed: q.failedCount,
        oldestReadySeconds: q.readyOldestSeconds ?? 0,
      }));
    },
    async stop() {
      // Graceful: jobs in hand finish (bounded); what is left is taken again by another instance.
      await boss.stop({ graceful: true, timeout: 10_000, close: true });
    },
  };
}
