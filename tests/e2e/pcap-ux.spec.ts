import type { Page } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, expectAccessible, jsDisabled, ready, test } from "./fixtures.ts";
import { refreshUntilAnalysed } from "./pcap-helpers.ts";

/*
 * The PCAP Analyzer's details (issue 10 item 17): a file that is not a capture gets one plain
 * sentence beside the file field (with and without JavaScript, never the parser's detail), and
 * the sessions the search selects can be exported as CSV (searched and sorted by the platform).
 */

const capture = path.resolve(process.cwd(), "tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");
const NOT_CAPTURE = "This file is not a packet capture (pcap or pcapng).";

async function pick(page: Page, file: string) {
  await page.getByLabel("PCAP file").setInputFiles(file);
  if (jsDisabled(test.info())) await page.getByRole("button", { name: "Upload and analyze" }).click();
  await refreshUntilAnalysed(page);
}

test("a file that is not a capture: one plain sentence beside the field", async ({ page, account, signIn }) => {
  test.setTimeout(60_000);
  const file = path.join(os.tmpdir(), `not-a-capture-${process.pid}-${Date.now()}.pcap`);
  fs.writeFileSync(file, "not a capture, just some text\n".repeat(20));
  try {
    await signIn(account);
    await page.goto("/pcap-analyzer");
    await ready(page);
    await pick(page, file);
    const error = page.locator("#pcap-file-error");
    await expect(error).toHaveText(NOT_CAPTURE, { timeout: 30_000 });
    await expect(page.getByLabel("PCAP file")).toHaveAccessibleDescription(new RegExp(NOT_CAPTURE.replace(/[().]/g, "\\$&")));
    await expect(page).toHaveTitle(/^Error: PCAP Analyzer/);
    // The parser's technical detail stays in the logs.
    await expect(page.getByText(/magic|0x[0-9a-f]{8}/i)).toHaveCount(0);
    await expect(page.getByTestId("toaster").getByText(/not a pcap/i)).toHaveCount(0);
    await expectAccessible(page);
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test("the searched sessions export as CSV; the degraded bar's track is the good share", async ({ page, account, signIn }) => {
  test.setTimeout(90_000);
  await signIn(account);
  await page.goto("/pcap-analyzer");
  await ready(page);
  await pick(page, capture);
  await expect(page.getByTestId("toaster").getByText("Successfully analyzed.")).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("#pcap-degraded")).toHaveClass(/bg-success/);

  const link = page.getByRole("link", { name: /Export CSV/ });
  await expect(link).toBeVisible();
  const all = await page.request.get((await link.getAttribute("href"))!);
  expect(all.status()).toBe(200);
  expect(all.headers()["content-type"]).toContain("text/csv");
  const lines = (await all.text()).trim().split("\r\n");
  expect(lines[0]).toBe("Start Time,End Time,App,Server Name,Source,Destination,Protocol,TX Bytes,RX Bytes,TX Packets,RX Packets,Performance,Client Chosen By");
  expect(lines.length).toBeGreaterThan(1);

  // A search the rows cannot match: the link exports only the header.
  const url = new URL(page.url());
  url.searchParams.set("q", "no-such-session-anywhere");
  await page.goto(url.pathname + url.search);
  await ready(page);
  const none = await page.request.get((await page.getByRole("link", { name: /Export CSV/ }).getAttribute("href"))!);
  expect((await none.text()).trim().split("\r\n")).toHaveLength(1);
});
