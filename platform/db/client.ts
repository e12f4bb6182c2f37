import path from "node:path";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema.ts";

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
 * Opens PostgreSQL when a URL is given, else PGlite: in `dataDir` when given, in memory otherwise.
 * The same migrations and the same SQL run on both.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    // why: node-postgres' and PGlite's drizzle databases differ only in their query-result type;
    // the domain reads results through Db's common interface (and execRows).
    return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
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
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: migrationsFolder() });
  // why: as above, PGlite's drizzle database seen through the common Db interface.
  return { db: db as unknown as Db, kind: "pglite", pglite: client, close: () => client.close() };
}
