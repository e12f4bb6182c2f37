/*
 * A platform instance's webhook deliveries on their own, in a process of its own: the
 * dead-instance test (webhooks/dead-instance.test.ts) starts it, lets it take a delivery's job and
 * kills it with SIGKILL.
 *
 *   DATABASE_URL=… JOBS_SCHEMA=… OUTBOX_DIR=… node --import tsx platform/test/delivery-process.ts
 *
 * It takes the jobs of the queue in JOBS_SCHEMA (the test's own), delivers to 127.0.0.1 (allowed
 * here as WEBHOOK_ALLOW_HOSTS allows it in local testing), and prints `delivering` once it works.
 */
import { openDatabase } from "../db/client.ts";
import { openJobQueue } from "../jobs/queue.ts";
import { outboxMailer } from "./mail.ts";
import { workWebhookDeliveries } from "../webhooks/worker.ts";

const databaseUrl = process.env.DATABASE_URL;
const schema = process.env.JOBS_SCHEMA;
if (!databaseUrl || !schema) throw new Error("DATABASE_URL and JOBS_SCHEMA are required");
const database = await openDatabase({ databaseUrl });
const jobs = await openJobQueue({ database, databaseUrl, schema, pollingSeconds: 0.5, superviseSeconds: 1, schedule: false });
await workWebhookDeliveries(jobs, {
  db: database.db,
  mailer: outboxMailer(process.env.OUTBOX_DIR ?? "/nonexistent"),
  config: { webhookAllowHosts: ["127.0.0.1"], productName: "Linkwise", consoleUrl: "http://console.test" },
  catchUp: false,
});
console.log("delivering");
