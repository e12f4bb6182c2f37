import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { minutesText, n3, uptimeText, type OutageHistoryEntry, type OutageRecord, type SlaReport } from "../../platform/contract/availability.ts";
import { expect, expectAccessible, jsDisabled, opStateNow, ready, test, type Api } from "./fixtures.ts";

/*
 * Availability (issue #26 "Beyond the peers"), JavaScript on and off: the outage record page
 * (/outages/:id, shareable within the account, another account's not found), the SLA report page
 * and its PDF and CSV downloads (figures equal to the platform's get_sla_report, maintenance
 * excluded), the Outage History CSV; axe, and nothing sideways at 320 px.
 */

type Account = { username: string; password: string };
const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;
const thisMonth = () => new Date().toISOString().slice(0, 7);
const record404 = "Page Not Found";

async function cpe(api: Api, account: Account, name: string, entity?: string): Promise<string> {
  const r = await api(account, "POST", "create_cpe", {
    cpe_name: name,
    prod_code: "BN-CPE-500",
    site_address: "Rua Augusta 1, Lisbon",
    latitude: 38.71,
    longitude: -9.14,
    ...(entity ? { entity_name: entity } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cpe_id as string;
}

/** The seeded demo account: its devices' records began weeks ago (platform/domain/devices-seed.ts), so they have outages. */
const demo: Account = { username: "demo@linkwise.example", password: "demo-password-1" };

/**
 * A demo device whose last week holds an outage (the fleet gives each ~3 a month), and its history;
 * one that is up now: while a device is down, today's path stops where the outage's did, maybe
 * before the first hop. A device created by the test has none: its record starts at its creation.
 */
async function deviceWithOutage(api: Api) {
  const cpes = (await api(demo, "GET", "get_cpe")).body as { cpe_id: string; cpe_name: string }[];
  for (const c of cpes) {
    const history = (await api(demo, "GET", `get_outage_history?node_id=${c.cpe_id}&range=1w`)).body as OutageHistoryEntry[];
    const down = history.find((h) => h.status === "down");
    if (down && (await opStateNow(api, demo, c.cpe_id)) === "up") return { id: c.cpe_id, name: c.cpe_name, history, outageId: down.outage_id };
  }
  throw new Error("no demo device with an outage in the last week");
}

test("the outage record: the whole story on one page, shared within the account only; the Outage History CSV", async ({ page, signIn, api, request }) => {
  await signIn(demo);
  const { id, name, history, outageId } = await deviceWithOutage(api);
  const record = (await api(demo, "GET", `get_outage?outage_id=${outageId}`)).body as OutageRecord;

  await page.goto(`/outages/${outageId}`);
  await ready(page);
  await expect(page.getByRole("heading", { level: 1, name: `Outage of ${name}` })).toBeVisible();
  const what = page.getByRole("region", { name: "What happened" });
  await expect(what).toContainText(`Start${utc(record.start_time)}`);
  if (record.end_time) await expect(what).toContainText(`End${utc(record.end_time)}`);
  await expect(what).toContainText(record.self_diagnosis);
  await expect(page.getByRole("link", { name: `${name} (${id})` })).toHaveAttribute("href", `/routers?selected=${id}`);
  // The path then beside today's, hop by hop.
  const path = page.getByRole("table", { name: "The path at the time of failure beside today's path" });
  await expect(path.getByRole("columnheader")).toHaveText(["Hop", "At the time of failure", "Today"]);
  await expect(path.locator("tbody tr")).toHaveCount(Math.max(record.path_today.length, record.path_at_failure.length));
  await expect(path.locator("tbody tr").first()).toContainText(`${record.path_today[0]!.hostname ?? "Unknown Host"} (${record.path_today[0]!.ip ?? "No IP"})`);
  if (!record.affected.app_services.length && !record.affected.endpoints.length)
    await expect(page.getByRole("region", { name: "Affected" })).toContainText("No app service or endpoint is known to go through this device.");
  else for (const e of record.affected.endpoints) await expect(page.getByRole("region", { name: "Affected" })).toContainText(e);
  // The SLA impact in the outage's month: the minutes the month's SLA report counts for it.
  const report = (await api(demo, "GET", `get_sla_report?node_id=${id}&month=${record.sla_impact.month}`)).body as SlaReport;
  expect(report.outage_list.find((o) => o.outage_id === outageId)?.counted_minutes).toBe(record.sla_impact.minutes);
  await expect(page.getByRole("region", { name: "SLA impact" })).toContainText(`counted against ${record.sla_impact.month}`);
  await expect(page.getByRole("link", { name: `SLA report for ${record.sla_impact.month}` })).toHaveAttribute("href", `/sla?node_id=${id}&month=${record.sla_impact.month}`);
  // The post-mortem: the health tab's no-JS page and its PDF.
  await expect(page.getByRole("link", { name: "Read the post-mortem analysis" })).toHaveAttribute("href", `/main-dashboard/post-mortem/${outageId}?device=${id}`);
  await expect(page.getByText(`anyone signed in to this account can open`)).toContainText(`/outages/${outageId}`);
  await expectAccessible(page);
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await noSideways(page)).toBe(true);

  // The Outage History as CSV: the platform's rows.
  const csv = await page.request.get(`/outages/export.csv?node_id=${id}&range=1w`);
  expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe("Timestamp,Status,Self Diagnosis,Outage ID");
  expect(lines.slice(1).map((l) => l.split(",").pop())).toEqual(history.map((h) => h.outage_id));
  expect(lines[1]!.startsWith(`${utc(history[0]!.timestamp)},${history[0]!.status},`)).toBe(true);

  // Not signed in: the login page. An outage id of this device the fleet never had: not found.
  const anonymous = await request.get(`/outages/${outageId}`, { maxRedirects: 0 });
  expect([302, 303]).toContain(anonymous.status());
  expect((await page.goto(`/outages/${outageId.replace(/-r?\d+$/, "-99999")}`))?.status()).toBe(404);
});

test("another account's outage is not found", async ({ page, workerAccount, signIn, api }) => {
  const { outageId } = await deviceWithOutage(api);
  await signIn(workerAccount);
  const res = await page.goto(`/outages/${outageId}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText(record404)).toBeVisible();
});

test("the SLA report: page, PDF and CSV with the platform's figures (maintenance excluded)", async ({ page, account, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(account);
  const entity = `Lisbon ${Date.now().toString(36)}`;
  expect((await api(account, "POST", "create_entity", { entity_name: entity, description: "", parent_entity_name: "" })).status).toBe(200);
  const one = await cpe(api, account, "Lisbon shop", entity);
  // The depot's downtime (it has no maintenance) would grow between the page's, the API's, the CSV's
  // and the PDF's reads while it is down: a depot the network has up.
  let depot = await cpe(api, account, "Lisbon depot", entity);
  while ((await opStateNow(api, account, depot)) !== "up") {
    expect((await api(account, "POST", "remove_cpe", { cpe_id: depot })).status).toBe(200);
    depot = await cpe(api, account, "Lisbon depot", entity);
  }
  // Announced maintenance from the next hour on (an announcement may not start before now: issue 63 item 4).
  const thisHour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const refused = await api(account, "POST", "cpe_add_announcement", { cpe_id: one, start_time: new Date(thisHour).toISOString(), duration: 2 });
  expect(refused.status).toBe(422);
  const next = new Date(thisHour + 3_600_000).toISOString();
  expect((await api(account, "POST", "cpe_add_announcement", { cpe_id: one, start_time: next, duration: 2 })).status).toBe(200);
  const entityId = ((await api(account, "GET", "get_entity")).body as { entity_id: string; entity_name: string }[]).find((e) => e.entity_name === entity)!.entity_id;

  await page.goto("/sla");
  await ready(page);
  await expect(page.getByRole("heading", { level: 1, name: "SLA Report" })).toBeVisible();
  await page.getByLabel("Device or entity").selectOption({ label: entity });
  await page.getByLabel("Month (UTC)").selectOption(thisMonth());
  await page.getByRole("button", { name: "Show report" }).click();
  await expect(page).toHaveURL(new RegExp(`/sla\\?scope=entity_id%3A${entityId}&month=${thisMonth()}`));
  const report = (await api(account, "GET", `get_sla_report?entity_id=${entityId}&month=${thisMonth()}`)).body as SlaReport;
  const shown = page.getByTestId("sla-report");
  await expect(shown.getByRole("heading", { level: 2 })).toHaveText(`${entity} (entity ${entityId}), ${thisMonth()}`);
  await expect(shown.getByTestId("uptime-percent")).toHaveText(uptimeText(report));
  await expect(shown).toContainText("excl. maintenance");
  await expect(shown).toContainText(`Downtime${minutesText(report.downtime_minutes)}`);
  // The month runs to now: the minutes counted and of maintenance grow with the clock between two reads.
  const grown = (shownText: string | null | undefined, platform: number) => expect(Math.abs(Number(String(shownText).replace(/,/g, "")) - platform)).toBeLessThan(0.5);
  // Under a minute it reads in seconds (minutesText).
  const maintenance = /Announced maintenance([\d.,]+) (second|minute)s?/.exec((await shown.textContent()) ?? "");
  grown(maintenance?.[2] === "second" ? String(Number(maintenance[1]!.replace(/,/g, "")) / 60) : maintenance?.[1], report.maintenance_minutes);
  await expect(shown).toContainText("SLO 99.9 % ≈ 43.8 minutes a month");
  await expect(shown.getByRole("table", { name: "Devices of the entity" }).locator("tbody tr")).toHaveCount(2);
  await expectAccessible(page);

  // CSV: the entity's row, then each device's, as the platform has them.
  const csvHref = await shown.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toBe(`/sla/report.csv?entity_id=${entityId}&month=${thisMonth()}`);
  const csv = await page.request.get(csvHref!);
  expect(csv.headers()["content-disposition"]).toBe(`attachment; filename="sla-report-${entityId}-${thisMonth()}.csv"`);
  const rows = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .map((l) => l.split(","));
  expect(rows[0]).toEqual([
    "Scope",
    "ID",
    "Name",
    "Month",
    "Counted From (UTC)",
    "Counted To (UTC)",
    "Availability excl. maintenance (%)",
    "Downtime (minutes)",
    "Outages",
    "Announced Maintenance (minutes)",
    "Minutes Counted",
    "SLO (%)",
    "SLO Budget (minutes)",
    "SLO Met",
  ]);
  expect(rows).toHaveLength(1 + 1 + report.devices.length);
  type F = { uptime_percent: number | null; downtime_minutes: number; outages: number; maintenance_minutes: number; window_minutes: number; slo_budget_minutes: number };
  const same = (row: string[], f: F) => {
    expect([row[6], row[7], row[8], row[11]]).toEqual([String(f.uptime_percent ?? ""), String(f.downtime_minutes), String(f.outages), "99.9"]);
    grown(row[9], f.maintenance_minutes);
    grown(row[10], f.window_minutes);
    grown(row[12], f.slo_budget_minutes);
  };
  expect(rows[1]!.slice(0, 4)).toEqual(["entity", entityId, entity, thisMonth()]);
  same(rows[1]!, report);
  for (const [i, d] of report.devices.entries()) {
    expect(rows[2 + i]!.slice(0, 3)).toEqual(["device", d.node_id, d.name]);
    same(rows[2 + i]!, d);
  }

  // The PDF: one A4 page whose text holds the same figures.
  const pdfHref = await shown.getByRole("link", { name: "Download PDF" }).getAttribute("href");
  const pdf = await page.request.get(pdfHref!);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sla-")), "report.pdf");
  fs.writeFileSync(file, await pdf.body());
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  expect(info).toMatch(/Pages:\s+1\n/);
  expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
  expect(text).toContain(`SLA report: ${entity}`);
  expect(text).toContain(`Availability ${uptimeText(report)} (excl. maintenance)`);
  expect(text).toContain(`Downtime counted (minutes) ${n3(report.downtime_minutes)}`);
  grown(/Announced maintenance \(minutes\) ([\d.,]+)/.exec(text)?.[1], report.maintenance_minutes);
  expect(text).toContain(`Outages counted ${report.outages}`);
  expect(text).toContain("SLO 99.9 % ~ 43.8 minutes a month"); // Noto Sans has no ≈: the report spells it ~
  for (const d of report.devices) expect(text).toContain(d.node_id);

  await page.setViewportSize({ width: 320, height: 800 });
  expect(await noSideways(page)).toBe(true);
  if (noJs) return;
  // With JavaScript the form works the same (a GET, the URL holds the choice).
  await page.getByLabel("Device or entity").selectOption({ label: "Lisbon shop" });
  await page.getByRole("button", { name: "Show report" }).click();
  await expect(page.getByTestId("sla-report").getByRole("heading", { level: 2 })).toHaveText(`Lisbon shop (device ${one}), ${thisMonth()}`);
});

test("a month before a device's record says there is no monitoring data, not maintenance (issue 63 item 3)", async ({ page, account, signIn, api }) => {
  await signIn(account);
  const id = await cpe(api, account, "Lisbon kiosk");
  const last = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await page.goto(`/sla?node_id=${id}&month=${last}`);
  await ready(page);
  const shown = page.getByTestId("sla-report");
  await expect(shown.getByTestId("uptime-percent")).toHaveText("N/A: no monitoring data in that month");
  await expect(shown).toContainText("The device's record starts after this window: there is no monitoring data to count.");
  await expect(shown).not.toContainText("the whole window was announced maintenance");
  await expect(shown).toContainText("No outage this month.");
  await expectAccessible(page);
});
