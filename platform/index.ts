import path from "node:path";
import { sql } from "drizzle-orm";
import { observe } from "../server/observe.mjs";
import { createPlatformApp, type PlatformApp } from "./app.ts";
import { openDatabase } from "./db/client.ts";
import { configFromEnv, type PlatformConfig } from "./lib/config.ts";
import type { PlatformDeps } from "./lib/context.ts";
import { createMailer } from "./mail/mailer.ts";
import { startRetentionSweep } from "./domain/pcap-retention.ts";
import { seedDemo } from "./seed.ts";
import { startFleet } from "./fleet/runtime.ts";
import { forgetCachedReads } from "./lib/auth.ts";
import { linkOpsEventsTo } from "./webhooks/events.ts";
import { createDeliveryWorker } from "./webhooks/worker.ts";
import { execRows } from "./lib/list.ts";
import { pcapQueue } from "./pcap/queue.ts";
import type { Db } from "./db/client.ts";

export interface Platform {
  app: PlatformApp;
  deps: PlatformDeps;
  fetch: (request: Request) => Promise<Response>;
  /** Readiness fails from now on (draining before close). */
  drain(): void;
  close(): Promise<void>;
}

/**
 * The background work that exists today, as gauges read at each scrape (docs/operations.md):
 * webhook deliveries due and the oldest one's wait, digest mails waiting, PCAP analyses queued in
 * this process. The job queue, when it comes, registers its own with observe().registerGauge.
 */
function registerQueueGauges(db: Db) {
  const obs = observe("platform");
  const backlog = async () => {
    const rows = await execRows<{ queue: string; depth: number; age: number | null }>(
      db,
      sql`select 'webhook_deliveries' as queue, count(*)::int as depth, extract(epoch from now() - min(next_attempt_at))::float8 as age
            from ops_deliveries where status = 'pending' and next_attempt_at <= now()
          union all
          select 'ops_mail', count(*)::int, extract(epoch from now() - min(created_at))::float8 from ops_mail where sent_at is null`,
    );
    return rows;
  };
  obs.registerGauge("linkwise.queue.depth", "Jobs waiting, by queue", async () => [
    ...(await backlog()).map((r) => ({ value: Number(r.depth), attributes: { queue: r.queue } })),
    { value: pcapQueue().waiting, attributes: { queue: "pcap_analyses" } },
  ]);
  obs.registerGauge(
    "linkwise.queue.oldest_age",
    "Wait of the oldest job due, by queue",
    async () => (await backlog()).map((r) => ({ value: Math.max(0, Number(r.age ?? 0)), attributes: { queue: r.queue } })),
    "s",
  );
}

export async function createPlatform(config: PlatformConfig = configFromEnv()): Promise<Platform> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, "pglite"),
  });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, "outbox"),
    from: `${config.productName} <no-reply@${config.productName.toLowerCase().replace(/[^a-z0-9]/g, "") || "console"}.example>`,
  });
  const deps: PlatformDeps = { db: database.db, dbKind: database.kind, mailer, config };
  if (config.seedDemo) {
    await seedDemo(deps);
    // Other instances of a scaled deployment may have remembered reads from before the seed.
    await forgetCachedReads(deps);
  }
  // The events the clock's changes make link to the console (before the clock's first tick).
  linkOpsEventsTo(config.consoleUrl);
  // The clock writes op states outside any HTTP call: cached reads must not outlive them.
  deps.fleet = await startFleet({ db: database.db, databaseUrl: config.databaseUrl, seed: config.fleetSeed, tickMs: config.fleetTick, onChange: (accountIds) => forgetCachedReads(deps, accountIds) });
  const app = createPlatformApp(deps);
  const stopSweep = startRetentionSweep(deps, config.pcapRetentionDays);
  const deliveries = createDeliveryWorker({ db: database.db, mailer, config, databaseUrl: config.databaseUrl, bus: deps.fleet.bus });
  deliveries.start();
  registerQueueGauges(database.db);
  return {
    app,
    deps,
    fetch: async (request) => app.fetch(request),
    drain: () => {
      deps.draining = true;
    },
    close: async () => {
      deps.draining = true;
      stopSweep();
      await deliveries.stop();
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
