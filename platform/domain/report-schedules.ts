import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { reportDeliveries, reportHistory, reportRecipients, reportSchedules } from "../db/schema.ts";
import {
  RECIPIENT_LINK_DAYS,
  reportContents,
  reportMessages,
  type ReportCadence,
  type ReportContent,
  type ReportHistoryEntry,
  type ReportSchedule,
  type ReportScheduleSortColumn,
  type ReportSummary,
} from "../contract/report-schedules.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import { randomToken, sha256 } from "../lib/crypto.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, execRows, inIds, isoText, listTable, type ListQuery } from "../lib/list.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { entityNameNotFound, findEntityByName } from "./entities.ts";
import { readServiceReport, type ServiceReportData } from "./report-schedules-make.ts";
import { lastEndedPeriod, nextFiring, periodContaining, type ReportPeriod } from "./report-schedules-periods.ts";
import { headline, renderServiceReportCsv, renderServiceReportPdf } from "../reports/service-report.ts";

/*
 * Report schedules (issue 58): what an account reports, how often, to whom; the addresses'
 * confirmations; the history of the reports made, with their PDF and CSV. Every function takes the
 * caller's account id; another account's schedule or report is "not found" (404). The firing itself
 * (the job queue) is domain/report-schedules-jobs.ts.
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config" | "mailer">;

export const scheduleNotFound = () => notFound(reportMessages.scheduleNotFound);
export const reportNotFound = () => notFound(reportMessages.reportNotFound);

export interface ScheduleFields {
  name: string;
  /** '' (or absent): the whole account. */
  entity_name?: string;
  content: ReportContent[];
  cadence: ReportCadence;
  time_zone: string;
  hour: number;
  recipients: string[];
}

/** Availability always; the rest as chosen, in the contract's order. */
const normaliseContent = (content: readonly string[]): ReportContent[] => reportContents.filter((c) => c === "availability" || content.includes(c));
const normaliseRecipients = (list: readonly string[]) => [...new Set(list.map((e) => e.trim().toLowerCase()).filter(Boolean))];

async function entityOf(db: DbOrTx, accountId: string, name: string | undefined): Promise<{ entityId: string | null; entityName: string | null }> {
  if (!name) return { entityId: null, entityName: null };
  const e = await findEntityByName(db, accountId, name);
  if (!e) throw entityNameNotFound(name);
  return { entityId: e.entityId, entityName: e.entityName };
}

/* ---- Recipients and their confirmation ---------------------------------------------------- */

/** A new link is sent to an unconfirmed address at most this often. */
const RESEND_AFTER_MS = 10 * 60_000;

/**
 * Each address of the schedule that is new to the account, or unconfirmed with no recent link,
 * gets a confirmation link (in the caller's transaction: the link exists exactly when the change does).
 */
async function askConfirmations(deps: Deps, tx: DbOrTx, accountId: string, emails: readonly string[], now: number) {
  for (const email of emails) {
    await tx.insert(reportRecipients).values({ accountId, email }).onConflictDoNothing();
    const token = randomToken(24);
    const rows = await tx
      .update(reportRecipients)
      .set({ tokenHash: sha256(token), linkSentAt: new Date(now), linkExpiresAt: new Date(now + RECIPIENT_LINK_DAYS * 86_400_000) })
      .where(
        and(
          eq(reportRecipients.accountId, accountId),
          eq(reportRecipients.email, email),
          sql`confirmed_at is null and (link_sent_at is null or link_sent_at < ${new Date(now - RESEND_AFTER_MS).toISOString()}::timestamptz)`,
        ),
      )
      .returning({ email: reportRecipients.email });
    if (!rows.length) continue;
    const link = `${deps.config.consoleUrl.replace(/\/+$/, "")}/reports/confirm?token=${encodeURIComponent(token)}`;
    await deps.mailer.send(
      {
        to: email,
        subject: `${deps.config.productName}: confirm that you want to receive service reports`,
        text: `Someone using ${deps.config.productName} asked for service reports to be sent to this address.\n\nConfirm that you want to receive them (the link works for ${RECIPIENT_LINK_DAYS} days):\n${link}\n\nIf you did not expect this, ignore this message: nothing will be sent to you.\n`,
      },
      { tx, accountId, expiresAt: new Date(now + RECIPIENT_LINK_DAYS * 86_400_000) },
    );
  }
}

/** confirm_report_recipient: the link's token, once, before it expires. */
export async function confirmRecipient(db: Db, token: string, now = Date.now()): Promise<void> {
  const rows = await db
    .update(reportRecipients)
    .set({ confirmedAt: new Date(now), tokenHash: null })
    .where(and(eq(reportRecipients.tokenHash, sha256(token)), sql`link_expires_at > ${new Date(now).toISOString()}::timestamptz`))
    .returning({ email: reportRecipients.email });
  if (!rows.length) throw new ApiError(400, reportMessages.confirmInvalid);
}

/** The confirmed addresses among these, of the account. */
export async function confirmedOf(db: DbOrTx, accountId: string, emails: readonly string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const rows = await execRows<{ email: string }>(
    db,
    sql`select email from report_recipients where account_id = ${accountId} and confirmed_at is not null and ${inIds(sql`email`, emails)}`,
  );
  return new Set(rows.map((r) => r.email));
}

/* ---- The list ------------------------------------------------------------------------------ */

interface ScheduleRow {
  schedule_id: string;
  name: string;
  entity_id: string | null;
  entity_name: string | null;
  entity_exists: boolean;
  current_entity_name: string | null;
  content: ReportContent[];
  cadence: ReportCadence;
  time_zone: string;
  hour: number;
  recipients: string[];
  paused: boolean;
  active_since: string;
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

async function scheduleRows(db: DbOrTx, accountId: string, ids: string[], now = Date.now()): Promise<ReportSchedule[]> {
  const rows = await execRows<ScheduleRow>(
    db,
    sql`select s.schedule_id, s.name, s.entity_id, s.entity_name, (e.entity_id is not null) as entity_exists, e.entity_name as current_entity_name,
          s.content, s.cadence, s.time_zone, s.hour, s.recipients, s.paused, ${isoText(sql`s.active_since`)} as active_since,
          (select ${isoText(sql`max(h.made_at)`)} from report_history h where h.schedule_id = s.schedule_id and h.state = 'sent') as last_sent_at,
          ${isoText(sql`s.created_at`)} as created_at, ${isoText(sql`s.updated_at`)} as updated_at
        from report_schedules s left join entities e on e.entity_id = s.entity_id and e.account_id = s.account_id
        where s.account_id = ${accountId} and ${inIds(sql`s.schedule_id`, ids)}`,
  );
  const confirmed = await confirmedOf(db, accountId, [...new Set(rows.flatMap((r) => r.recipients))]);
  return rows.map((r) => ({
    schedule_id: r.schedule_id,
    name: r.name,
    entity_id: r.entity_id,
    entity_name: r.current_entity_name ?? r.entity_name,
    entity_removed: r.entity_id !== null && !r.entity_exists,
    content: r.content,
    cadence: r.cadence,
    time_zone: r.time_zone,
    hour: r.hour,
    recipients: r.recipients.map((email) => ({ email, confirmed: confirmed.has(email) })),
    paused: r.paused,
    next_run_at: r.paused ? null : new Date(nextFiring({ cadence: r.cadence, timeZone: r.time_zone, hour: r.hour, activeSince: Date.parse(r.active_since) }, now)).toISOString(),
    last_sent_at: r.last_sent_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

export const scheduleList = defineList<ReportSchedule, ReportScheduleSortColumn>({
  ...listTable("report_schedules", "s", "schedule_id"),
  search: [sql`lower(s.name || ' ' || coalesce(s.entity_name, '') || ' ' || s.cadence || ' ' || s.time_zone || ' ' || s.recipients::text)`],
  sortable: { ...columns("text", "s", ["name", "cadence", "time_zone"]), ...columns("time", "s", ["created_at"]) },
  defaultSort: "name",
  rows: (db, accountId, ids) => scheduleRows(db, accountId, ids),
  idOf: (r) => r.schedule_id,
  notFound: scheduleNotFound,
  async all(db, accountId): Promise<ReportSchedule[]> {
    const ids = await execRows<{ id: string }>(db, sql`select schedule_id as id from report_schedules where account_id = ${accountId} order by lower(name), schedule_id`);
    const rows = await scheduleRows(db, accountId, ids.map((r) => r.id));
    const order = new Map(ids.map((r, i) => [r.id, i]));
    return rows.sort((a, b) => order.get(a.schedule_id)! - order.get(b.schedule_id)!);
  },
  // The next firing moves with the clock: never from the read cache.
  cached: false,
});

/* ---- Changes -------------------------------------------------------------------------------- */

export async function createSchedule(deps: Deps, accountId: string, input: ScheduleFields, now = Date.now()): Promise<string> {
  const scheduleId = newId("rps");
  const recipients = normaliseRecipients(input.recipients);
  await deps.db.transaction(async (tx) => {
    const { entityId, entityName } = await entityOf(tx, accountId, input.entity_name);
    await tx.insert(reportSchedules).values({
      scheduleId,
      accountId,
      name: input.name,
      entityId,
      entityName,
      content: normaliseContent(input.content),
      cadence: input.cadence,
      timeZone: input.time_zone,
      hour: input.hour,
      recipients,
      activeSince: new Date(now),
    });
    await askConfirmations(deps, tx, accountId, recipients, now);
  });
  return scheduleId;
}

async function lockedSchedule(tx: DbOrTx, accountId: string, scheduleId: string) {
  const [row] = await tx
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.accountId, accountId), eq(reportSchedules.scheduleId, scheduleId)))
    .for("update");
  if (!row) throw scheduleNotFound();
  return row;
}

/**
 * update_report_schedule: the fields given change, the others stay. A new period rule (cadence,
 * zone, hour) or a resume starts counting again from now: a period whose firing time has passed is
 * not sent late because of the change.
 */
export async function updateSchedule(deps: Deps, accountId: string, scheduleId: string, input: Partial<ScheduleFields> & { paused?: boolean }, now = Date.now()): Promise<"updated" | "paused" | "resumed"> {
  return deps.db.transaction(async (tx) => {
    const s = await lockedSchedule(tx, accountId, scheduleId);
    const set: Partial<typeof reportSchedules.$inferInsert> = { updatedAt: new Date(now) };
    if (input.name !== undefined) set.name = input.name;
    if (input.entity_name !== undefined) Object.assign(set, await entityOf(tx, accountId, input.entity_name));
    if (input.content !== undefined) set.content = normaliseContent(input.content);
    if (input.cadence !== undefined) set.cadence = input.cadence;
    if (input.time_zone !== undefined) set.timeZone = input.time_zone;
    if (input.hour !== undefined) set.hour = input.hour;
    let recipients: string[] = [];
    if (input.recipients !== undefined) set.recipients = recipients = normaliseRecipients(input.recipients);
    if (input.paused !== undefined) set.paused = input.paused;
    const newRule = (input.cadence !== undefined && input.cadence !== s.cadence) || (input.time_zone !== undefined && input.time_zone !== s.timeZone) || (input.hour !== undefined && input.hour !== s.hour);
    const resumed = s.paused && input.paused === false;
    if (newRule || resumed) set.activeSince = new Date(now);
    await tx.update(reportSchedules).set(set).where(and(eq(reportSchedules.accountId, accountId), eq(reportSchedules.scheduleId, scheduleId)));
    await askConfirmations(deps, tx, accountId, recipients, now);
    const onlyPause = Object.keys(input).every((k) => k === "paused");
    return onlyPause && input.paused !== undefined ? (input.paused ? "paused" : "resumed") : "updated";
  });
}

export async function removeSchedule(db: Db, accountId: string, scheduleId: string): Promise<void> {
  const rows = await db
    .delete(reportSchedules)
    .where(and(eq(reportSchedules.accountId, accountId), eq(reportSchedules.scheduleId, scheduleId)))
    .returning({ id: reportSchedules.scheduleId });
  if (!rows.length) throw scheduleNotFound();
}

/* ---- Making and sending a report ----------------------------------------------------------- */

const fileBase = (s: { name: string }, period: ReportPeriod) => `service-report-${s.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "report"}-${period.label}`;

/** The summary the history lists. */
const summaryOf = (r: ServiceReportData): ReportSummary => ({
  uptime_percent: r.overall.uptime_percent,
  slo_met: r.overall.slo_met,
  devices: r.covered.length,
  outages: r.overall.outages,
  removed: r.removed,
});

/** The e-mail of a report: the headline figures in plain text, links to the report in the console, the PDF and CSV attached. */
export function reportMail(r: ServiceReportData, reportId: string, scheduleId: string, pdf: Buffer, csv: string, to: string, blind: boolean, period: ReportPeriod): MailMessage {
  const what = r.period.cadence === "monthly" ? `month ${r.period.label}` : `week ${r.period.label} (${r.period.firstDay} to ${r.period.lastDay})`;
  const base = fileBase({ name: r.scheduleName }, period);
  return {
    to,
    blind,
    subject: `${r.productName} service report: ${r.scheduleName}, ${what}`,
    text: [
      `Service report "${r.scheduleName}" for the ${what} (${r.period.timeZone}).`,
      "",
      ...headline(r),
      ...(r.removed.length ? ["", `Removed since the previous report: ${r.removed.join("; ")}.`] : []),
      "",
      `The report in the console: ${r.consoleUrl}/reports/${encodeURIComponent(reportId)}/report.pdf`,
      `The schedule and its history: ${r.consoleUrl}/reports?selected=${encodeURIComponent(scheduleId)}`,
      "",
      "The PDF and the CSV of the tables are attached.",
      "",
    ].join("\n"),
    attachments: [
      { filename: `${base}.pdf`, contentType: "application/pdf", base64: pdf.toString("base64") },
      { filename: `${base}.csv`, contentType: "text/csv; charset=utf-8", base64: Buffer.from(csv, "utf8").toString("base64") },
    ],
  };
}

type ScheduleRecord = typeof reportSchedules.$inferSelect;

/** The CSV is stored without its byte order mark (PGlite's text decoding drops it) and served with it. */
const BOM = "\uFEFF";
const withoutBom = (csv: string) => (csv.startsWith(BOM) ? csv.slice(1) : csv);

/** What the schedule's last report covered (its removed devices are named in the next one). */
async function previousCoverage(db: DbOrTx, scheduleId: string, before: Date): Promise<{ id: string; name: string }[] | null> {
  const [row] = await db
    .select({ devices: reportHistory.devices })
    .from(reportHistory)
    .where(and(eq(reportHistory.scheduleId, scheduleId), eq(reportHistory.state, "sent"), eq(reportHistory.kind, "scheduled"), sql`period_start < ${before.toISOString()}::timestamptz`))
    .orderBy(desc(reportHistory.periodStart))
    .limit(1);
  return row?.devices ?? null;
}

/** Reads and renders the report of a schedule over a period. */
export async function makeReport(deps: Deps, s: ScheduleRecord, period: ReportPeriod, now: number) {
  const data = await readServiceReport(
    deps,
    { accountId: s.accountId, name: s.name, entityId: s.entityId, entityName: s.entityName, content: s.content as ReportContent[], timeZone: s.timeZone },
    period,
    await previousCoverage(deps.db, s.scheduleId, new Date(period.start)),
    now,
  );
  const pdf = await renderServiceReportPdf(data);
  const csv = renderServiceReportCsv(data);
  return { data, pdf, csv };
}

/**
 * send_report_now: the last period that has ended, made now and mailed to the signed-in user only
 * (their sign-in address: no confirmation needed). Kept in the history like the others.
 */
export async function sendReportNow(deps: Deps, who: Caller, scheduleId: string, now = Date.now()): Promise<{ report_id: string; email: string }> {
  const [s] = await deps.db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.accountId, who.accountId), eq(reportSchedules.scheduleId, scheduleId)));
  if (!s) throw scheduleNotFound();
  const email = (who.iamUsername ?? who.accountUsername).trim().toLowerCase();
  if (!email.includes("@")) throw new ApiError(409, reportMessages.noRecipientForNow);
  const period = lastEndedPeriod(s.cadence as ReportCadence, s.timeZone, now);
  const { data, pdf, csv } = await makeReport(deps, s, period, now);
  const reportId = newId("rpt");
  await deps.db.transaction(async (tx) => {
    await tx.insert(reportHistory).values({
      reportId,
      accountId: who.accountId,
      scheduleId,
      kind: "now",
      periodStart: new Date(period.start),
      periodEnd: new Date(period.end),
      periodLabel: period.label,
      state: "sent",
      requestedBy: email,
      summary: summaryOf(data),
      devices: data.covered,
      pdf,
      csv: withoutBom(csv),
      madeAt: new Date(now),
    });
    const jobId = await deps.mailer.send(reportMail(data, reportId, scheduleId, pdf, csv, email, false, period), { tx, accountId: who.accountId });
    await tx.insert(reportDeliveries).values({ reportId, recipient: email, jobId: typeof jobId === "string" ? jobId : null });
  });
  return { report_id: reportId, email };
}

/**
 * A queued scheduled report (the job of domain/report-schedules-jobs.ts): made, stored and mailed
 * to the schedule's confirmed recipients, each in Bcc of a message of its own (retried and refused
 * one by one by the mail queue). The state moves queued → sent in one statement, in the transaction
 * that enqueues the mail: of two instances holding the same job, one sends, the other finds it done.
 * A schedule paused (or removed) meanwhile sends nothing.
 */
export async function makeQueuedReport(deps: Deps, reportId: string, now = Date.now()): Promise<"sent" | "cancelled" | "done already"> {
  const [h] = await deps.db.select().from(reportHistory).where(eq(reportHistory.reportId, reportId));
  if (!h || h.state !== "queued") return "done already";
  const [s] = await deps.db.select().from(reportSchedules).where(eq(reportSchedules.scheduleId, h.scheduleId));
  if (!s || s.paused) {
    await deps.db.update(reportHistory).set({ state: "cancelled", madeAt: new Date(now) }).where(and(eq(reportHistory.reportId, reportId), eq(reportHistory.state, "queued")));
    return "cancelled";
  }
  // The period as it was queued (its instants are the job's key), its days as the zone names them.
  const days = periodContaining(s.cadence as ReportCadence, s.timeZone, h.periodStart.getTime());
  const period: ReportPeriod = { ...days, start: h.periodStart.getTime(), end: h.periodEnd.getTime(), label: h.periodLabel };
  const { data, pdf, csv } = await makeReport(deps, s, period, now);
  const recipients = s.recipients.filter((e) => e);
  return deps.db.transaction(async (tx) => {
    const done = await tx
      .update(reportHistory)
      .set({ state: "sent", summary: summaryOf(data), devices: data.covered, pdf, csv: withoutBom(csv), madeAt: new Date(now) })
      .where(and(eq(reportHistory.reportId, reportId), eq(reportHistory.state, "queued")))
      .returning({ id: reportHistory.reportId });
    if (!done.length) return "done already" as const;
    const confirmed = await confirmedOf(tx, s.accountId, recipients);
    for (const email of recipients.filter((e) => confirmed.has(e))) {
      const jobId = await deps.mailer.send(reportMail(data, reportId, s.scheduleId, pdf, csv, email, true, period), { tx, accountId: s.accountId });
      await tx.insert(reportDeliveries).values({ reportId, recipient: email, jobId: typeof jobId === "string" ? jobId : null });
    }
    return "sent" as const;
  });
}

/* ---- History and downloads ------------------------------------------------------------------ */

interface HistoryRow {
  report_id: string;
  schedule_id: string;
  kind: "scheduled" | "now";
  period_label: string;
  period_start: string;
  period_end: string;
  state: "queued" | "sent" | "cancelled";
  requested_by: string | null;
  created_at: string;
  made_at: string | null;
  summary: ReportSummary | null;
}

/** list_report_history: a schedule's reports, newest first, each with its deliveries (a refusal with the server's answer). */
export async function reportHistoryPage(db: DbOrTx, accountId: string, scheduleId: string, page = 1, size = 10): Promise<{ items: ReportHistoryEntry[]; total: number }> {
  const [own] = await execRows<{ n: number }>(db, sql`select count(*)::int as n from report_schedules where account_id = ${accountId} and schedule_id = ${scheduleId}`);
  if (!own?.n) throw scheduleNotFound();
  const [count] = await execRows<{ n: number }>(db, sql`select count(*)::int as n from report_history where account_id = ${accountId} and schedule_id = ${scheduleId}`);
  const rows = await execRows<HistoryRow>(
    db,
    sql`select report_id, schedule_id, kind, period_label, ${isoText(sql`period_start`)} as period_start, ${isoText(sql`period_end`)} as period_end, state, requested_by,
          ${isoText(sql`created_at`)} as created_at, ${isoText(sql`made_at`)} as made_at, summary
        from report_history where account_id = ${accountId} and schedule_id = ${scheduleId}
        order by created_at desc, report_id desc limit ${size} offset ${(page - 1) * size}`,
  );
  const deliveries = rows.length
    ? await execRows<{ report_id: string; recipient: string; answer: string | null }>(
        db,
        sql`select d.report_id, d.recipient, r.answer from report_deliveries d left join mail_rejections r on r.job_id = d.job_id
            where ${inIds(sql`d.report_id`, rows.map((r) => r.report_id))} order by d.recipient`,
      )
    : [];
  return {
    total: Number(count?.n ?? 0),
    items: rows.map((r) => ({
      ...r,
      deliveries: deliveries.filter((d) => d.report_id === r.report_id).map((d) => ({ recipient: d.recipient, state: d.answer ? ("refused" as const) : ("queued" as const), answer: d.answer })),
    })),
  };
}

/** download_report/{id}: the stored PDF (or CSV) of a report made. */
export async function reportFile(db: DbOrTx, accountId: string, reportId: string, format: "pdf" | "csv"): Promise<{ body: Buffer; fileName: string; contentType: string }> {
  const [row] = await db
    .select({ pdf: reportHistory.pdf, csv: reportHistory.csv, label: reportHistory.periodLabel, name: reportSchedules.name })
    .from(reportHistory)
    .innerJoin(reportSchedules, eq(reportSchedules.scheduleId, reportHistory.scheduleId))
    .where(and(eq(reportHistory.accountId, accountId), eq(reportHistory.reportId, reportId)));
  if (!row || !row.pdf || row.csv === null) throw reportNotFound();
  const base = fileBase(row, { label: row.label } as ReportPeriod);
  return format === "pdf"
    ? { body: row.pdf, fileName: `${base}.pdf`, contentType: "application/pdf" }
    : { body: Buffer.from(BOM + row.csv, "utf8"), fileName: `${base}.csv`, contentType: "text/csv; charset=utf-8; header=present" };
}

export type { ListQuery };
