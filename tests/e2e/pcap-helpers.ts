import type { Page } from "@playwright/test";
import { expect, expectAccessible, jsDisabled } from "./fixtures.ts";

/*
 * A capture's analysis is a job on the platform's queue (docs/decisions/2026-12-03-pcap-analyses-on-the-queue.md):
 * after the upload the PCAP Analyzer shows its progress. With JavaScript the page follows it by
 * itself; without, it says the capture is being analyzed and offers Refresh.
 */

export const analysisProgress = (page: Page) => page.getByTestId("pcap-analysis");

/**
 * After an upload without JavaScript: the capture's page shows its analysis in progress (always: the
 * page's own request is the one that queues it), checked and scanned; Refresh is followed, as a
 * user would, until the page shows something else (the sessions, or the failure beside the field).
 * With JavaScript nothing: the page asks again by itself.
 */
export async function refreshUntilAnalysed(page: Page, { scan = false } = {}) {
  if (!jsDisabled()) return;
  const progress = analysisProgress(page);
  await expect(progress).toBeVisible({ timeout: 30_000 });
  await expect(progress.getByRole("status")).toHaveText(/^(Waiting for the analyzer…|Analyzing…)$/);
  await expect(progress).toContainText("Refresh to see its sessions when it is done.");
  await expect(progress.getByRole("progressbar", { name: "Analysis progress" })).toBeVisible();
  if (scan) await expectAccessible(page);
  const deadline = Date.now() + 30_000;
  while (await progress.isVisible()) {
    if (Date.now() > deadline) throw new Error("the capture was still being analyzed after 30 s");
    await page.waitForTimeout(300);
    await progress.getByRole("link", { name: /^Refresh/ }).click();
    await page.waitForLoadState("domcontentloaded");
  }
}
