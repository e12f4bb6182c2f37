import pg from "pg";

/**
 * For the PostgreSQL run: a private, freshly migrated database per test run (created on the
 * server of TEST_DATABASE_URL, dropped afterwards), so that concurrent runs never collide.
 * The workers inherit the rewritten TEST_DATABASE_URL.
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const name = `linkwise_test_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const privateUrl = new URL(url);
  privateUrl.pathname = `/${name}`;
  process.env.TEST_DATABASE_URL = privateUrl.toString();
  const { openDatabase } = await import("../db/client.ts");
  const database = await openDatabase({ databaseUrl: privateUrl.toString() });
  await database.close();

  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
