/*
 * A platform instance's webhook delivery worker on its own, in a process of its own: the
 * dead-instance test (dead-instance.test.ts) starts it, lets it take a delivery and kills it with
 * SIGKILL.
 *
 *   DATABASE_URL=… ACCOUNT_ID=… OUTBOX_DIR=… node --import tsx platform/test/delivery-process.ts
 *
 * It delivers that account's events only (other test files share the database), to 127.0.0.1
 * (allowed here as WEBHOOK_ALLOW_HOSTS allows it in local testing), and prints `delivering`.
 */
import { openDatabase } from "../db/client.ts";
import { outboxMailer } from "./mail.ts";
import { createDeliveryWorker } from "../webhooks/worker.ts";

const databaseUrl = process.env.DATABASE_URL;
const accountId = process.env.ACCOUNT_ID;
if (!databaseUrl || !accountId) throw new Error("DATABASE_URL and ACCOUNT_ID are required");
const database = await openDatabase({ databaseUrl });
const worker = createDeliveryWorker({
  db: database.db,
  mailer: outboxMailer(process.env.OUTBOX_DIR ?? "/nonexistent"),
  config: { webhookAllowHosts: ["127.0.0.1"], productName: "Linkwise", consoleUrl: "http://console.test" },
  databaseUrl,
  sweepMs: 500,
  accounts: [accountId],
});
worker.start();
console.log("delivering");
