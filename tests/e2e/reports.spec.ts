import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { simpleParser, type ParsedMail } from "mailparser";
import { dialog, expect, expectAccessible, jsDisabled, openRowMenu, ready, test, toast } from "./fixtures.ts";
import { startSmtpServer } from "../../platform/test/servers/smtp.ts";

/*
 * Service Reports (/reports, issue 58), end to end with and without JavaScript, on a console of
 * its own whose e-mail goes to a real SMTP server started here (smtp-server): a schedule created
 * through its dialog, its recipient confirming the link it is e-mailed, "Send now" received by the
 * SMTP server with the PDF and CSV attached; the PDF's text (pdftotext) says the SLA page's
 * figures for the same month, its fonts are embedded (pdffonts), the CSV parses strictly
 * (csv-parse); the history lists the report and downloads the same PDF; axe clean, nothing
 * scrolls sideways at 320 px; the schedule deleted.
 */

const PASSWORD = "demo-password-reports";
const DEMO = "demo@linkwise.example";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let console_: ChildProcess;
let base: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpServer();
  const port = await freePort();
  base = `http://localhost:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-e2e-reports-console-"));
  console_ = spawn(process.execPath, ["server.mjs", "./build/server/index.js"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, COOKIE_SECURE: "false", SEED_DEMO: "true", DEMO_PASSWORD: PASSWORD, CONSOLE_URL: base, SMTP_URL: smtp.url },
  });
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the reports console did not start on ${base}`);
});

test.afterAll(async () => {
  console_?.kill();
  await smtp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The messages to `to` whose subject holds `subject`, parsed (attachments decoded). */
async function mailsTo(to: string, subject: string): Promise<ParsedMail[]> {
  const parsed = await Promise.all(smtp.to(to).map((m) => simpleParser(m.raw)));
  return parsed.filter((m) => (m.subject ?? "").includes(subject));
}

function poppler(tool: "pdftotext" | "pdffonts", pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `e2e-report-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  try {
    fs.writeFileSync(file, pdf);
    return execFileSync(tool, tool === "pdftotext" ? ["-layout", file, "-"] : [file], { encoding: "utf8" });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

test("a schedule created, its recipient confirmed, Send now received by SMTP with the SLA page's figures, the history downloads the same PDF", async ({ page }) => {
  test.setTimeout(180_000);
  const noJs = jsDisabled();
  const name = `Monthly SLA ${noJs ? "no-js" : "js"} ${Date.now().toString(36)}`;
  const recipient = `noc-${noJs ? "nojs" : "js"}-${Date.now().toString(36)}@example.com`;

  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(DEMO);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));

  // Beside Operations in the side navigation.
  await page.goto(`${base}/reports`);
  await ready(page);
  await expect(page.getByRole("heading", { level: 1, name: "Service Reports" })).toBeVisible();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Service Reports" }).first()).toHaveAttribute("href", "/reports");
  await expectAccessible(page);

  // Created through its dialog; a refused zone is said beside its field first.
  await page.getByRole("link", { name: "Add Report Schedule" }).click();
  const create = dialog(page, "Add Report Schedule");
  await expect(create).toBeVisible();
  await create.getByLabel("Name").fill(name);
  await create.getByLabel("Time zone").fill("Mars/Olympus");
  await create.getByLabel("Recipients").fill(recipient);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(create.getByText("Enter an IANA time zone such as Europe/Berlin, or UTC.").first()).toBeVisible();
  await expectAccessible(page);
  await create.getByLabel("Time zone").fill("UTC");
  await create.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "Report schedule created.")).toBeVisible();
  const details = page.getByRole("region", { name: name });
  await expect(details).toContainText(`${recipient} (not confirmed)`);
  await expectAccessible(page);

  // The recipient confirms the link it was e-mailed (a page of its own, no sign-in needed).
  await expect.poll(async () => (await mailsTo(recipient, "confirm that you want to receive service reports")).length, { timeout: 30_000 }).toBe(1);
  const link = /(http\S+\/reports\/confirm\?token=[A-Za-z0-9_-]+)/.exec((await mailsTo(recipient, "confirm"))[0]!.text ?? "")?.[1];
  expect(link).toBeTruthy();
  const visitor = await page.context().browser()!.newPage({ javaScriptEnabled: !noJs });
  await visitor.goto(link!);
  await expect(visitor.getByRole("heading", { name: "Confirm your address" })).toBeVisible();
  await expectAccessible(visitor);
  await visitor.getByRole("button", { name: "Confirm" }).click();
  await expect(visitor.getByText("Address confirmed: it will receive the reports it is sent.")).toBeVisible();
  await visitor.close();

  // Send now: to the signed-in user only.
  await openRowMenu(page, name);
  await page.getByRole("button", { name: "Send now", exact: true }).click();
  await expect(toast(page, `The report was sent to ${DEMO}.`)).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => (await mailsTo(DEMO, name)).length, { timeout: 60_000 }).toBe(1);
  expect(await mailsTo(recipient, name)).toHaveLength(0);
  const mail = (await mailsTo(DEMO, name))[0]!;
  const month = /month (\d{4}-\d{2})/.exec(mail.subject ?? "")?.[1];
  expect(month).toMatch(/^\d{4}-\d{2}$/);
  expect(mail.text).toContain("Overall availability (excl. maintenance):");
  const pdf = mail.attachments.find((a) => a.contentType === "application/pdf")!.content;
  const csvText = mail.attachments.find((a) => (a.filename ?? "").endsWith(".csv"))!.content.toString("utf8");

  // The CSV, parsed strictly: each device's figures; two devices checked against the SLA page of the same month.
  const rows = parse(csvText, { bom: true, columns: true, relax_quotes: false, relax_column_count: false }) as Record<string, string>[];
  const devices = rows.filter((r) => r.Row === "device" && r["Availability excl. maintenance (%)"] !== "");
  expect(devices.length).toBeGreaterThan(1);
  const text = poppler("pdftotext", pdf).replace(/[ \t]+/g, " ");
  for (const row of devices.slice(0, 2)) {
    await page.goto(`${base}/sla?node_id=${row.ID}&month=${month}`);
    const shown = page.getByTestId("sla-report");
    await expect(shown).toBeVisible();
    const uptime = `${row["Availability excl. maintenance (%)"]} %`;
    await expect(shown).toContainText(uptime.replace(/^(\d+)(\d{3})/, "$1,$2"));
    expect(text).toContain(row.Name);
    expect(text).toContain(uptime);
  }
  // Every font embedded (the reports' fonts: platform/reports/pdf.ts).
  const fonts = poppler("pdffonts", pdf).split("\n").slice(2).filter((l) => l.trim());
  expect(fonts.length).toBeGreaterThan(0);
  // Soft: the rest of the test still runs when a font is not embedded.
  for (const line of fonts) expect.soft(line, line).toMatch(/\s(yes)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/);

  // The history lists it and downloads the same PDF.
  await page.goto(`${base}/reports`);
  await ready(page);
  await page.getByRole("link", { name, exact: true }).click();
  await ready(page);
  const history = page.getByRole("table", { name: `Reports of ${name}` });
  await expect(history).toContainText(month!);
  await expect(history).toContainText(`Send now (${DEMO})`);
  const pdfLink = history.getByRole("link", { name: `PDF of ${month}` });
  const href = await pdfLink.getAttribute("href");
  const downloaded = await page.request.get(`${base}${href}`);
  expect(downloaded.status()).toBe(200);
  expect(Buffer.from(await downloaded.body()).equals(pdf)).toBe(true);
  await expectAccessible(page);

  // A phone: nothing scrolls sideways at 320 px.
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await ready(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1366, height: 900 });

  // Deleted, confirmed by the phrase.
  await openRowMenu(page, name);
  await page.getByRole("link", { name: "Delete", exact: true }).click();
  const remove = dialog(page, "Delete Report Schedule");
  await expect(remove).toBeVisible();
  await remove.getByLabel("Type confirm to confirm").fill("confirm");
  await remove.getByRole("button", { name: "Delete Report Schedule" }).click();
  await expect(toast(page, "Report schedule removed.")).toBeVisible();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});
