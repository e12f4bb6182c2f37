import { defineConfig, devices } from "@playwright/test";
import { chromiumPath, e2eDataDir, e2ePort } from "./tests/e2e/env.ts";

const launchOptions = {
  executablePath: chromiumPath(),
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/*
 * Specs of screens still in progress (issues #12 and #13, 2026-11-24): written, but not yet green
 * in both projects on a quiet machine, nor measured within the README's per-screen budget, and the
 * whole `npm test` must stay under CI's 20 minutes. `E2E_PENDING=1 npx playwright test …` runs them;
 * the issue that finishes a screen moves its spec out of this list.
 */
export const pendingSpecs = ["app-services", "endpoints", "iam", "billing", "support", "histories"];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  testIgnore: process.env.E2E_PENDING ? [] : pendingSpecs.map((name) => `**/${name}.spec.ts`),
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Limits for a machine shared with other work (load far above its 2 cores at times): a test's
  // own budget is in the README (per screen), these only catch what hangs.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${e2ePort}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], launchOptions } },
    { name: "no-js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions } },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${e2ePort}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: { DATA_DIR: e2eDataDir, PORT: String(e2ePort) },
  },
});
