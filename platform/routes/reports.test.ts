import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { n3, uptimeText, type SlaReport } from "../contract/availability.ts";
import { lastEndedPeriod, nextFiring } from "../domain/report-schedules-periods.ts";
import { queueDueReports } from "../domain/report-schedules-jobs.ts";
import { makeQueuedReport } from "../domain/report-schedules.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { openJobQueue, queues, type JobQueue } from "../jobs/queue.ts";
import { execRows } from "../lib/list.ts";
import { createTransport, queueMailer, workMailQueue } from "../mail/mailer.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { startSmtpServer } from "../test/servers/smtp.ts";
import { serviceCsvHeader } from "../reports/service-report.ts";

/*
 * Scheduled service reports (issue 58), on PGlite and PostgreSQL (TEST_DATABASE_URL): the schedule
 * calls and their rules (404 across accounts, 403 readonly, the change log), "Send now" with the
 * SLA report's figures in its PDF and CSV, the recipients' confirmation, and the job queue sending
 * exactly one report per schedule and period through a real SMTP server with two platform
 * instances and a restart around the firing time; a paused schedule sends nothing; a refused
 * address is on the history.
 */

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
const queuesOpen: JobQueue[] = [];
beforeAll(async () => {
  p = await testPlatform();
}, 300_000);
afterAll(async () => {
  for (const q of queuesOpen) await q.stop().catch(() => {});
});

const DAY = 86_400_000;
const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });
const unique = (what: string) => `${what}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

async function createCpe(a: TestAccount, name: string, entityName?: string): Promise<string> {
  const r = await post(a, "create_cpe", { cpe_name: name, prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney", latitude: -33.87, longitude: 151.21, ...(entityName ? { entity_name: entityName } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cpe_id as string;
}
const setCreatedAt = (table: "cpes" | "metros", id: string, at: number) =>
  p.deps.db.execute(sql`update ${sql.identifier(table)} set created_at = ${new Date(at).toISOString()}::timestamptz where ${sql.identifier(table === "cpes" ? "cpe_id" : "metro_id")} = ${id}`);

/** A real PNG of width × height (8-bit RGB, a gradient): the smallest valid file, made with zlib. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((1 + width * 3) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows.set([x * 6, y * 15, 200], y * (1 + width * 3) + 1 + x * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

function pdfText(pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `service-report-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  try {
    fs.writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const schedule = (over: Row = {}) => ({ name: "Monthly service", cadence: "monthly", time_zone: "UTC", hour: 6, content: ["outages", "maintenance", "activation_tests"], recipients: [], ...over });

describe("report schedules: the calls", () => {
  it("create, read, change, pause, resume and remove; refused input answers 422; each change is in the change log", async () => {
    const a = await p.newAccount();
    const created = await post(a, "create_report_schedule", schedule({ name: "Ops monthly", time_zone: "Europe/Berlin", hour: 7 }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.detail).toBe("Report schedule created.");
    const id = created.body.schedule_id as string;
    const one = await get(a, "get_report_schedule", { schedule_id: id });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: "Ops monthly", entity_id: null, cadence: "monthly", time_zone: "Europe/Berlin", hour: 7, paused: false, content: ["availability", "outages", "maintenance", "activation_tests"] });
    // The next firing: the 1st of next month, 07:00 in Berlin.
    const next = nextFiring({ cadence: "monthly", timeZone: "Europe/Berlin", hour: 7, activeSince: Date.parse(one.body.created_at) }, Date.now());
    expect(one.body.next_run_at).toBe(new Date(next).toISOString());

    const list = await get(a, "list_report_schedule");
    expect(list.body.map((s: Row) => s.schedule_id)).toEqual([id]);
    expect((await get(a, "list_report_schedule", { q: "ops", page: "1", size: "10" })).body.total).toBe(1);

    expect((await post(a, "update_report_schedule", { schedule_id: id, cadence: "weekly", name: "Ops weekly" })).body.detail).toBe("Report schedule updated.");
    expect((await post(a, "update_report_schedule", { schedule_id: id, paused: true })).body.detail).toBe("Report schedule paused.");
    const paused = (await get(a, "get_report_schedule", { schedule_id: id })).body;
    expect(paused).toMatchObject({ name: "Ops weekly", cadence: "weekly", paused: true, next_run_at: null });
    expect((await post(a, "update_report_schedule", { schedule_id: id, paused: false })).body.detail).toBe("Report schedule resumed.");

    const bad = await post(a, "create_report_schedule", schedule({ time_zone: "Mars/Olympus", hour: 24, cadence: "daily", recipients: ["not-an-address"] }));
    expect(bad.status).toBe(422);
    const messages = (bad.body.detail as Row[]).map((d) => d.msg);
    expect(messages).toEqual(expect.arrayContaining(["Enter an IANA time zone such as Europe/Berlin, or UTC.", "Hour must be a whole number from 0 to 23.", "Choose monthly or weekly."]));
    expect((await post(a, "create_report_schedule", schedule({ entity_name: "Nowhere" }))).body.detail).toBe("Entity Nowhere not found.");

    expect((await post(a, "remove_report_schedule", { schedule_id: id })).body.detail).toBe("Report schedule removed.");
    expect((await get(a, "get_report_schedule", { schedule_id: id })).status).toBe(404);

    const log = (await get(a, "get_api_log")).body as Row[];
    expect(log.map((e) => e.url_path)).toEqual(
      expect.arrayContaining(["/create_report_schedule", "/update_report_schedule", "/remove_report_schedule"]),
    );
    expect(log.find((e) => e.url_path === "/create_report_schedule" && e.status === 200)?.request_body).toMatchObject({ name: "Ops monthly" });
  });

  it("another account's schedule or report is not found (404); a readonly user reads the list, the history and the reports, and changes nothing (403)", async () => {
    const a = await p.newAccount();
    const other = await p.newAccount();
    const id = (await post(a, "create_report_schedule", schedule())).body.schedule_id as string;
    const sent = await post(a, "send_report_now", { schedule_id: id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const reportId = sent.body.report_id as string;

    for (const [call, body] of [
      ["update_report_schedule", { schedule_id: id, name: "Mine now" }],
      ["remove_report_schedule", { schedule_id: id }],
      ["send_report_now", { schedule_id: id }],
    ] as const) {
      const r = await post(other, call, body);
      expect(r.status, call).toBe(404);
      expect(r.body.detail).toBe("Report schedule not found");
    }
    expect((await get(other, "get_report_schedule", { schedule_id: id })).status).toBe(404);
    expect((await get(other, "list_report_history", { schedule_id: id })).status).toBe(404);
    expect((await get(other, `download_report/${reportId}`)).status).toBe(404);
    expect((await get(other, "list_report_schedule")).body).toEqual([]);

    const readonly = await p.newIamUser(a, "readonly");
    expect((await get(readonly, "list_report_schedule")).body.map((s: Row) => s.schedule_id)).toEqual([id]);
    expect((await get(readonly, "list_report_history", { schedule_id: id })).body.items.map((h: Row) => h.report_id)).toEqual([reportId]);
    const pdf = await p.app.fetch(new Request(`http://platform.test/api/v1/download_report/${reportId}`, { headers: { authorization: `Bearer ${readonly.token}` } }));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    for (const [call, body] of [
      ["create_report_schedule", schedule()],
      ["update_report_schedule", { schedule_id: id, paused: true }],
      ["remove_report_schedule", { schedule_id: id }],
      ["send_report_now", { schedule_id: id }],
    ] as const) {
      expect((await post(readonly, call, body)).status, call).toBe(403);
    }
  });
});

describe("Send now", () => {
  it("mails the last ended month to the signed-in user only, with the SLA report's figures in the PDF and the CSV; the history keeps it and downloads the same PDF", async () => {
    const a = await p.newAccount();
    const now = Date.now();
    const period = lastEndedPeriod("monthly", "UTC", now);
    // A device with a record over the whole month, and one created mid-month.
    const old = await createCpe(a, "Sydney Harbour");
    await setCreatedAt("cpes", old, period.start - 40 * DAY);
    const young = await createCpe(a, "Sydney Young");
    const mid = period.start + 14 * DAY + 3_600_000;
    await setCreatedAt("cpes", young, mid);
    const confirmedElsewhere = unique("ops");
    const id = (await post(a, "create_report_schedule", schedule({ name: "Sydney sites", recipients: [confirmedElsewhere] }))).body.schedule_id as string;
    const confirmMail = p.latestMail(confirmedElsewhere);
    expect(confirmMail, "the recipient is asked to confirm").toMatch(/confirm that you want to receive service reports/);

    const sent = await post(a, "send_report_now", { schedule_id: id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.detail).toBe(`The report was sent to ${a.username}.`);
    // The recipients get nothing from Send now: only the confirmation link.
    expect(p.latestMail(confirmedElsewhere)).toBe(confirmMail);

    const raw = p.latestMail(a.username);
    expect(raw).not.toBeNull();
    const mail = await simpleParser(raw!);
    expect(mail.subject).toBe(`Linkwise service report: Sydney sites, month ${period.label}`);
    expect(mail.text).toContain("Overall availability (excl. maintenance):");
    expect(mail.text).toContain(`/reports/${sent.body.report_id}/report.pdf`);
    const pdf = mail.attachments.find((x) => x.contentType === "application/pdf")!.content;
    const csvText = mail.attachments.find((x) => x.filename?.endsWith(".csv"))!.content.toString("utf8");

    // The SLA report of each device for the same (UTC) month: the same figures.
    const text = pdfText(pdf);
    for (const [nodeId, name] of [
      [old, "Sydney Harbour"],
      [young, "Sydney Young"],
    ]) {
      const sla = (await get(a, "get_sla_report", { node_id: nodeId, month: period.label })).body as Row;
      expect(text).toContain(name);
      expect(text).toContain(uptimeText(sla as SlaReport, true));
      const rows = parse(csvText, { bom: true, columns: true, relax_quotes: false, relax_column_count: false }) as Row[];
      const row = rows.find((r) => r.ID === nodeId)!;
      expect(row["Availability excl. maintenance (%)"]).toBe(sla.uptime_percent === null ? "" : String(sla.uptime_percent));
      expect(row["Downtime (minutes)"]).toBe(String(sla.downtime_minutes));
      expect(row["Minutes Counted"]).toBe(String(sla.window_minutes));
      expect(row["SLO Budget (minutes)"]).toBe(String(sla.slo_budget_minutes));
      expect(row["Counted From (UTC)"]).toBe(sla.devices[0].counted_from);
      expect(row["Outages"]).toBe(String(sla.outages));
      expect(n3(Number(row["Downtime (minutes)"]))).toBe(n3(sla.downtime_minutes));
    }
    // The device created mid-month is counted from its creation, and the report says so.
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Created during the period, counted from their creation");
    // The paragraph may break the id after its hyphen (pdftotext then reads a space there).
    expect(flat).toMatch(new RegExp(`Sydney Young \\(${young.replace("-", "- ?")}\\) from ${new Date(mid).toISOString().slice(0, 16).replace("T", " ")} UTC`));
    // Strict CSV (csv-parse without relaxing: quotes and column counts as RFC 4180 has them).
    const records = parse(csvText, { bom: true, relax_quotes: false, relax_column_count: false }) as string[][];
    expect(records[0]).toEqual([...serviceCsvHeader]);
    expect(records.filter((r) => r[0] === "device")).toHaveLength(2);

    const history = (await get(a, "list_report_history", { schedule_id: id })).body;
    expect(history.total).toBe(1);
    expect(history.items[0]).toMatchObject({ report_id: sent.body.report_id, kind: "now", state: "sent", period_label: period.label, requested_by: a.username, deliveries: [{ recipient: a.username, state: "queued", answer: null }] });
    const download = await p.app.fetch(new Request(`http://platform.test/api/v1/download_report/${sent.body.report_id}`, { headers: { authorization: `Bearer ${a.token}` } }));
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const csvDownload = await p.app.fetch(new Request(`http://platform.test/api/v1/download_report/${sent.body.report_id}?format=csv`, { headers: { authorization: `Bearer ${a.token}` } }));
    // The same bytes, the byte order mark first (Response.text() would drop it).
    const downloaded = Buffer.from(await csvDownload.arrayBuffer()).toString("utf8");
    expect(downloaded.length, downloaded.slice(0, 300)).toBe(csvText.length);
    expect(downloaded).toBe(csvText);
    expect(csvText.startsWith("\uFEFF")).toBe(true);
  });

  it("Send now pressed several times at once sends one report per press, each kept in the history, none lost", async () => {
    const a = await p.newAccount();
    await createCpe(a, "Parramatta");
    const id = (await post(a, "create_report_schedule", schedule({ name: "Pressed together" }))).body.schedule_id as string;
    const mailsTo = () => fs.readdirSync(p.outboxDir).filter((f) => f.endsWith(`-${a.username.replace(/[^a-zA-Z0-9@._-]/g, "_")}.eml`)).length;
    const before = mailsTo();
    const sent = await Promise.all(Array.from({ length: 4 }, () => post(a, "send_report_now", { schedule_id: id })));
    expect(sent.map((r) => r.status), JSON.stringify(sent.map((r) => r.body))).toEqual([200, 200, 200, 200]);
    const ids = sent.map((r) => r.body.report_id as string);
    expect(new Set(ids).size).toBe(4);
    expect(mailsTo() - before).toBe(4);
    const history = (await get(a, "list_report_history", { schedule_id: id })).body;
    expect(history.total).toBe(4);
    expect(new Set(history.items.map((h: Row) => h.report_id))).toEqual(new Set(ids));
    expect(history.items.every((h: Row) => h.kind === "now" && h.state === "sent")).toBe(true);
  });

  it("carries the account's logo when it is a PNG image, and is made without it when the logo cannot be read", async () => {
    const a = await p.newAccount();
    await createCpe(a, "Logo Site");
    const id = (await post(a, "create_report_schedule", schedule({ name: "With a logo" }))).body.schedule_id as string;
    const imagesOf = async () => {
      const sent = await post(a, "send_report_now", { schedule_id: id });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const download = await p.app.fetch(new Request(`http://platform.test/api/v1/download_report/${sent.body.report_id}`, { headers: { authorization: `Bearer ${a.token}` } }));
      const file = path.join(os.tmpdir(), `logo-report-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
      try {
        fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
        // poppler's pdfimages: one line per image drawn (page, size, type…) after its two header lines.
        return execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
      } finally {
        fs.rmSync(file, { force: true });
      }
    };
    expect(await imagesOf()).toHaveLength(0);
    const setLogo = (logo: string) => p.deps.db.execute(sql`update accounts set logo = ${logo} where account_id = ${a.accountId}`);
    await setLogo(`data:image/png;base64,${png(40, 16).toString("base64")}`);
    const images = await imagesOf();
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^\s*1\s+\d+\s+image\s+40\s+16\b/);
    // A logo pdfkit cannot read (not a PNG inside) and a remote address (never fetched): the report without it.
    await setLogo(`data:image/png;base64,${Buffer.from("not an image").toString("base64")}`);
    expect(await imagesOf()).toHaveLength(0);
    await setLogo("https://logo.example/logo.png");
    expect(await imagesOf()).toHaveLength(0);
  });

  it("names what was removed since the previous report, and an entity removed leaves the schedule working", async () => {
    const a = await p.newAccount();
    expect((await post(a, "create_entity", { entity_name: "Branch East", description: "", parent_entity_name: "" })).status).toBe(200);
    expect((await post(a, "create_entity", { entity_name: "Branch East Floor 2", description: "", parent_entity_name: "Branch East" })).status).toBe(200);
    const parentDevice = await createCpe(a, "East Lobby", "Branch East");
    const childDevice = await createCpe(a, "East Floor 2", "Branch East Floor 2");
    await createCpe(a, "Elsewhere");
    const id = (await post(a, "create_report_schedule", schedule({ name: "East", entity_name: "Branch East" }))).body.schedule_id as string;
    const first = await post(a, "send_report_now", { schedule_id: id });
    expect(first.status).toBe(200);
    const h1 = (await get(a, "list_report_history", { schedule_id: id })).body.items[0];
    // The entity and its child's devices, not the other one.
    expect(h1.summary.devices).toBe(2);

    // A scheduled report covers what the previous one did; remove a device and the entity.
    await p.deps.db.execute(sql`update report_history set kind = 'scheduled', period_start = period_start - interval '40 days' where report_id = ${first.body.report_id}`);
    expect((await post(a, "remove_cpe", { cpe_id: childDevice })).status).toBe(200);
    expect((await post(a, "remove_entity", { entity_id: (await get(a, "get_entity")).body.find((e: Row) => e.entity_name === "Branch East Floor 2").entity_id })).status).toBe(200);
    expect((await post(a, "remove_cpe", { cpe_id: parentDevice })).status).toBe(200);
    const branch = (await get(a, "get_entity")).body.find((e: Row) => e.entity_name === "Branch East");
    expect((await post(a, "remove_entity", { entity_id: branch.entity_id })).status).toBe(200);

    const listed = (await get(a, "get_report_schedule", { schedule_id: id })).body;
    expect(listed).toMatchObject({ entity_name: "Branch East", entity_removed: true });
    const second = await post(a, "send_report_now", { schedule_id: id });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const h2 = (await get(a, "list_report_history", { schedule_id: id })).body.items[0];
    expect(h2.summary.devices).toBe(0);
    expect(h2.summary.removed).toEqual(["the entity Branch East", `Internet NID East Floor 2 (${childDevice})`, `Internet NID East Lobby (${parentDevice})`].sort((x, y) => (x.startsWith("the entity") ? -1 : y.startsWith("the entity") ? 1 : x.localeCompare(y))));
    const pdf = Buffer.from(await (await p.app.fetch(new Request(`http://platform.test/api/v1/download_report/${second.body.report_id}`, { headers: { authorization: `Bearer ${a.token}` } }))).arrayBuffer());
    expect(pdfText(pdf)).toContain("Removed since the previous report");
  });
});

/** A platform instance on the shared test database: its own job queue handle (the schema shared by the instances of one "deployment"), its mail to `smtpUrl`. */
async function instance(schema: string, smtpUrl: string) {
  const jobs = await openJobQueue({
    database: p.database,
    databaseUrl: process.env.TEST_DATABASE_URL || undefined,
    schema,
    pollingSeconds: 0.5,
    superviseSeconds: 1,
    mailRetryDelaySeconds: 1,
    schedule: false,
  });
  queuesOpen.push(jobs);
  const deps = { ...p.deps, mailer: queueMailer(jobs) };
  const transport = createTransport({ smtpUrl, outboxDir: "/nonexistent", from: "Linkwise <no-reply@linkwise.example>", log: () => {} });
  await workMailQueue(jobs, p.deps.db, transport, { log: () => {} });
  await jobs.work<{ report_id: string }>(queues.report.name, async (job) => ({ report: await makeQueuedReport(deps, job.data.report_id) }));
  return { jobs, deps, stop: () => jobs.stop() };
}

describe("scheduled reports on the job queue, through a real SMTP server", () => {
  it("two instances and a restart around the firing time send one report per period, to confirmed recipients only, in Bcc; a refused address is on the history; a paused schedule sends none", async () => {
    const smtp = await startSmtpServer(0, { unknownUsers: ["gone@example.com"] });
    const schema = `jobs_reports_${Math.random().toString(36).slice(2, 8)}`;
    try {
      const a = await p.newAccount();
      await createCpe(a, "Berlin Mitte");
      const confirmed = unique("noc");
      const unconfirmed = unique("cfo");
      const id = (await post(a, "create_report_schedule", schedule({ name: "Berlin", time_zone: "Europe/Berlin", hour: 0, recipients: [confirmed, unconfirmed, "gone@example.com"] }))).body.schedule_id as string;
      const pausedId = (await post(a, "create_report_schedule", schedule({ name: "Paused", recipients: [confirmed] }))).body.schedule_id as string;
      expect((await post(a, "update_report_schedule", { schedule_id: pausedId, paused: true })).status).toBe(200);

      // Two of the three confirm their link (the console's confirm page posts the token).
      for (const who of [confirmed, "gone@example.com"]) {
        const link = (await simpleParser(p.latestMail(who) ?? "")).text ?? "";
        const token = /\/reports\/confirm\?token=([A-Za-z0-9_-]+)/.exec(link)?.[1];
        expect(token, `a link for ${who}`).toBeTruthy();
        const r = await p.call("POST", "confirm_report_recipient", { body: { token } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.detail).toBe("Address confirmed: it will receive the reports it is sent.");
        // A link works once.
        expect((await p.call("POST", "confirm_report_recipient", { body: { token } })).status).toBe(400);
      }
      expect((await get(a, "get_report_schedule", { schedule_id: id })).body.recipients).toEqual([
        { email: confirmed, confirmed: true },
        { email: unconfirmed, confirmed: false },
        { email: "gone@example.com", confirmed: true },
      ]);

      // The firing time of this month's report, Berlin midnight on the 1st: the platform instances tick around it.
      const created = Date.parse((await get(a, "get_report_schedule", { schedule_id: id })).body.created_at);
      const firesAt = nextFiring({ cadence: "monthly", timeZone: "Europe/Berlin", hour: 0, activeSince: created }, created);
      const one = await instance(schema, smtp.url);
      const two = await instance(schema, smtp.url);
      // The other tests' schedules share the database: count this schedule's reports.
      const reportsOf = async (scheduleId: string) => Number((await execRows<{ n: number }>(p.deps.db, sql`select count(*)::int as n from report_history where schedule_id = ${scheduleId}`))[0]!.n);
      // Before the hour: nothing.
      await queueDueReports(one.deps, one.jobs, firesAt - 60_000);
      expect(await reportsOf(id)).toBe(0);
      // At the hour, both instances at once.
      await Promise.all([queueDueReports(one.deps, one.jobs, firesAt + 1_000), queueDueReports(two.deps, two.jobs, firesAt + 2_000)]);
      expect(await reportsOf(id)).toBe(1);
      // One instance restarts (stopped, a new one on the same queue), and ticks late: the platform was down at midnight.
      await one.stop();
      const three = await instance(schema, smtp.url);
      await queueDueReports(three.deps, three.jobs, firesAt + 3 * 3_600_000);
      await queueDueReports(two.deps, two.jobs, firesAt + 10 * DAY);
      expect(await reportsOf(id)).toBe(1);

      await expect.poll(() => smtp.to(confirmed).length, { timeout: 30_000, interval: 250 }).toBe(1);
      await expect.poll(async () => (await get(a, "list_report_history", { schedule_id: id })).body.items[0]?.deliveries.find((d: Row) => d.recipient === "gone@example.com")?.state, { timeout: 30_000, interval: 250 }).toBe("refused");
      // Give any duplicate time to show up, then count.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(smtp.to(confirmed)).toHaveLength(1);
      expect(smtp.to(unconfirmed)).toHaveLength(0);
      const history = (await get(a, "list_report_history", { schedule_id: id })).body;
      expect(history.total).toBe(1);
      const label = lastEndedPeriod("monthly", "Europe/Berlin", firesAt + 1_000).label;
      expect(history.items[0]).toMatchObject({ kind: "scheduled", state: "sent", period_label: label });
      expect(history.items[0].deliveries).toEqual([
        { recipient: "gone@example.com", state: "refused", answer: expect.stringMatching(/^550/) },
        { recipient: confirmed, state: "queued", answer: null },
      ]);
      // Bcc: the message names no recipient in To.
      const message = smtp.to(confirmed)[0]!;
      expect(message.to).toEqual([confirmed]);
      expect(message.raw).not.toMatch(/^To:/m);
      expect(message.raw).not.toContain(unconfirmed);
      // Paused: nothing queued, nothing sent.
      expect((await get(a, "list_report_history", { schedule_id: pausedId })).body.total).toBe(0);
      expect(await reportsOf(pausedId)).toBe(0);
    } finally {
      await smtp.close();
    }
  }, 90_000);
});

void fleetOf;
