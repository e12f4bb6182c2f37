import { and, eq, sql } from "drizzle-orm";
import { reportHistory, reportSchedules } from "../db/schema.ts";
import type { ReportCadence } from "../contract/report-schedules.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { newId } from "../lib/ids.ts";
import { observe } from "../../server/observe.mjs";
import { makeQueuedReport } from "./report-schedules.ts";
import { periodDue } from "./report-schedules-periods.ts";

/*
 * Scheduled reports on the platform's job queue (docs/decisions/2026-12-03-report-schedules.md):
 *
 * - the clock: a pg-boss schedule sends one `report-tick` job every 5 minutes for the whole
 *   deployment (and each instance sends one as it starts, so a report owed while every instance
 *   was down goes out as soon as one is back). The tick queues the report each active schedule
 *   owes (periodDue): a `report_history` row per schedule and period, unique, and its `report` job
 *   in the same transaction. However many ticks run at once, on however many instances, one row
 *   and one job exist per period: the period is the key.
 * - the report: the `report` job makes it, stores it and enqueues its mail once
 *   (makeQueuedReport: queued → sent in the transaction that enqueues the mail). A job whose
 *   instance dies is given back by pg-boss (heartbeat) and finds the report made, or makes it.
 */

const log = observe("platform").logger.child({ component: "reports" });

/** When the clock ticks: every 5 minutes (a report goes out within 5 minutes of its hour). */
export const REPORT_TICK_CRON = "*/5 * * * *";

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config" | "mailer">;

/** Queues the reports owed at `now`: answers how many were queued by this call. */
export async function queueDueReports(deps: Deps, jobs: Pick<JobQueue, "send">, now = Date.now()): Promise<number> {
  const schedules = await deps.db
    .select({ scheduleId: reportSchedules.scheduleId, accountId: reportSchedules.accountId, cadence: reportSchedules.cadence, timeZone: reportSchedules.timeZone, hour: reportSchedules.hour, activeSince: reportSchedules.activeSince })
    .from(reportSchedules)
    .where(eq(reportSchedules.paused, false));
  let queued = 0;
  for (const s of schedules) {
    let due: ReturnType<typeof periodDue>;
    try {
      due = periodDue({ cadence: s.cadence as ReportCadence, timeZone: s.timeZone, hour: s.hour, activeSince: s.activeSince.getTime() }, now);
    } catch (error) {
      // A zone this runtime no longer knows: that schedule waits, the others go on.
      log.error({ err: error, schedule: s.scheduleId, timeZone: s.timeZone }, "could not compute the period of a report schedule");
      continue;
    }
    if (!due) continue;
    const start = new Date(due.period.start);
    const [exists] = await deps.db
      .select({ id: reportHistory.reportId })
      .from(reportHistory)
      .where(and(eq(reportHistory.scheduleId, s.scheduleId), eq(reportHistory.periodStart, start), eq(reportHistory.kind, "scheduled")));
    if (exists) continue;
    const made = await deps.db.transaction(async (tx) => {
      const reportId = newId("rpt");
      const rows = await tx
        .insert(reportHistory)
        .values({ reportId, accountId: s.accountId, scheduleId: s.scheduleId, kind: "scheduled", periodStart: start, periodEnd: new Date(due.period.end), periodLabel: due.period.label })
        .onConflictDoNothing({ target: [reportHistory.scheduleId, reportHistory.periodStart], where: sql`kind = 'scheduled'` })
        .returning({ id: reportHistory.reportId });
      if (!rows.length) return false;
      await jobs.send(queues.report.name, { report_id: reportId }, { tx, singletonKey: `${s.scheduleId}:${due.period.start}` });
      return true;
    });
    if (made) queued++;
  }
  if (queued) log.info({ queued }, "reports queued");
  return queued;
}

/** Takes the report jobs and runs the reports' clock on this instance. */
export async function workReports(jobs: JobQueue, deps: Deps): Promise<void> {
  await jobs.work<{ report_id: string }>(queues.report.name, async (job) => ({ report: await makeQueuedReport(deps, job.data.report_id) }));
  await jobs.work(queues.reportTick.name, async () => ({ queued: await queueDueReports(deps, jobs) }));
  await jobs.boss.schedule(queues.reportTick.name, REPORT_TICK_CRON, {});
  // At start: what was owed while no instance ran is queued now (the tick queue is a singleton).
  await jobs.send(queues.reportTick.name, {});
}
