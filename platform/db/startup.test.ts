import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPrivateDatabase } from "../../scripts/private-database.mjs";
import { configFromEnv } from "../lib/config.ts";
import { outboxMailer } from "../test/mail.ts";
import { freePort } from "../test/ports.ts";
import { startS3Server } from "../test/servers/s3.ts";
import { createPlatform } from "../index.ts";
import { demoIamUsers, demoUsername, seedDemo } from "../seed.ts";
import { openDatabase, STARTUP_LOCK_KEY, StartupLockTimeoutError } from "./client.ts";
import { accounts, iamUsers } from "./schema.ts";

/*
 * Instances of a scaled deployment start at the same moment on one empty PostgreSQL database.
 * Before the start-up lock (client.ts) 3 of 4 crashed in drizzle's migrator (23505 in pg_type) or
 * in the demo seed (accounts_domain_uq). PostgreSQL only: PGlite has one process by nature.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-startup-"));
const dropping: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of dropping) await drop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

async function emptyDatabase(): Promise<string> {
  const database = await createPrivateDatabase(serverUrl!, "linkwise_startup");
  dropping.push(database.drop);
  return database.url;
}

async function demoAccounts(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query("select count(*)::int as n from accounts where username = $1", [demoUsername]);
    return r.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe("the demo account on the embedded database (npm start)", () => {
  it("is made whole, in one transaction with its IAM users", async () => {
    const platform = await createPlatform(configFromEnv({ DATA_DIR: path.join(dir, "embedded"), FLEET_TICK: "0" }));
    try {
      const demo = await platform.deps.db.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.username, demoUsername));
      expect(demo).toHaveLength(1);
      const users = await platform.deps.db.select({ username: iamUsers.username }).from(iamUsers).where(eq(iamUsers.accountId, demo[0]!.id));
      expect(users.map((u) => u.username).sort()).toEqual(demoIamUsers.map((u) => u.username).sort());
    } finally {
      await platform.close();
    }
  }, 120_000);
});

describe.skipIf(!serverUrl)("start-up on a shared PostgreSQL database", () => {
  it("four instances migrate and seed at the same moment: all start, one demo account", async () => {
    const url = await emptyDatabase();
    const config = { ...configFromEnv({}), dataDir: dir, databaseUrl: url, seedDemo: true, cacheCallers: "shared" as const };
    const mailer = outboxMailer(path.join(dir, "outbox"));
    const opened = await Promise.allSettled(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url, setUp: (db) => seedDemo({ db, dbKind: "postgres", mailer, config }) })),
    );
    try {
      expect(opened.map((o) => (o.status === "rejected" ? String(o.reason) : "started"))).toEqual(["started", "started", "started", "started"]);
      expect(await demoAccounts(url)).toBe(1);
      // Each instance can use the database it opened.
      const [first] = opened as PromiseFulfilledResult<Awaited<ReturnType<typeof openDatabase>>>[];
      const rows = await first!.value.db.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.username, demoUsername));
      expect(rows).toHaveLength(1);
    } finally {
      for (const o of opened) if (o.status === "fulfilled") await o.value.close();
    }
  }, 120_000);

  it("three platform processes started together on an empty database all answer", async () => {
    const url = await emptyDatabase();
    const ports = await Promise.all([0, 1, 2].map(() => freePort()));
    const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
    const children: ChildProcess[] = [];
    const output: string[] = [];
    // What every instance of one deployment shares: the secrets, and the uploads' bucket (a real S3 server).
    const s3 = await startS3Server();
    const { settings } = s3;
    const shared = {
      NODE_SECRETS_KEY: randomBytes(32).toString("hex"),
      OBJECTS_SECRET: randomBytes(32).toString("hex"),
      S3_ENDPOINT: settings.endpoint,
      S3_BUCKET: settings.bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    };
    try {
      for (const [i, port] of ports.entries()) {
        const child = spawn(process.execPath, [tsx, "platform/server.ts"], {
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            NODE_ENV: "production",
            DATABASE_URL: url,
            SEED_DEMO: "true",
            PLATFORM_PORT: String(port),
            DATA_DIR: path.join(dir, `instance-${i}`),
            ...shared,
            PLATFORM_URL: "http://platform.test",
            CONSOLE_URL: "http://console.test",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        child.stdout!.on("data", (d: Buffer) => output.push(`[${i}] ${d}`));
        child.stderr!.on("data", (d: Buffer) => output.push(`[${i}] ${d}`));
        children.push(child);
      }
      const exited = children.map((c) => new Promise<number | null>((resolve) => c.once("exit", (code) => resolve(code))));
      const answered = await Promise.race([
        Promise.all(ports.map((port) => health(port, 90_000))),
        Promise.race(exited).then((code) => {
          throw new Error(`an instance exited (${code}):\n${output.join("")}`);
        }),
      ]);
      expect(answered, output.join("")).toEqual([200, 200, 200]);
      expect(await demoAccounts(url)).toBe(1);
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
      await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
      await s3.close();
    }
  }, 150_000);

  it("an instance waits for the start-up lock at most its timeout, then stops with a message that names the lock", async () => {
    const url = await emptyDatabase();
    // Another instance that hangs while it migrates: its session holds the lock and does nothing.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
      const started = Date.now();
      const refused = await openDatabase({ databaseUrl: url, startupLockTimeoutMs: 500 }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(StartupLockTimeoutError);
      expect(String(refused)).toMatch(/held the start-up lock .* for more than 1 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Once the hung instance is gone the next one starts.
      await holder.query("select pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]);
      const opened = await openDatabase({ databaseUrl: url, startupLockTimeoutMs: 500 });
      await opened.close();
    } finally {
      await holder.end();
    }
  }, 60_000);
});

/** The status of the instance's /health once it answers (bounded). */
async function health(port: number, withinMs: number): Promise<number> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const status = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.status, () => 0);
    if (status) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the instance on port ${port} did not answer within ${withinMs} ms`);
}
