/*
 * A platform instance's PCAP analysis worker on its own, in a process of its own: the
 * dead-instance test (jobs/pcap-dead-instance.test.ts) starts it, lets it take an analysis and
 * kills it with SIGKILL.
 *
 *   DATABASE_URL=… JOBS_SCHEMA=… DATA_DIR=… S3_ENDPOINT=… S3_BUCKET=… S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=… \
 *     node --import tsx platform/test/pcap-job-process.ts
 *
 * It prints `taking jobs` once it works the pcap-analysis queue.
 */
import path from "node:path";
import { openDatabase } from "../db/client.ts";
import { workPcapAnalyses } from "../domain/pcap-analysis.ts";
import { pcapEngine } from "../domain/pcap.ts";
import { openJobQueue } from "../jobs/queue.ts";
import { configFromEnv } from "../lib/config.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { outboxMailer } from "./mail.ts";

const config = configFromEnv();
const databaseUrl = config.databaseUrl;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const database = await openDatabase({ databaseUrl });
const jobs = await openJobQueue({ database, databaseUrl, schema: process.env.JOBS_SCHEMA, pollingSeconds: 0.5, superviseSeconds: 1, schedule: false });
const deps: PlatformDeps = { db: database.db, dbKind: database.kind, mailer: outboxMailer(path.join(config.dataDir, "outbox")), config, jobs };
await workPcapAnalyses(jobs, deps, pcapEngine);
console.log("taking jobs");
