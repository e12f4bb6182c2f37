// Which vitest files `npm test` runs a second time on PostgreSQL (scripts/test.mjs).
//
// The rule: a test file uses the database when it imports the test harness
// (platform/test/harness.ts, whose shared platform opens TEST_DATABASE_URL when it is set, PGlite
// otherwise) or reads TEST_DATABASE_URL itself to choose its database. Only those files run again
// on PostgreSQL: the others (the capture decoders and their tshark agreement, config parsing, PDF
// layout, the console's components) would run the same code again for nothing, and so would a file
// on PostgreSQL in both runs (`TEST_DATABASE_URL ?? "postgres://…"`: scripts/private-database.test.ts,
// the image test). A file that reaches a database some other
// way (its own PGlite or pg client, createPlatform, the platform thread) would escape the rule:
// scripts/database-tests.test.ts refuses one.
import fs from "node:fs";

/** The vitest files of the PGlite run (vitest.config.ts's shared and mocking projects; the image project is not rerun). */
export const vitestFiles = (cwd = ".") => fs.globSync("{platform,app,scripts,server}/**/*.test.{ts,tsx}", { cwd }).sort();

/** Whether a test file is on PostgreSQL in the PGlite run too (a PostgreSQL server by default). */
export const alwaysOnPostgres = (text) => /TEST_DATABASE_URL \?\? "postgres:/.test(text);

/** Whether a test file's text uses the database by the rule above. */
export const usesTestDatabase = (text) => /\/test\/harness(\.ts)?["']/.test(text) || (/TEST_DATABASE_URL/.test(text) && !alwaysOnPostgres(text));

/** The files the PostgreSQL run takes. */
export const databaseTestFiles = (cwd = ".") => vitestFiles(cwd).filter((file) => usesTestDatabase(fs.readFileSync(`${cwd}/${file}`, "utf8")));
