import type { Page, Request } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, expectAccessible, jsDisabled, ready, test, toast } from "./fixtures.ts";
import { analysisProgress, refreshUntilAnalysed } from "./pcap-helpers.ts";

/*
 * The PCAP Analyzer (spec 1 §2 'PCAP Analyzer dialog', §3, §4 'PCAP flow', §5, §8 'Upload', §9),
 * the dialog reachable by URL at /pcap-analyzer. With JavaScript: pick a file → upload URL → PUT
 * with a progress bar → the analysis' progress (a job on the platform's queue), followed by the
 * page → results. Without: the multipart form streamed through the console → the analysis'
 * progress with Refresh → results. Both: sessions table, degraded-flow bar, report dialog with
 * preview, zoom and Download.
 */

const capture = path.resolve(process.cwd(), "tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");
const expected = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), "tests/fixtures/pcaps/expected/tcpdump-ssh.json"), "utf8")) as {
  packets: number;
  conversations: unknown[];
};

const TOO_LARGE =
  "Sorry, we can only accept file size less than 10GB at this time. You may filter this pcap file with a wireshark to reduce its size and try again.";

const analyzer = (page: Page) => page.getByTestId("pcap-analyzer");
const sessions = (page: Page) => page.getByRole("table", { name: "Sessions" });
const report = (page: Page) => page.getByRole("dialog", { name: "Flow Analysis Report" });


async function openAnalyzer(page: Page, from = "/contacts?page=1") {
  await page.goto(`/pcap-analyzer?from=${encodeURIComponent(from)}`);
  await ready(page);
  await expect(page).toHaveTitle(/^PCAP Analyzer \|/);
  await expect(analyzer(page).getByRole("heading", { name: "PCAP Analyzer", level: 1 })).toBeVisible();
}

/** Uploads the capture the way the project can: the XHR upload with JS, the multipart form without. */
async function upload(page: Page, file = capture, { scan = false } = {}) {
  await page.getByLabel("PCAP file").setInputFiles(file);
  if (jsDisabled(test.info())) await page.getByRole("button", { name: "Upload and analyze" }).click();
  await refreshUntilAnalysed(page, { scan });
  await expect(toast(page, "Successfully analyzed.")).toBeVisible({ timeout: 30_000 });
  await expect(analysisProgress(page)).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]key=[^&]+&name=tcpdump-ssh\.pcap/);
}

test("upload a capture, see its sessions, open a report, zoom and download the PDF", async ({ page, account, signIn }, testInfo) => {
  test.setTimeout(90_000);
  await signIn(account);
  await openAnalyzer(page);
  await expect(analyzer(page).getByRole("link", { name: /Close/ })).toHaveAttribute("href", "/contacts?page=1");
  await expect(page.getByText("at most 10 GB (10737418240 bytes)")).toBeVisible();
  await expectAccessible(page);

  const puts: string[] = [];
  page.on("request", (r: Request) => {
    if (r.method() === "PUT" && r.url().includes("/api/v1/upload-pcap/")) puts.push(r.url());
  });
  await upload(page, capture, { scan: true });
  await expect(page).toHaveURL(/from=%2Fcontacts%3Fpage%3D1/);
  await expect(page).not.toHaveURL(/analyzing=/);
  if (!jsDisabled(testInfo)) {
    // The JS path: get-s3-upload-url, then one PUT with progress reaching 100%.
    expect(puts).toHaveLength(1);
    const progress = page.getByRole("progressbar", { name: /Upload progress/ });
    await expect(progress).toHaveAttribute("value", "100");
    await expect(page.getByTestId("pcap-progress")).toContainText("100%");
    await expect(page.getByText("Upload 100% complete")).toBeAttached();
  } else {
    expect(puts).toHaveLength(0);
  }

  // The results: the summary, the degraded-flow bar and one row per conversation of the corpus.
  await expect(page.getByTestId("pcap-summary")).toContainText(`${expected.packets} packets`);
  const degraded = page.getByRole("progressbar", { name: /% degraded flows$/ });
  await expect(degraded).toBeVisible();
  const percent = Number(await degraded.getAttribute("value"));
  expect(percent).toBeGreaterThanOrEqual(0);
  expect(percent).toBeLessThanOrEqual(100);
  for (const header of ["Start Time", "End Time", "App", "Server Name", "Source", "Destination", "Protocol", "TX Bytes", "RX Bytes", "TX Packets", "Performance"]) {
    await expect(sessions(page).getByRole("columnheader", { name: new RegExp(`^${header}`) })).toBeVisible();
  }
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
  await expect(sessions(page).locator("tbody tr").first()).toContainText("223.132.53.222:22");
  await expect(sessions(page).locator("tbody tr").first()).toContainText(/\b(good|not good)\b/);
  // Under the source: it is the client, and the rule that said so (issue 63 item 13).
  await expect(sessions(page).locator("tbody tr").first()).toContainText(/client by (SYN|well-known port|port order \(guessed\))/);
  await expect(page.getByRole("combobox", { name: "Rows per page" })).toHaveValue("50");
  await expectAccessible(page);

  // The report dialog, by URL.
  await sessions(page).getByRole("link", { name: /open the report of this session/ }).first().click();
  await expect(report(page)).toBeVisible();
  await expect(page).toHaveURL(/[?&]session=[^&]+&dialog=report/);
  await expect(report(page).getByText("Performance degradation")).toBeVisible();
  await expect(report(page).getByTestId("report-comment")).not.toBeEmpty();
  await expect(report(page).locator("dt", { hasText: "Client and server" }).locator("xpath=following-sibling::dd[1]")).toHaveText(/^by (SYN|well-known port|port order)/);
  await expect(report(page).getByTestId("report-preview")).toHaveAttribute("data", /^\/pcap-analyzer\/report\.pdf\?key=.+&session=.+#zoom=100$/);
  await expectAccessible(page);

  await report(page).getByRole("link", { name: "Zoom in" }).click();
  await expect(page).toHaveURL(/[?&]zoom=125/);
  await expect(report(page).getByTestId("report-preview")).toHaveAttribute("data", /#zoom=125$/);
  await expect(report(page).getByRole("link", { name: /^Zoom 125%/ })).toBeVisible();

  const downloading = page.waitForEvent("download");
  await report(page).getByRole("link", { name: /Download/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Linkwise-performance-insights-report.pdf");
  const file = testInfo.outputPath("report.pdf");
  await download.saveAs(file);
  expect(fs.readFileSync(file).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  const at = ["Summary", "General Info", "Network Data", "Flow Quality Assessment"].map((s) => text.indexOf(s));
  expect(at.every((i) => i >= 0), text).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(text.toLowerCase()).toContain("information not available yet");

  await report(page).getByRole("link", { name: "Close", exact: true }).last().click();
  await expect(report(page)).toHaveCount(0);
  await expect(page).not.toHaveURL(/dialog=|session=|zoom=/);
  await expect(sessions(page)).toBeVisible();

  // A session the platform does not know.
  await page.goto(`${page.url()}&session=no-such-session&dialog=report`);
  await expect(report(page).getByText("There is no test data.")).toBeVisible();
  await expectAccessible(page);
});

test("a file over 10 GB is refused before any upload", async ({ page, account, signIn }, testInfo) => {
  test.setTimeout(60_000);
  await signIn(account);
  await openAnalyzer(page);
  if (jsDisabled(testInfo)) {
    // Without JavaScript the browser cannot check the size first: the form states the limit
    // (the platform's 413 becomes 'Error: Chosen file is too large to upload.', see app/lib/pcap.test.ts).
    await expect(page.getByLabel("PCAP file")).toHaveAccessibleDescription(/at most 10 GB \(10737418240 bytes\)/);
    await expectAccessible(page);
    return;
  }
  const big = path.join(os.tmpdir(), `pcap-e2e-${process.pid}-${Date.now()}.pcap`);
  const fd = fs.openSync(big, "w");
  try {
    fs.ftruncateSync(fd, 10737418241);
    fs.closeSync(fd);
    const requests: string[] = [];
    page.on("request", (r: Request) => {
      if (/\/pcap-analyzer\/(upload|upload-url)\b|\/api\/v1\/upload-pcap/.test(r.url())) requests.push(`${r.method()} ${r.url()}`);
    });
    await page.getByLabel("PCAP file").setInputFiles(big);
    await expect(page.getByRole("alert").filter({ hasText: TOO_LARGE })).toHaveText(TOO_LARGE);
    await expect(page.getByLabel("PCAP file")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
    await page.waitForTimeout(300);
    expect(requests).toEqual([]);
  } finally {
    fs.rmSync(big, { force: true });
  }
});

test("JS upload: Cancel is silent, the platform's errors are mapped", async ({ page, account, signIn }, testInfo) => {
  test.skip(jsDisabled(testInfo), "the XHR upload needs JavaScript");
  test.setTimeout(90_000);
  await signIn(account);
  await openAnalyzer(page);

  // Cancel while the PUT is under way: nothing is shown, the form is ready again.
  let release: () => void = () => {};
  await page.route("**/api/v1/upload-pcap/**", (route) => new Promise<void>((resolve) => (release = resolve)).then(() => route.abort().catch(() => {})));
  await page.getByLabel("PCAP file").setInputFiles(capture);
  const cancel = page.getByRole("button", { name: "Cancel" });
  await expect(cancel).toBeVisible();
  await expect(page.getByRole("progressbar", { name: /Upload progress/ })).toBeVisible();
  await expectAccessible(page);
  await cancel.click();
  await expect(cancel).toHaveCount(0);
  await expect(page.getByRole("progressbar", { name: /Upload progress/ })).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByLabel("PCAP file")).toBeFocused();
  release();
  await page.unroute("**/api/v1/upload-pcap/**");

  // 413 → the fixed message; 500 → the server's detail; others → 'Error {status}: {message}'.
  const answers: [number, string, string][] = [
    [413, JSON.stringify({ detail: "too big" }), "Error: Chosen file is too large to upload."],
    [500, JSON.stringify({ detail: "Disk full." }), "Disk full."],
    [403, JSON.stringify({ detail: "This upload URL has expired." }), "Error 403: This upload URL has expired."],
  ];
  for (const [status, body, message] of answers) {
    await page.route("**/api/v1/upload-pcap/**", (route) => route.fulfill({ status, body, contentType: "application/json" }));
    await page.getByRole("button", { name: "Upload and analyze" }).click();
    await expect(page.getByRole("alert").filter({ hasText: message })).toHaveText(message);
    await page.unroute("**/api/v1/upload-pcap/**");
  }
  await expectAccessible(page);

  // Missing upload details.
  await page.route("**/pcap-analyzer/upload-url", (route) => route.fulfill({ status: 200, body: "{}", contentType: "application/json" }));
  await page.getByRole("button", { name: "Upload and analyze" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed to get upload details." })).toBeVisible();

  await page.unroute("**/pcap-analyzer/upload-url");

  // 'Analyzing…' while the page's action asks for the analysis, then the analysis' progress (a job
  // on the platform's queue: the page's first request queues it), which the page asks again for
  // every second (each of these asks held a moment here, so that the progress is seen and scanned).
  const asks: string[] = [];
  await page.route(/\/pcap-analyzer\.data/, async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
    else if (new URL(route.request().url()).searchParams.get("analyzing") === "1") {
      asks.push(route.request().url());
      await new Promise((r) => setTimeout(r, 1000));
    }
    await route.continue();
  });
  await page.getByRole("button", { name: "Upload and analyze" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Analyzing…" })).toBeVisible();
  const progress = analysisProgress(page);
  await expect(progress).toBeVisible({ timeout: 15_000 });
  await expect(progress.getByRole("status")).toHaveText(/^(Waiting for the analyzer…|Analyzing…)$/);
  await expect(progress).toContainText("Its sessions appear here when it is done.");
  await expect(progress.getByRole("heading", { name: "Analysis of tcpdump-ssh.pcap" })).toBeVisible();
  await expect(page).toHaveURL(/[?&]analyzing=1/);
  await expectAccessible(page);
  await expect(toast(page, "Successfully analyzed.")).toBeVisible({ timeout: 30_000 });
  // The page asked again by itself (no Refresh pressed) until the analysis was done.
  expect(asks.length).toBeGreaterThanOrEqual(2);
  await expect(progress).toHaveCount(0);
  await expect(page).not.toHaveURL(/analyzing=/);
  await expect(page.getByRole("status").filter({ hasText: "Analyzing…" })).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
});

test("JS: a capture dropped on the drop zone is uploaded and analysed", async ({ page, account, signIn }, testInfo) => {
  test.skip(jsDisabled(testInfo), "drag and drop needs JavaScript");
  test.setTimeout(60_000);
  await signIn(account);
  await openAnalyzer(page);
  const bytes = fs.readFileSync(capture).toString("base64");
  const dataTransfer = await page.evaluateHandle((b64) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([raw], "tcpdump-ssh.pcap", { type: "application/vnd.tcpdump.pcap" }));
    return dt;
  }, bytes);
  const zone = page.getByTestId("pcap-drop-zone");
  await zone.dispatchEvent("dragenter", { dataTransfer });
  await zone.dispatchEvent("dragover", { dataTransfer });
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(toast(page, "Successfully analyzed.")).toBeVisible({ timeout: 30_000 });
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
  await expect(page.getByRole("progressbar", { name: /Upload progress/ })).toHaveAttribute("value", "100");
});
