import { eq, lt } from "drizzle-orm";
import { pcapFiles } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { objectStore } from "../storage/index.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import { observe } from "../../server/observe.mjs";

const log = observe("platform").logger.child({ component: "pcap" });

/*
 * Uploaded captures do not stay forever: an upload older than the retention period
 * (PCAP_RETENTION_DAYS, default 30) is deleted with its cached analysis, and all of an account's
 * captures go when the account is removed. Rows are deleted first with RETURNING, so two platform
 * instances sweeping at once never both own a key; then the objects. An object whose delete
 * fails is logged: its row is gone, so nothing refers to it any more, and the next operator
 * clean-up of the bucket removes it.
 */

export const DEFAULT_PCAP_RETENTION_DAYS = 30;
/** When the sweep runs: hourly, at minute 7, on one instance of the deployment (a pg-boss schedule). */
export const RETENTION_SWEEP_CRON = "7 * * * *";

async function deleteObjects(deps: PlatformDeps, keys: string[]): Promise<number> {
  const store = objectStore(deps);
  let deleted = 0;
  for (const key of keys) {
    try {
      await store.delete(key);
      deleted++;
    } catch (error) {
      log.error({ err: error, key }, "could not delete an object");
    }
  }
  return deleted;
}

/** Deletes the uploads created before `before`; returns the keys deleted. */
export async function sweepExpiredPcaps(deps: PlatformDeps, before: Date): Promise<string[]> {
  const rows = await deps.db.delete(pcapFiles).where(lt(pcapFiles.createdAt, before)).returning({ key: pcapFiles.pcapFileKey });
  const keys = rows.map((r) => r.key);
  await deleteObjects(deps, keys);
  return keys;
}

/** The keys of an account's uploads (read before the account's rows cascade away). */
export async function accountPcapKeys(deps: PlatformDeps, accountId: string): Promise<string[]> {
  const rows = await deps.db.select({ key: pcapFiles.pcapFileKey }).from(pcapFiles).where(eq(pcapFiles.accountId, accountId));
  return rows.map((r) => r.key);
}

/** Deletes these objects of an account (after its rows are gone). */
export async function deleteAccountPcapObjects(deps: PlatformDeps, accountId: string, keys: string[]): Promise<void> {
  // Only keys of this account: a key is `{account_id}_pcap-…`.
  await deleteObjects(
    deps,
    keys.filter((k) => k.startsWith(`${accountId}_pcap-`)),
  );
}

/**
 * The hourly sweep as a scheduled job (platform/jobs/queue.ts): pg-boss sends one job per hour for
 * the whole deployment and one instance takes it, instead of a timer in every instance. With
 * `retentionDays` 0 the schedule is removed (captures are kept).
 */
export async function workRetentionSweep(jobs: JobQueue, deps: PlatformDeps, retentionDays: number): Promise<void> {
  const name = queues.pcapRetention.name;
  if (!(retentionDays > 0)) {
    await jobs.boss.unschedule(name);
    return;
  }
  await jobs.boss.schedule(name, RETENTION_SWEEP_CRON, { retention_days: retentionDays });
  await jobs.work<{ retention_days?: number }>(name, async (job) => {
    const days = job.data.retention_days ?? retentionDays;
    const keys = await sweepExpiredPcaps(deps, new Date(Date.now() - days * 24 * 60 * 60 * 1000));
    if (keys.length) log.info({ deleted: keys.length, retentionDays: days }, "retention: old uploads deleted");
    return { deleted: keys.length };
  });
}
