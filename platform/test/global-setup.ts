import pg from "pg";

/** For the PostgreSQL run: start from an empty schema; each test file then migrates (idempotent). */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;");
  await client.end();
  const { openDatabase } = await import("../db/client.ts");
  const database = await openDatabase({ databaseUrl: url });
  await database.close();
}
