import path from "node:path";
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema.ts";
import { observe } from "../../server/observe.mjs";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A database handle or a transaction: domain functions accept both. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The Postgres error (SQLSTATE code, constraint) of a failed query, through drizzle's wrappers (`cause`). */
export function pgError(err: unknown): { code: string; constraint: string } | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, constraint, cause } = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: typeof constraint === "string" ? constraint : "" };
    e = cause;
  }
  return undefined;
}

/** The SQLSTATE code of a failed query ('23505': unique, '23503': foreign key). */
export const pgErrorCode = (err: unknown): string | undefined => pgError(err)?.code;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The PGlite instance itself (embedded default only): the job queue talks to it through pg-boss's own adapter. */
  pglite?: import("@electric-sql/pglite").PGlite;
  close(): Promise<void>;
}

/** What readiness reports of the database: reachable, and every committed migration applied. */
export interface DatabaseReadiness {
  ok: boolean;
  database: "ok" | string;
  migrations: "current" | string;
}

/**
 * Reachable within `timeoutMs`, and as many migrations applied (drizzle's own table) as the
 * committed journal lists: an instance of older code on a newer schema, or the reverse, is not ready.
 */
export async function databaseReadiness(db: Db, timeoutMs = 2_000): Promise<DatabaseReadiness> {
  const expected = (JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const rows = await Promise.race([readRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`), timeout]);
    const applied = Number(rows[0]?.n ?? 0);
    const current = applied === expected;
    return { ok: current, database: "ok", migrations: current ? "current" : `${applied} of ${expected} applied` };
  } catch (error) {
    return { ok: false, database: `unreachable: ${(error as Error).message}`, migrations: "unknown" };
  } finally {
    clearTimeout(timer);
  }
}

/** Rows of a raw statement on either driver (node-postgres answers { rows }, PGlite the same). */
async function readRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Where the committed drizzle-kit migrations are, in the source tree and after a Vite build. */
export function migrationsFolder(): string {
  const candidates = [
    path.resolve(process.cwd(), "platform/db/migrations"),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "migrations"),
  ];
  const found = candidates.find((p) => fs.existsSync(path.join(p, "meta/_journal.json")));
  if (!found) throw new Error(`migrations not found in ${candidates.join(", ")}`);
  return found;
}

/**
 * The key of the session advisory lock under which an instance migrates its PostgreSQL database
 * and runs its start-up set-up (the demo seed). Any constant works as long as no other lock of the
 * product uses it: the fleet clock's and the per-account locks are hashtext() of their names.
 */
export const STARTUP_LOCK_KEY = 7_242_026_001;

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /**
   * Runs once the migrations are current, still under the start-up lock (the demo seed): on a
   * shared PostgreSQL only one instance at a time migrates and sets up; the others wait, then find
   * the work done.
   */
  setUp?: (db: Db) => Promise<void>;
  /**
   * How long an instance waits for another's migrations and set-up before it gives up and exits
   * (default 10 minutes): a migrating instance that hangs without dying (its session kept open)
   * must not leave every later instance waiting for ever, unready and silent.
   */
  startupLockTimeoutMs?: number;
}

/** The error an instance stops with when the start-up lock stays held past its timeout. */
export class StartupLockTimeoutError extends Error {}

/**
 * Takes the start-up lock on `session`: at once when it is free, else after saying in the log that
 * another instance holds it, waiting at most `timeoutMs` (PostgreSQL's lock_timeout bounds the wait
 * of pg_advisory_lock; 55P03 when it ends).
 */
export async function takeStartupLock(session: { query: (sql: string, values?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }> }, timeoutMs: number): Promise<void> {
  const now = await session.query("select pg_try_advisory_lock($1) as taken", [STARTUP_LOCK_KEY]);
  if (now.rows[0]?.taken === true) return;
  const log = observe("platform").logger;
  log.info({ timeoutMs }, "another instance is migrating the database: waiting for it");
  await session.query(`set lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
  try {
    await session.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
  } catch (err) {
    // why: node-postgres errors carry the SQLSTATE in `code`, which its Error type does not declare
    if ((err as { code?: string }).code === "55P03") {
      throw new StartupLockTimeoutError(
        `another instance has held the start-up lock (migrations, demo seed) for more than ${Math.round(timeoutMs / 1000)} s: see its log; ` +
          `pg_locks shows it (locktype advisory, objid ${STARTUP_LOCK_KEY % 2 ** 32})`,
      );
    }
    throw err;
  } finally {
    await session.query("reset lock_timeout").catch(() => {});
  }
  log.info("the start-up lock is ours: the migrations are checked");
}

/**
 * Opens PostgreSQL when a URL is given, else PGlite: in `dataDir` when given, in memory otherwise.
 * The same migrations and the same SQL run on both.
 *
 * On PostgreSQL the migrations and `setUp` run under a session advisory lock held on a connection
 * of its own: instances started at the same moment on an empty database used to race in drizzle's
 * migrator (`23505 duplicate key` in pg_type, 3 of 4 crashed) and in the demo seed
 * (`accounts_domain_uq`). The lock ends with its session, so an instance killed while migrating
 * lets the next one take over (PostgreSQL rolls back its transaction).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // Loaded with require(), not import(): OpenTelemetry's pg instrumentation (server/observe.mjs)
    // hooks require() to trace its queries.
    const pg = createRequire(import.meta.url)("pg") as typeof import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL closes (a restart, a failover) is an 'error' event of the
    // pool: without a listener Node would throw it as an uncaught exception and the process would
    // exit. The pool replaces it; readiness (databaseReadiness) says whether the database answers.
    pool.on("error", (error) => observe("platform").logger.warn({ err: error }, "a database connection was lost"));
    // why: node-postgres' and PGlite's drizzle databases differ only in their query-result type;
    // the domain reads results through Db's common interface (and execRows).
    const db = drizzle(pool, { schema }) as unknown as Db;
    try {
      const lock = await pool.connect();
      try {
        await takeStartupLock(lock, opts.startupLockTimeoutMs ?? 600_000);
        try {
          await migrate(drizzle(pool, { schema }), { migrationsFolder: migrationsFolder() });
          await opts.setUp?.(db);
        } finally {
          await lock.query("select pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]);
        }
      } finally {
        lock.release();
      }
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return { db, kind: "postgres", close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let client: InstanceType<typeof PGlite>;
  if (opts.dataDir) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    client = new PGlite(opts.dataDir);
  } else {
    client = new PGlite();
  }
  const pgliteDb = drizzle(client, { schema });
  await migrate(pgliteDb, { migrationsFolder: migrationsFolder() });
  // why: as above, PGlite's drizzle database seen through the common Db interface.
  const db = pgliteDb as unknown as Db;
  await opts.setUp?.(db);
  return { db, kind: "pglite", pglite: client, close: () => client.close() };
}
