/*
 * A platform instance's mail worker on its own, in a process of its own: the dead-instance test
 * (dead-instance.test.ts) starts it, lets it take a job and kills it with SIGKILL.
 *
 *   DATABASE_URL=… JOBS_SCHEMA=… SMTP_URL=… node --import tsx platform/test/mail-job-process.ts
 *
 * It prints `taking jobs` once it works the mail queue.
 */
import { openDatabase } from "../db/client.ts";
import { createTransport, workMailQueue } from "../mail/mailer.ts";
import { openJobQueue } from "../jobs/queue.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const database = await openDatabase({ databaseUrl });
const jobs = await openJobQueue({ database, databaseUrl, schema: process.env.JOBS_SCHEMA, pollingSeconds: 0.5, superviseSeconds: 1, mailRetryDelaySeconds: 1, schedule: false });
const transport = createTransport({ smtpUrl: process.env.SMTP_URL, outboxDir: "/nonexistent", from: "Linkwise <no-reply@linkwise.example>" });
await workMailQueue(jobs, database.db, transport);
console.log("taking jobs");
