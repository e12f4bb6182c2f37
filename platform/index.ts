import path from "node:path";
import { sql } from "drizzle-orm";
import { observe } from "../server/observe.mjs";
import { createPlatformApp, type PlatformApp } from "./app.ts";
import { openDatabase } from "./db/client.ts";
import { configFromEnv, type PlatformConfig } from "./lib/config.ts";
import type { PlatformDeps } from "./lib/context.ts";
import { createTransport, queueMailer, workMailQueue, type Mailer } from "./mail/mailer.ts";
import { workRetentionSweep } from "./domain/pcap-retention.ts";
import { workPcapAnalyses } from "./domain/pcap-analysis.ts";
import { pcapEngine } from "./domain/pcap.ts";
import { workReports } from "./domain/report-schedules-jobs.ts";
import { openJobQueue, type JobQueue } from "./jobs/queue.ts";
import { seedDemo } from "./seed.ts";
import { startFleet } from "./fleet/runtime.ts";
import { forgetCachedReads } from "./lib/auth.ts";
import { linkOpsEventsTo } from "./webhooks/events.ts";
import { workWebhookDeliveries } from "./webhooks/worker.ts";
import { execRows } from "./lib/list.ts";
import { pcapQueue } from "./pcap/queue.ts";
import type { Db } from "./db/client.ts";

export interface Platform {
  app: PlatformApp;
  deps: PlatformDeps;
  fetch: (request: Request) => Promise<Response>;
  /** The job queue (queue depth and age for the metrics: `jobs.depth()`). */
  jobs: JobQueue;
  /** Readiness fails from now on (draining before close). */
  drain(): void;
  close(): Promise<void>;
}

/**
 * The background work as gauges read at each scrape (docs/operations.md): the job queue's queues
 * (mail, PCAP analyses, the retention sweep, webhook deliveries and digests: ready jobs and the
 * oldest one's wait), and the events waiting for a digest mail.
 */
function registerQueueGauges(db: Db, jobs: JobQueue) {
  const obs = observe("platform");
  const backlog = async () => {
    const rows = await execRows<{ queue: string; depth: number; age: number | null }>(
      db,
      sql`select 'ops_mail' as queue, count(*)::int as depth, extract(epoch from now() - min(created_at))::float8 as age from ops_mail where sent_at is null`,
    );
    return rows;
  };
  obs.registerGauge("linkwise.queue.depth", "Jobs waiting, by queue", async () => [
    ...(await backlog()).map((r) => ({ value: Number(r.depth), attributes: { queue: r.queue } })),
    ...(await jobs.depth()).map((q) => ({ value: q.ready, attributes: { queue: q.queue } })),
  ]);
  obs.registerGauge(
    "linkwise.queue.oldest_age",
    "Wait of the oldest job due, by queue",
    async () => [
      ...(await backlog()).map((r) => ({ value: Math.max(0, Number(r.age ?? 0)), attributes: { queue: r.queue } })),
      ...(await jobs.depth()).map((q) => ({ value: q.oldestReadySeconds, attributes: { queue: q.queue } })),
    ],
    "s",
  );
}

export async function createPlatform(config: PlatformConfig = configFromEnv()): Promise<Platform> {
  const dbKind = config.databaseUrl ? "postgres" : "pglite";
  // The demo seed sends no e-mail: the job queue (which mail goes through) opens on the migrated
  // database, after it.
  const seedMailer: Mailer = {
    send: async () => {
      throw new Error("the demo seed sends no e-mail");
    },
  };
  // The demo seed runs with the migrations, under the start-up lock of a shared PostgreSQL
  // (db/client.ts): of instances started together, one seeds and the others find the account.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, "pglite"),
    // In one transaction: an instance killed half-way through leaves no half-made demo account
    // that the next one would take for done.
    // why: a transaction offers the whole query interface of Db (drizzle's PgTransaction extends
    // PgDatabase); nested transactions in the seed become savepoints.
    setUp: config.seedDemo ? (db) => db.transaction((tx) => seedDemo({ db: tx as unknown as typeof db, dbKind, mailer: seedMailer, config })) : undefined,
  });
  // Background work (mail, PCAP analyses, the retention sweep) on the job queue in the same database.
  const jobs = await openJobQueue({ database, databaseUrl: config.databaseUrl });
  const transport = createTransport({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, "outbox"),
    from: `${config.productName} <no-reply@${config.productName.toLowerCase().replace(/[^a-z0-9]/g, "") || "console"}.example>`,
  });
  const mailer = queueMailer(jobs);
  const deps: PlatformDeps = { db: database.db, dbKind: database.kind, mailer, config, jobs };
  // Other instances of a scaled deployment may have remembered reads from before the seed.
  if (config.seedDemo) await forgetCachedReads(deps);
  // The events the clock's changes make link to the console (before the clock's first tick).
  linkOpsEventsTo(config.consoleUrl);
  // The clock writes op states outside any HTTP call: cached reads must not outlive them.
  deps.fleet = await startFleet({ db: database.db, databaseUrl: config.databaseUrl, seed: config.fleetSeed, tickMs: config.fleetTick, onChange: (accountIds) => forgetCachedReads(deps, accountIds) });
  const app = createPlatformApp(deps);
  await workMailQueue(jobs, database.db, transport);
  await workRetentionSweep(jobs, deps, config.pcapRetentionDays);
  await workPcapAnalyses(jobs, deps, pcapEngine);
  await workReports(jobs, deps);
  const stopDelivering = await workWebhookDeliveries(jobs, { db: database.db, mailer, config });
  registerQueueGauges(database.db, jobs);
  return {
    app,
    deps,
    fetch: async (request) => app.fetch(request),
    jobs,
    drain: () => {
      deps.draining = true;
    },
    close: async () => {
      deps.draining = true;
      await jobs.stop();
      stopDelivering();
      // An analysis still running past the queue's graceful stop: its job is given to another instance.
      await pcapQueue().close();
      transport.close();
      await deps.fleet?.close();
      await database.close();
    },
  };
}

// One platform per process: the console calls it in-process when API_URL is unset.
const globalKey = Symbol.for("linkwise.platform");
type GlobalWithPlatform = typeof globalThis & { [globalKey]?: Promise<Platform> };

export function getPlatform(): Promise<Platform> {
  const g = globalThis as GlobalWithPlatform;
  g[globalKey] ??= createPlatform().catch((err) => {
    delete g[globalKey];
    throw err;
  });
  return g[globalKey]!;
}
