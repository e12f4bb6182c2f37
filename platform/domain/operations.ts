import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { opsMessages, type AccountOps, type OpsDelivery, type OpsDeliverySortColumn } from "../contract/operations.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { ApiError, conflict, notFound } from "../lib/errors.ts";
import { columns, defineList, execRows, isoText, jsonLines, listTable } from "../lib/list.ts";
import { addressProblem } from "../webhooks/address.ts";
import { boundedPayload, enqueueEvent, queueAttempt } from "../webhooks/events.ts";
import { maskedSecret, newSigningSecret } from "../webhooks/signing.ts";

/*
 * Operations (spec 2 §2 /operations, §3, §7): where the account's events go. The settings are
 * account_ops; the events and their deliveries are the outbox of platform/webhooks, which also
 * delivers them (docs/operations-events.md).
 */

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

const ts = (expr: ReturnType<typeof sql>) => sql`case when ${expr} is null then null else ${isoText(expr)} end`;

/** GET get-account-ops: the settings as a list of at most one (the spec's "first item"). */
export async function accountOps(db: DbOrTx, accountId: string): Promise<AccountOps[]> {
  const rows = await execRows<AccountOps & { key: string }>(
    db,
    sql`select o.webhook_url, o.email, o.signature_key as key,
               ${ts(sql`case when w.previous_key_until > now() then w.previous_key_until end`)} as previous_key_expires_at,
               ${ts(sql`w.disabled_at`)} as webhook_disabled_at, w.disabled_reason as webhook_disabled_reason,
               ${ts(sql`w.failing_since`)} as failing_since,
               ${ts(sql`r.created_at`)} as email_refused_at, r.answer as email_refused_answer
          from account_ops o left join ops_webhooks w on w.account_id = o.account_id
          -- Issue 63 item 7: the newest permanent refusal of a mail of this account to the address it has now.
          left join lateral (select created_at, answer from mail_rejections m
                              where m.account_id = o.account_id and lower(m.recipient) = lower(o.email) and m.created_at > now() - interval '7 days'
                              order by m.created_at desc limit 1) r on true
         where o.account_id = ${accountId}`,
  );
  return rows.map(({ key, ...r }) => ({ ...r, signature_key: maskedSecret(key) }));
}

const fieldError = (field: string, msg: string) => new ApiError(422, [{ loc: ["body", field], msg, type: "value_error" }]);

/**
 * POST set-account-ops: saves the address (checked: https, no credentials, a public address after
 * DNS resolution) and the e-mail; answers the signing secret and whether this save made it (the
 * first one): only then may it be shown whole (issue 63 item 9). A changed address starts
 * deliveries again if they were stopped.
 */
export async function setAccountOps(deps: PlatformDeps, accountId: string, input: { webhook_url: string; email: string }): Promise<{ key: string; created: boolean }> {
  if (input.webhook_url) {
    const problem = await addressProblem(input.webhook_url, deps.config.webhookAllowHosts);
    if (problem) throw fieldError("webhook_url", problem);
  }
  return deps.db.transaction(async (tx) => {
    const [before] = await execRows<{ webhook_url: string; signature_key: string }>(
      tx,
      sql`select webhook_url, signature_key from account_ops where account_id = ${accountId} for update`,
    );
    const created = !before?.signature_key;
    const key = before?.signature_key || newSigningSecret();
    await tx.execute(sql`insert into account_ops (account_id, webhook_url, email, signature_key, updated_at)
        values (${accountId}, ${input.webhook_url}, ${input.email}, ${key}, now())
        on conflict (account_id) do update set webhook_url = excluded.webhook_url, email = excluded.email, updated_at = now()`);
    if (before && before.webhook_url !== input.webhook_url) {
      await tx.execute(sql`update ops_webhooks set disabled_at = null, disabled_reason = null, failing_since = null where account_id = ${accountId}`);
    }
    return { key, created };
  });
}

/** POST rotate-account-ops-secret: a new secret; the previous one also signs for 24 hours. */
export async function rotateSecret(db: Db, accountId: string): Promise<string> {
  const key = newSigningSecret();
  return db.transaction(async (tx) => {
    const [before] = await execRows<{ signature_key: string }>(tx, sql`select signature_key from account_ops where account_id = ${accountId} for update`);
    if (!before) throw conflict(opsMessages.notSet);
    await tx.execute(sql`update account_ops set signature_key = ${key}, updated_at = now() where account_id = ${accountId}`);
    const until = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
    await tx.execute(sql`insert into ops_webhooks (account_id, previous_key, previous_key_until) values (${accountId}, ${before.signature_key}, ${until}::timestamptz)
        on conflict (account_id) do update set previous_key = excluded.previous_key, previous_key_until = excluded.previous_key_until`);
    return key;
  });
}

/** POST send-account-ops-test-event: a webhook.test event to the webhook address (no e-mail). */
export async function sendTestEvent(db: Db, accountId: string): Promise<string> {
  const id = await db.transaction(async (tx) => {
    const [ops] = await execRows<{ webhook_url: string; disabled: boolean }>(
      tx,
      sql`select o.webhook_url, (w.disabled_at is not null) as disabled
            from account_ops o left join ops_webhooks w on w.account_id = o.account_id where o.account_id = ${accountId}`,
    );
    if (!ops?.webhook_url) throw conflict(opsMessages.noWebhook);
    // A disabled endpoint gets no delivery: say so instead of "Test event sent." (issue 63 item 8).
    if (ops.disabled) throw conflict(opsMessages.testDisabled);
    const now = new Date().toISOString();
    return enqueueEvent(tx, accountId, boundedPayload("webhook.test", now, { message: "A test event from the Operations page.", account_id: accountId }));
  });
  if (!id) throw conflict(opsMessages.noWebhook);
  return id;
}

/** POST enable-account-ops-webhook: deliveries start again after the endpoint was disabled. */
export async function enableWebhook(db: Db, accountId: string): Promise<void> {
  const [ops] = await execRows<{ one: number }>(db, sql`select 1 as one from account_ops where account_id = ${accountId}`);
  if (!ops) throw conflict(opsMessages.notSet);
  await db.execute(sql`update ops_webhooks set disabled_at = null, disabled_reason = null, failing_since = null where account_id = ${accountId}`);
}

const deliveryJson = sql`json_build_object('delivery_id', d.delivery_id, 'event_id', d.event_id, 'event_type', e.type,
  'event_time', e.payload->>'timestamp', 'url', d.url, 'status', d.status, 'attempt', d.attempt,
  'http_status', d.http_status, 'latency_ms', d.latency_ms, 'error', d.error,
  'last_attempt_at', ${ts(sql`d.last_attempt_at`)}, 'next_attempt_at', ${ts(sql`case when d.status in ('pending', 'sending') then d.next_attempt_at end`)},
  'created_at', ${isoText(sql`d.created_at`)})`;

const deliveryNotFound = () => notFound("Delivery not found");

/** GET list-account-ops-deliveries: the delivery log, newest first. Live data: never from the read cache. */
export const deliveryList = defineList<OpsDelivery, OpsDeliverySortColumn>({
  ...listTable("ops_deliveries", "d", "delivery_id"),
  from: sql`from ops_deliveries d join ops_events e on e.event_id = d.event_id`,
  search: [sql`lower(e.type || ' ' || d.status || ' ' || d.event_id || ' ' || coalesce(d.http_status::text, ''))`],
  sortable: {
    ...columns("time", "d", ["created_at", "next_attempt_at"]),
    ...columns("text", "d", ["status"]),
    ...columns("number", "d", ["attempt", "http_status", "latency_ms"]),
    event_type: { expr: sql`e.type`, kind: "text" },
  },
  defaultSort: "-created_at",
  json: deliveryJson,
  idOf: (d) => d.delivery_id,
  notFound: deliveryNotFound,
  all: (db, accountId) =>
    jsonLines<OpsDelivery>(
      db,
      sql`select ${deliveryJson}::text as j from ops_deliveries d join ops_events e on e.event_id = d.event_id
           where d.account_id = ${accountId} order by d.created_at desc, d.delivery_id desc limit 100`,
    ),
  cached: false,
});

/** POST redeliver-account-ops-delivery: a delivery whose last attempt failed is due again now. */
export async function redeliver(db: Db, accountId: string, deliveryId: string): Promise<void> {
  const rows = await execRows<{ status: string; failed: boolean }>(
    db,
    sql`select status, (status = 'failed' or (status = 'pending' and attempt > 0)) as failed
          from ops_deliveries where delivery_id = ${deliveryId} and account_id = ${accountId}`,
  );
  if (!rows[0]) throw deliveryNotFound();
  if (!rows[0].failed) throw conflict(opsMessages.notFailed);
  const [disabled] = await execRows<{ one: number }>(db, sql`select 1 as one from ops_webhooks where account_id = ${accountId} and disabled_at is not null`);
  if (disabled) throw conflict("Deliveries are disabled: enable them first.");
  // Due now, by a job of its own sent with the change (the job of a retry still waiting then finds the row is not its own).
  await db.transaction(async (tx) => {
    const [due] = await execRows<{ delivery_id: string }>(
      tx,
      sql`update ops_deliveries set status = 'pending', next_attempt_at = clock_timestamp(),
            attempt = least(attempt, ${MAX_REDELIVER_FROM})
          where delivery_id = ${deliveryId} and account_id = ${accountId} and status in ('failed', 'pending')
          returning delivery_id`,
    );
    if (due) await queueAttempt(tx, due.delivery_id);
  });
}

/** A redelivered delivery gets one more attempt at least (the worker gives up after the schedule's 8). */
const MAX_REDELIVER_FROM = 7;
