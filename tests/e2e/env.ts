import { createHash } from "node:crypto";
import path from "node:path";
import { findChromium } from "../../scripts/chromium.mjs";

/**
 * E2E_PORT, else one of 3100–3299 chosen by the checkout's directory: without CI, Playwright reuses a
 * server already answering on its port, and another checkout's server sends its e-mail to that
 * checkout's data directory (its tests then fail with 'no e-mail to …'). Two checkouts on one
 * machine get their own servers.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 3100 + (createHash("sha256").update(process.cwd()).digest().readUInt16BE(0) % 200));
export const e2eDataDir = path.resolve(process.env.E2E_DATA_DIR ?? "data/e2e");
export const outboxDir = path.join(e2eDataDir, "outbox");

/** CHROMIUM_PATH, else a system Chromium, else Playwright's own download (scripts/chromium.mjs): for launchOptions.executablePath. */
export function chromiumPath(): string | undefined {
  return findChromium()?.executable;
}

/**
 * One id per `playwright test` run, the same in the runner and its workers (the runner loads the
 * config first and its workers inherit its environment): names the run's own scratch files.
 */
export const e2eRunId = (process.env.E2E_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`);
