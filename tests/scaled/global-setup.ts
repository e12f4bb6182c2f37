import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createPrivateDatabase } from "../../scripts/private-database.mjs";
import { killAllGroups } from "./processes.ts";

/*
 * The scaled run's set-up, in Playwright's runner process: the console's build, a private empty
 * PostgreSQL database (scripts/private-database.mjs) and a scratch directory. The teardown it answers
 * runs in the runner even when the test's worker was killed (a time-out): it SIGKILLs every process
 * group the test started (listed in the scratch directory) and drops the database.
 *
 * PostgreSQL unreachable: outside CI the test is skipped with the reason (SCALED_SKIP); in CI the
 * run fails here.
 */

const serverUrl = process.env.SCALED_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export default async function globalSetup() {
  const unreachable = await reachable(serverUrl);
  if (unreachable) {
    if (process.env.CI) throw new Error(`The scaled run needs PostgreSQL: not reachable at ${serverUrl} (${unreachable})`);
    process.env.SCALED_SKIP = `PostgreSQL not reachable at ${serverUrl} (${unreachable})`;
    console.log(`The scaled run is skipped: ${process.env.SCALED_SKIP}`);
    return;
  }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-scaled-"));
  process.env.SCALED_RUN_DIR = runDir;
  execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
  const database = await createPrivateDatabase(serverUrl, "linkwise_scaled");
  process.env.SCALED_PRIVATE_DATABASE_URL = database.url;
  console.log(`Scaled run on PostgreSQL: ${database.name}; logs in ${runDir}`);
  return async () => {
    killAllGroups(path.join(runDir, "process-groups"));
    // A moment for the killed instances' connections to go, then the database WITH (FORCE).
    await database.drop().catch((error: Error) => console.log(`Could not drop ${database.name}: ${error.message}`));
    if (!process.env.SCALED_KEEP_LOGS) fs.rmSync(runDir, { recursive: true, force: true });
  };
}
