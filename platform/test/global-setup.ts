import { createPrivateDatabase } from "../../scripts/private-database.mjs";

/**
 * For the PostgreSQL run: a private, freshly migrated database per test run (created on the
 * server of TEST_DATABASE_URL, dropped afterwards), so that concurrent runs never collide.
 * The workers inherit the rewritten TEST_DATABASE_URL.
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const database = await createPrivateDatabase(url, "linkwise_test");
  process.env.TEST_DATABASE_URL = database.url;
  const { openDatabase } = await import("../db/client.ts");
  const opened = await openDatabase({ databaseUrl: database.url });
  await opened.close();

  return () => database.drop();
}
