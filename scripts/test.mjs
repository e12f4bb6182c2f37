// `npm test`: every test. Unit and platform tests on PGlite, the tests that use the database again on
// PostgreSQL, then the end-to-end tests (JavaScript on and off) in Chromium.
// Prints how long each run took, and ends with one line "N passed, N failed, N skipped" summing
// all runs. `npm test -- unit` / `npm test -- e2e` (or npm run test:unit / test:e2e) run one part;
// `npm test -- scaled` the scaled run alone (three platforms and two consoles on PostgreSQL,
// instances killed: tests/scaled/, playwright.scaled.config.ts).
//
// The test runs go one after another, except what goes side by side: the type checker, the linter
// (each single-threaded) and the end-to-end build, and the platform run on PostgreSQL with the
// scaled run (which mostly waits). On a 2-core machine the end-to-end run (2 Playwright workers, the console's server,
// Chromium) already uses every core: a concurrent run would only stretch both and push the
// end-to-end tests towards their time limits.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { findChromium, NO_CHROMIUM } from "./chromium.mjs";
import { createPrivateDatabase } from "./private-database.mjs";
import { databaseTestFiles, vitestFiles } from "./database-tests.mjs";

// The runtime the suite is for (docs/decisions/2026-12-03-node-24.md): the major of the `node` dev
// dependency, which npm scripts find first on their PATH whatever node the machine has.
const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const runtimeMajor = Number(/\d+/.exec(pkg.devDependencies.node)?.[0]);
console.log(`Node ${process.version} (${process.execPath})`);
if (Number(process.versions.node.split(".")[0]) !== runtimeMajor) {
  console.log(`The suite runs on Node ${runtimeMajor}, not ${process.version}: start it with npm test (npm install first), which puts the node package's Node ${runtimeMajor} first on the PATH.`);
  console.log("0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedRuns = [];
/** The failed tests by name, printed again at the very end. */
const failedNames = [];
const timings = [];
const started = Date.now();

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms) => {
  const s = Math.round(ms / 1000); // rounded once, so 659.6 s reads "11 min 0 s", not "10 min 60 s"
  return `${Math.floor(s / 60)} min ${s % 60} s`;
};

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const t0 = Date.now();
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const ms = Date.now() - t0;
  timings.push([name, ms]);
  console.log(`=== ${name}: ${res.status === 0 ? "ok" : "failed"} in ${seconds(ms)}`);
  if (res.status !== 0) failedRuns.push(name);
  return res.status ?? 1;
}

/**
 * Runs single-threaded commands side by side (the type checker and the linter each use one core
 * of two), each one's output printed whole when it ends, in the given order. The exit codes.
 */
async function runSideBySide(list) {
  const runs = list.map(([name, cmd, args, env = {}]) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    const out = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => out.push(d));
    const done = new Promise((resolve) => {
      child.on("error", (error) => {
        out.push(Buffer.from(`${error.message}\n`));
        resolve({ code: 1, ms: Date.now() - t0 });
      });
      child.on("close", (code) => resolve({ code: code ?? 1, ms: Date.now() - t0 }));
    });
    return { name, cmd, args, out, done };
  });
  const codes = [];
  for (const r of runs) {
    const { code, ms } = await r.done;
    console.log(`\n=== ${r.name}: ${r.cmd} ${r.args.join(" ")}`);
    process.stdout.write(Buffer.concat(r.out));
    timings.push([r.name, ms]);
    console.log(`=== ${r.name}: ${code === 0 ? "ok" : "failed"} in ${seconds(ms)}`);
    if (code !== 0) failedRuns.push(r.name);
    codes.push(code);
  }
  return codes;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that fails before its tests run (an import error) has no failed test of its own: count
  // it as one, so the closing line never says "0 failed" for a failed run.
  for (const file of r.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    if (file.status === "failed" && failedTests.length === 0) {
      totals.failed += 1;
      failedNames.push(`${path.relative(process.cwd(), file.name)}: ${(file.message ?? "failed before its tests").split("\n")[0]}`);
    }
    for (const t of failedTests) failedNames.push(`${path.relative(process.cwd(), file.name)} › ${t.fullName ?? t.title}`);
  }
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  // Errors outside any test (a web server that did not start, a broken config) fail the run.
  totals.failed += (r.errors ?? []).length;
  for (const e of r.errors ?? []) failedNames.push(`${path.basename(file)}: ${String(e.message ?? "").split("\n")[0]}`);
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected") failedNames.push(`[${t.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of r.suites ?? []) walk(suite, []);
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

/** A private database for the end-to-end server (scripts/private-database.mjs), or null: PGlite then. */
async function e2eServerDatabase() {
  const url = await postgresUrl();
  if (!url) return null;
  try {
    return await createPrivateDatabase(url, "linkwise_e2e");
  } catch (error) {
    console.log(`Could not create a database on ${url} (${error.message}): the end-to-end server uses PGlite.`);
    return null;
  }
}

/** Whether Playwright's browser download host answers (so `playwright install` can work). */
async function downloadHostReachable() {
  const host = process.env.PLAYWRIGHT_DOWNLOAD_HOST ?? "https://cdn.playwright.dev";
  try {
    await fetch(host, { method: "HEAD", signal: AbortSignal.timeout(4000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * A Chromium for the end-to-end run, found before anything else runs: CHROMIUM_PATH, a system
 * Chromium, Playwright's own download, or (where the internet allows) that download made now.
 */
async function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (!process.env.CHROMIUM_PATH && (await downloadHostReachable())) {
    console.log("No Chromium found: trying `npx playwright install chromium`…");
    const t0 = Date.now();
    spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
    timings.push(["install Chromium", Date.now() - t0]);
    return findChromium();
  }
  return undefined;
}

const only = process.argv[2]; // "unit" | "e2e" | "scaled" | "static" | undefined (all)

// The type checker and the linter first: types and lint are checks, not advice. A failure stops the
// run here, before minutes of tests (each counts as one failed test in the closing line).
if (!only || only === "unit" || only === "static") {
  // Side by side: each is single-threaded, so on two cores both take about as long as the slower.
  // The build for the end-to-end run goes beside them (it waits on its disk and its own threads
  // more than on a core; alone, it added its whole time to the run's).
  const codes = await runSideBySide([
    ["type check", "npm", ["run", "-s", "typecheck"]],
    ["lint", "npx", ["eslint", "--max-warnings=0", "."]],
    ...(only ? [] : [["build the console and the platform", "node", ["scripts/ensure-build.mjs"]]]),
  ]);
  totals.failed += codes.filter((code) => code !== 0).length;
  if (failedRuns.length || only === "static") {
    console.log(`\n${failedRuns.length ? `Failed runs: ${failedRuns.join("; ")}\n` : ""}0 passed, ${totals.failed} failed, 0 skipped`);
    process.exit(failedRuns.length ? 1 : 0);
  }
}

// Fail fast, before minutes of other tests, when the end-to-end run could not start.
if (!only || only === "e2e" || only === "scaled") {
  const chromium = await ensureChromium();
  if (!chromium) {
    console.log(NO_CHROMIUM);
    console.log("0 passed, 1 failed, 0 skipped");
    process.exit(1);
  }
  console.log(`Chromium: ${chromium.path}`);
}

if (!only || only === "unit") {
  const pgliteReport = path.join(out, "vitest-pglite.json");
  run("unit + platform (PGlite)", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${pgliteReport}`]);
  countVitest(pgliteReport);
}

// The platform tests on PostgreSQL and the scaled run side by side: the scaled run mostly waits
// (instances starting, leases and heartbeats running out after a kill: ~20 % of one core over its
// minutes), so beside the CPU-bound platform run it costs little wall time of its own.
if (!only || only === "unit" || only === "scaled") {
  const url = await postgresUrl();
  const side = [];
  const reports = [];
  if (!only || only === "unit") {
    if (url) {
      const pgReport = path.join(out, "vitest-postgres.json");
      // The rule (scripts/database-tests.mjs): only the files that use the database, those that
      // import the test harness (platform/test/harness.ts, on TEST_DATABASE_URL here) or read
      // TEST_DATABASE_URL themselves, in any folder of the run. The others would run the same code
      // again for nothing. scripts/database-tests.test.ts refuses a test file that reaches a
      // database some other way (and so would escape this run).
      const all = vitestFiles();
      const onDatabase = databaseTestFiles();
      console.log(`\nThe platform run on PostgreSQL: ${onDatabase.length} of ${all.length} test files (those that use the database).`);
      side.push(["platform (PostgreSQL)", "npx", ["vitest", "run", ...onDatabase, "--reporter=default", "--reporter=json", `--outputFile.json=${pgReport}`], { TEST_DATABASE_URL: url }]);
      reports.push(() => countVitest(pgReport));
    } else if (process.env.CI) {
      console.log("CI needs PostgreSQL for the platform tests.");
      failedRuns.push("platform (PostgreSQL): not reachable");
      totals.failed += 1;
    }
  }
  if (!only || only === "scaled") {
    // The deployment as the provider runs it (issue 62): its own Playwright config, one worker, hard
    // time limits; it makes and drops its private database and kills every process it started.
    if (url) {
      const scaledReport = path.join(out, "playwright-scaled.json");
      side.push(["scaled run (PostgreSQL)", "npx", ["playwright", "test", "-c", "playwright.scaled.config.ts", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: scaledReport, SCALED_DATABASE_URL: url }]);
      reports.push(() => countPlaywright(scaledReport));
    } else if (process.env.CI) {
      console.log("CI needs PostgreSQL for the scaled run.");
      failedRuns.push("scaled run (PostgreSQL): not reachable");
      totals.failed += 1;
    } else {
      console.log("\n=== scaled run (PostgreSQL): skipped, PostgreSQL is not reachable (it needs one database server for its instances)");
      totals.skipped += 1;
    }
  }
  const t0 = Date.now();
  if (side.length) await runSideBySide(side);
  if (side.length > 1) timings.push(["  (both, side by side)", Date.now() - t0]);
  for (const count of reports) count();
}

if (!only || only === "e2e") {
  // Built here rather than inside Playwright's web server start, so that it is timed on its own
  // and a slow build does not eat the server's start-up limit (in the whole run, beside the type
  // check and lint above: this finds it done).
  if (only) run("build the console and the platform", "node", ["scripts/ensure-build.mjs"]);
  const e2eReport = path.join(out, "playwright.json");
  // The end-to-end server on a private PostgreSQL database when one answers (the production set-up,
  // and cheaper in CPU than PGlite on the server's thread: scripts/e2e-server.mjs), else on PGlite.
  const e2eDatabase = await e2eServerDatabase();
  if (e2eDatabase) console.log(`End-to-end server on PostgreSQL: ${e2eDatabase.name}`);
  try {
    run("end-to-end (Chromium, JS on and off)", "npx", ["playwright", "test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
      ...(e2eDatabase ? { E2E_DATABASE_URL: e2eDatabase.url } : {}),
    });
  } finally {
    await e2eDatabase?.drop().catch((error) => console.log(`Could not drop ${e2eDatabase.name}: ${error.message}`));
  }
  countPlaywright(e2eReport);
  if (!process.env.E2E_PENDING) {
    // Said every time, so that nobody takes the pending specs for passing ones (playwright.config.ts).
    const config = fs.readFileSync("playwright.config.ts", "utf8");
    const pending = /pendingSpecs(?::[^=]*)? = \[([^\]]*)\]/.exec(config)?.[1]?.replace(/"/g, "").trim();
    if (pending) console.log(`\nNot run (screens in progress, E2E_PENDING=1 runs them): ${pending}`);
  }
}

console.log("\nTimes:");
for (const [name, ms] of timings) console.log(`  ${name.padEnd(40)} ${minutes(ms)}`);
console.log(`  ${"total".padEnd(40)} ${minutes(Date.now() - started)}`);
console.log("");
if (failedRuns.length) console.log(`Failed runs: ${failedRuns.join("; ")}`);
// Named again here, at the end: a CI log is often read from its tail only.
if (failedNames.length) console.log(`Failed tests:\n${failedNames.map((n) => `  ${n}`).join("\n")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns.length || totals.failed ? 1 : 0);
