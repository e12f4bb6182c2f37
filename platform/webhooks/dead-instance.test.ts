import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendTestEvent, setAccountOps } from "../domain/operations.ts";
import { openJobQueue, queues, type JobQueue } from "../jobs/queue.ts";
import { execRows } from "../lib/list.ts";
import { outboxMailer } from "../test/mail.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { deliverEventsThrough } from "./events.ts";
import { workWebhookDeliveries } from "./worker.ts";

/*
 * Issue 62 part 5: kill -9 of the instance holding a webhook delivery. A child process (the
 * delivery jobs' worker of ../test/delivery-process.ts) takes the attempt's job; the receiver holds
 * the request without answering; the child is killed with SIGKILL. The job's heartbeat stops, the
 * queue gives it back, and another instance (this process) makes the attempt again with the same
 * webhook-id and a valid signature: delivered once, by the same job.
 * PostgreSQL only: instances in several processes share a PostgreSQL database.
 */

const url = process.env.TEST_DATABASE_URL;
let p: TestPlatform;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
beforeAll(async () => {
  p = await testPlatform();
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!url)("an instance killed while it holds a webhook delivery (PostgreSQL)", () => {
  it("another instance delivers it, with the same webhook-id, once", async () => {
    // The first request is held unanswered (the instance sending it dies); the next ones get 204.
    const got: { headers: Record<string, string>; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        got.push({ headers: req.headers as Record<string, string>, body });
        if (got.length === 1) return;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    const hook = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

    p.deps.config.webhookAllowHosts = ["127.0.0.1"];
    const a = await p.newAccount();
    const { key: secret } = await setAccountOps(p.deps, a.accountId, { webhook_url: hook, email: "" });
    p.deps.config.webhookAllowHosts = [];

    // This test's own queue (its own schema: other test files' workers never take its jobs).
    const schema = `jobs_hook_dead_${Math.random().toString(36).slice(2, 8)}`;
    const jobs: JobQueue = await openJobQueue({ database: p.database, databaseUrl: url, schema, pollingSeconds: 0.5, superviseSeconds: 1, schedule: false });
    cleanups.push(() => jobs.stop());
    cleanups.push(deliverEventsThrough(jobs));

    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../test/delivery-process.ts")], {
      env: { ...process.env, DATABASE_URL: url, JOBS_SCHEMA: schema, OUTBOX_DIR: os.tmpdir() },
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(() => child.kill("SIGKILL"));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("delivering") && resolve());
      child.once("exit", (code) => reject(new Error(`the worker process ended (${code})`)));
    });

    const eventId = await sendTestEvent(p.deps.db, a.accountId);
    await expect.poll(() => got.length, { timeout: 15_000 }).toBe(1);
    const row = async () => (await execRows<{ status: string; attempt: number; job_id: string | null }>(p.deps.db, sql`select status, attempt, job_id from ops_deliveries where event_id = ${eventId}`))[0];
    const held = await row();
    expect(held).toMatchObject({ status: "sending", attempt: 1 });
    const [job] = await jobs.boss.findJobs(queues.webhookDelivery.name, { id: held!.job_id! });
    expect(job?.state).toBe("active");
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // Another instance: its heartbeat stopped, the queue gives the job back and this one runs it.
    // The undo gives the module's queue handle back (other test files run in this process).
    cleanups.push(await workWebhookDeliveries(jobs, {
      db: p.deps.db,
      mailer: outboxMailer(os.tmpdir()),
      config: { webhookAllowHosts: ["127.0.0.1"], productName: "Linkwise", consoleUrl: "http://console.test" },
      catchUp: false,
    }));
    await expect.poll(row, { timeout: 60_000, interval: 500 }).toMatchObject({ status: "succeeded", attempt: 2 });
    // The same job, given back once and completed by this instance.
    await expect.poll(async () => (await jobs.boss.findJobs(queues.webhookDelivery.name, { id: job!.id }))[0]?.state, { timeout: 10_000 }).toBe("completed");
    await new Promise((r) => setTimeout(r, 1500));
    expect(got).toHaveLength(2);
    // The same webhook-id both times, each signed with the account's secret.
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
    for (const r of got) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
  }, 180_000);
});
