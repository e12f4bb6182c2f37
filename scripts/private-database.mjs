// A private database for one test run on a PostgreSQL server: created empty, named
// `<prefix>_<pid>_<time>` so that concurrent runs never share one, dropped (WITH FORCE: a run's
// server may still hold connections) when the run ends. Used by the platform tests' PostgreSQL run
// (platform/test/global-setup.ts) and the end-to-end server (scripts/test.mjs).
//
// A run stopped before it could drop its database (Ctrl-C under spawnSync, a killed CI job) leaves
// it behind; each new run drops those of its prefix that are older than ABANDONED_MS, read from the
// time in their name. No run lasts that long (CI stops one after 90 minutes).
import pg from "pg";

/** Whether the PostgreSQL server of `serverUrl` answers (within 3 s). */
export async function serverReachable(serverUrl) {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A private database older than this is an interrupted run's, and is dropped. */
export const ABANDONED_MS = 6 * 60 * 60 * 1000;

/** Runs one statement on the server of `url` (CREATE and DROP DATABASE cannot run in a transaction). */
async function admin(url, statement) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** When the database `name` of `prefix` was made (ms since the epoch), or null for a name not of that form. */
export function madeAt(name, prefix) {
  const m = new RegExp(`^${prefix}_\\d+_([a-z0-9]+)_[a-z0-9]+$`).exec(name);
  if (!m) return null;
  const at = parseInt(m[1], 36);
  return Number.isSafeInteger(at) ? at : null;
}

/**
 * Drops the databases of `prefix` made more than `olderThanMs` ago (interrupted runs'); answers
 * their names. A database that another drop or a connection holds is left for the next run.
 */
export async function dropAbandoned(serverUrl, prefix, olderThanMs = ABANDONED_MS, now = Date.now()) {
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`);
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  let names;
  try {
    names = (await client.query("select datname from pg_database where datname like $1", [`${prefix}\\_%`])).rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
  const dropped = [];
  for (const name of names) {
    const at = madeAt(name, prefix);
    if (at === null || now - at <= olderThanMs) continue;
    try {
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      dropped.push(name);
    } catch {
      // Dropped by a run beside this one, or refused: the next run tries again.
    }
  }
  return dropped;
}

/** Creates the database on the server of `serverUrl`; its name, its URL and `drop()`. Throws when it cannot. */
export async function createPrivateDatabase(serverUrl, prefix) {
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`);
  await dropAbandoned(serverUrl, prefix).catch(() => {});
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
