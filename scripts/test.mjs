// `npm test`: every test. Unit and platform tests on PGlite, the platform tests again on
// PostgreSQL, then the end-to-end tests (JavaScript on and off) in Chromium.
// Ends with one line "N passed, N failed" summing all runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const out = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRuns = [];

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (res.status !== 0) failedRuns.push(name);
  return res.status ?? 1;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
}

async function postgresUrl() {
  const url = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch (error) {
    console.log(`PostgreSQL not reachable at ${url}: ${error.message}`);
    return null;
  }
}

const only = process.argv[2]; // "unit" | "e2e" | undefined (all)

if (!only || only === "unit") {
  const pgliteReport = path.join(out, "vitest-pglite.json");
  run("unit + platform (PGlite)", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${pgliteReport}`]);
  countVitest(pgliteReport);

  const url = await postgresUrl();
  if (url) {
    const pgReport = path.join(out, "vitest-postgres.json");
    run("platform (PostgreSQL)", "npx", ["vitest", "run", "platform", "--reporter=default", "--reporter=json", `--outputFile.json=${pgReport}`], {
      TEST_DATABASE_URL: url,
    });
    countVitest(pgReport);
  } else if (process.env.CI) {
    console.log("CI needs PostgreSQL for the platform tests.");
    failedRuns.push("platform (PostgreSQL): not reachable");
    totals.failed += 1;
  }
}

if (!only || only === "e2e") {
  const e2eReport = path.join(out, "playwright.json");
  run("end-to-end (Chromium, JS on and off)", "npx", ["playwright", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
  });
  countPlaywright(e2eReport);
}

console.log("");
if (failedRuns.length) console.log(`Failed runs: ${failedRuns.join("; ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns.length || totals.failed ? 1 : 0);
