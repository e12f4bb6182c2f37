import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";
import { createTransport, queueMailer, workMailQueue } from "../mail/mailer.ts";
import { startSmtpServer } from "../test/servers/smtp.ts";
import { openJobQueue, queues, type JobQueue } from "./queue.ts";

/*
 * Issue 62 part 5: kill -9 of the instance holding a job, and another instance finishes it,
 * exactly once. A child process (../test/mail-job-process.ts) takes a mail job; its SMTP server never
 * answers, so the job stays in its hands; it is killed with SIGKILL. The job's heartbeat stops, the
 * queue gives it back, and this process's worker sends it to a real SMTP server: it arrives once.
 * PostgreSQL only: instances in several processes share a PostgreSQL database (PGlite is one
 * process's own).
 */

const url = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
async function silentServer() {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => void sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => sockets.length,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!url)("an instance killed while it holds a job (PostgreSQL)", () => {
  it("another instance finishes the job, and the message arrives exactly once", async () => {
    const schema = `jobs_dead_${Math.random().toString(36).slice(2, 8)}`;
    const database: Database = await openDatabase({ databaseUrl: url });
    cleanups.push(() => database.close());
    const jobs: JobQueue = await openJobQueue({ database, databaseUrl: url, schema, pollingSeconds: 0.5, superviseSeconds: 1, mailRetryDelaySeconds: 1, schedule: false });
    cleanups.push(() => jobs.stop());

    const hang = await silentServer();
    cleanups.push(hang.close);
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../test/mail-job-process.ts")], {
      env: { ...process.env, DATABASE_URL: url, JOBS_SCHEMA: schema, SMTP_URL: `smtp://127.0.0.1:${hang.port}` },
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(() => child.kill("SIGKILL"));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("taking jobs") && resolve());
      child.once("exit", (code) => reject(new Error(`the worker process ended (${code})`)));
    });

    const to = `held-${Date.now().toString(36)}@example.com`;
    await queueMailer(jobs).send({ to, subject: "held by a dying instance", text: "sent once" });
    // The child has taken it: it is talking to the silent server, the job active in its hands.
    await expect.poll(() => hang.connections(), { timeout: 15_000 }).toBeGreaterThan(0);
    const [held] = await jobs.boss.findJobs(queues.mail.name, { data: { to } });
    expect(held?.state).toBe("active");

    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // Another instance (this process) with a working SMTP server.
    const smtp = await startSmtpServer();
    cleanups.push(smtp.close);
    await workMailQueue(jobs, database.db, createTransport({ smtpUrl: smtp.url, outboxDir: "/nonexistent", from: "Linkwise <no-reply@linkwise.example>", log: () => {} }), { log: () => {} });
    await expect.poll(() => smtp.to(to).length, { timeout: 40_000, interval: 250 }).toBe(1);
    // The same job, given back once (its retry count) and completed by this instance.
    await expect.poll(async () => (await jobs.boss.findJobs(queues.mail.name, { data: { to } }))[0]?.state, { timeout: 5_000 }).toBe("completed");
    const [done] = await jobs.boss.findJobs(queues.mail.name, { data: { to } });
    expect(done?.id).toBe(held?.id);
    // Once: nothing else arrives later.
    await new Promise((r) => setTimeout(r, 2000));
    expect(smtp.to(to)).toHaveLength(1);
  }, 90_000);
});
