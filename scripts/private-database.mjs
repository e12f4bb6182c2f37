// A private database for one test run on a PostgreSQL server: created empty, named
// `<prefix>_<pid>_<time>` so that concurrent runs never share one, dropped (WITH FORCE: a run's
// server may still hold connections) when the run ends. Used by the platform tests' PostgreSQL run
// (platform/test/global-setup.ts) and the end-to-end server (scripts/test.mjs).
import pg from "pg";

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

/** Creates the database on the server of `serverUrl`; its name, its URL and `drop()`. Throws when it cannot. */
export async function createPrivateDatabase(serverUrl, prefix) {
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`);
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
