import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alwaysOnPostgres, databaseTestFiles, usesTestDatabase, vitestFiles } from "./database-tests.mjs";

/*
 * The PostgreSQL run of `npm test` takes only the test files that use the database by its rule
 * (scripts/database-tests.mjs: they import the test harness or read the test database's URL
 * variable). A test file that opens a database some other way would run on PGlite only, and nobody
 * would know: refused here, unless it is below with the reason PostgreSQL would change nothing for it.
 */

/** The modules that open a database, and the drivers. */
const openers = ["platform/db/client.ts", "platform/index.ts", "platform/app.ts", "platform/thread/host.ts", "platform/jobs/queue.ts", "@electric-sql/pglite", "pg"];

/** Whether a test file (its path and text) imports a module that opens a database. */
const reachesDatabase = (file: string, text: string) =>
  [...text.matchAll(/(?:from|import\()\s*"([^"]+)"/g)].some(([, spec]) => {
    const resolved = spec!.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec!).replace(/(\.ts)?$/, ".ts") : spec!;
    return openers.includes(resolved);
  });

/** Test files that reach a database of their own by design, where PostgreSQL would test nothing more. */
const ownDatabase: Record<string, string> = {
  // The platform thread's start on its own PGlite directory (DATABASE_URL removed): the embedded set-up.
  "platform/thread/host.test.ts": "the platform thread on its own PGlite directory",
};

// The rule's words spelt in pieces, so that this file does not itself match the rule.
const HARNESS = "test/" + "harness.ts";
const URL_VAR = "TEST_" + "DATABASE_URL";

describe("the PostgreSQL run's files (scripts/database-tests.mjs)", () => {
  it("takes every test file that reaches a database, through the harness or its own URL variable", () => {
    const escaping = vitestFiles()
      // (This file's examples below name the openers.)
      .filter((file) => file !== "scripts/database-tests.test.ts")
      .filter((file) => {
        const text = fs.readFileSync(file, "utf8");
        return reachesDatabase(file, text) && !usesTestDatabase(text) && !alwaysOnPostgres(text);
      })
      .filter((file) => !(file in ownDatabase));
    expect(escaping).toEqual([]);
    // The exceptions still reach a database of their own (else they belong off the list).
    for (const file of Object.keys(ownDatabase)) expect(reachesDatabase(file, fs.readFileSync(file, "utf8")), file).toBe(true);
  });

  it("would catch a file reaching the database without the harness, and take one with it", () => {
    const own = `import { openDatabase } from "../db/client.ts";\nconst db = await openDatabase({});`;
    expect(reachesDatabase("platform/lib/x.test.ts", own) && !usesTestDatabase(own)).toBe(true);
    expect(reachesDatabase("app/lib/x.test.ts", `const { createPlatform } = await import("../../platform/index.ts");`)).toBe(true);
    expect(reachesDatabase("platform/pcap/x.test.ts", `import { PGlite } from "@electric-sql/pglite";`)).toBe(true);
    expect(reachesDatabase("platform/pcap/x.test.ts", `import { AnalysisQueue } from "./queue.ts";`)).toBe(false);
    expect(usesTestDatabase(`import { testPlatform } from "../${HARNESS}";`)).toBe(true);
    expect(usesTestDatabase(`const { testPlatform } = await import("../../platform/${HARNESS}");`)).toBe(true);
    expect(usesTestDatabase(`openDatabase({ databaseUrl: process.env.${URL_VAR} });`)).toBe(true);
    expect(usesTestDatabase(`import { malformedPayloads } from "../test/malformed.ts";`)).toBe(false);
    // On PostgreSQL in the PGlite run already: nothing to run again.
    const always = `const server = process.env.${URL_VAR} ?? "postgres://root@127.0.0.1:5432/test";`;
    expect(usesTestDatabase(always)).toBe(false);
    expect(alwaysOnPostgres(always)).toBe(true);
  });

  it("is the harness's database: the harness opens the test database's URL", () => {
    expect(fs.readFileSync(`platform/${HARNESS}`, "utf8")).toContain(`openDatabase({ databaseUrl: process.env.${URL_VAR}`);
  });

  it("is what scripts/test.mjs runs on PostgreSQL, a part of the PGlite run's files", () => {
    const files = databaseTestFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.length).toBeLessThan(vitestFiles().length);
    expect(fs.readFileSync("scripts/test.mjs", "utf8")).toMatch(/const onDatabase = databaseTestFiles\(\);[\s\S]*"vitest", "run", \.\.\.onDatabase/);
  });
});
