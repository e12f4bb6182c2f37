import fs from "node:fs";
import path from "node:path";

export const e2ePort = Number(process.env.E2E_PORT ?? 3100);
export const e2eDataDir = path.resolve(process.env.E2E_DATA_DIR ?? "data/e2e");
export const outboxDir = path.join(e2eDataDir, "outbox");

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download (where the internet allows). */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/**
 * One id per `playwright test` run, the same in the runner and its workers (the runner loads the
 * config first and its workers inherit its environment): names the run's own scratch files.
 */
export const e2eRunId = (process.env.E2E_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`);
