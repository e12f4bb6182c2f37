import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPlatformApp, type PlatformApp } from "../app.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { entities, iamUsers } from "../db/schema.ts";
import { defaultLimits } from "../domain/abuse-limits.ts";
import { createAccount, issueToken } from "../domain/accounts.ts";
import { workPcapAnalyses } from "../domain/pcap-analysis.ts";
import { pcapEngine } from "../domain/pcap.ts";
import { openJobQueue } from "../jobs/queue.ts";
import { configFromEnv } from "../lib/config.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { hashPassword } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";
import { readLatestMail } from "../mail/mailer.ts";
import { outboxMailer } from "./mail.ts";
import { rawBodyBytes } from "./malformed.ts";

export interface CallResult<T = any> {
  status: number;
  body: T;
}

export interface TestAccount {
  accountId: string;
  username: string;
  password: string;
  token: string;
}

export interface TestPlatform {
  app: PlatformApp;
  deps: PlatformDeps;
  outboxDir: string;
  /** The shared database itself (the job queue's tests open their queue on it). */
  database: Database;
  /** `address`: the client's, as the console would send it (X-Forwarded-For). */
  call<T = any>(method: "GET" | "POST", call: string, opts?: { token?: string; body?: unknown; query?: Record<string, string>; rawBody?: string; contentType?: string; address?: string }): Promise<CallResult<T>>;
  newAccount(opts?: { username?: string; password?: string }): Promise<TestAccount>;
  newIamUser(account: TestAccount, role: "readonly" | "admin", opts?: { username?: string; password?: string }): Promise<TestAccount & { iamUserId: string; entityName: string }>;
  latestMail(to: string): string | null;
}

let shared: Promise<{ database: Database; deps: PlatformDeps; app: PlatformApp; outboxDir: string }> | undefined;

/**
 * One platform per test file (per vitest worker): PGlite in memory by default, or the PostgreSQL
 * database in TEST_DATABASE_URL (migrated once by the global setup). Tests isolate themselves by
 * creating their own accounts, never by resetting shared data.
 */
export function testPlatform(): Promise<TestPlatform> {
  shared ??= (async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL || undefined });
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-outbox-"));
    // Every test file's calls come from one unnamed address: its per-address abuse limits would count
    // the whole suite's sign-ins together. abuse-limits.test.ts checks them on a platform of its own.
    const abuseLimits = Object.fromEntries(Object.keys(defaultLimits).filter((n) => n.endsWith(".address")).map((n) => [n, { points: 1_000_000, seconds: 60 }]));
    const config = { ...configFromEnv({}), dataDir: outboxDir, consoleUrl: "http://console.test", seedDemo: false, cacheCallers: "off" as const, abuseLimits };
    // PCAP analyses are jobs: this platform's own queue (its own schema, so that the PostgreSQL run's
    // other workers, whose captures are in other directories, never take its jobs) and worker.
    const jobs = await openJobQueue({
      database,
      databaseUrl: process.env.TEST_DATABASE_URL || undefined,
      schema: `jobs_test_${Math.random().toString(36).slice(2, 8)}`,
      pollingSeconds: 0.5,
      superviseSeconds: 1,
      schedule: false,
    });
    const deps: PlatformDeps = {
      db: database.db,
      dbKind: database.kind,
      config,
      mailer: outboxMailer(outboxDir),
      jobs,
    };
    await workPcapAnalyses(jobs, deps, pcapEngine);
    return { database, deps, app: createPlatformApp(deps), outboxDir };
  })();
  return shared.then(({ database, deps, app, outboxDir }) => {
    const platform: TestPlatform = {
      app,
      deps,
      outboxDir,
      database,
      async call(method, call, opts = {}) {
        const url = new URL(`http://platform.test/api/v1/${call.replace(/^\//, "")}`);
        for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
        const headers: Record<string, string> = {};
        if (opts.token) headers.authorization = `Bearer ${opts.token}`;
        if (opts.address) headers["x-forwarded-for"] = opts.address;
        let body: string | Uint8Array<ArrayBuffer> | undefined;
        if (opts.rawBody !== undefined) {
          // Bytes that are not UTF-8 travel as U+DC80–U+DCFF in the string (test/malformed.ts).
          body = rawBodyBytes(opts.rawBody);
          headers["content-type"] = opts.contentType ?? "application/json";
        } else if (opts.body !== undefined) {
          body = JSON.stringify(opts.body);
          headers["content-type"] = "application/json";
        }
        const res = await app.fetch(new Request(url, { method, headers, body }));
        const text = await res.text();
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        return { status: res.status, body: parsed };
      },
      async newAccount(opts = {}) {
        const username = opts.username ?? `owner-${newId("t")}@example.test`;
        const password = opts.password ?? "correct horse battery";
        const account = await createAccount(deps, { username, password, name: "Test Account" });
        const token = await issueToken(deps, account.accountId);
        return { accountId: account.accountId, username: account.username, password, token };
      },
      async newIamUser(account, role, opts = {}) {
        const entityId = newId("ent");
        const entityName = `Entity ${entityId}`;
        await deps.db.insert(entities).values({ entityId, accountId: account.accountId, entityName });
        const iamUserId = newId("iam");
        const username = opts.username ?? `iam-${newId("t")}@example.test`;
        const password = opts.password ?? "iam user password";
        await deps.db.insert(iamUsers).values({
          iamUserId,
          accountId: account.accountId,
          username,
          passwordHash: await hashPassword(password),
          role,
          entityId,
          name: "Test IAM user",
          email: username,
        });
        const token = await issueToken(deps, account.accountId, iamUserId);
        return { accountId: account.accountId, username, password, token, iamUserId, entityName };
      },
      latestMail: (to) => readLatestMail(outboxDir, to),
    };
    return platform;
  });
}
