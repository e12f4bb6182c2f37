import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./tests/e2e/env.ts";

/*
 * The scaled run (issue 62, "How it is checked"): three platform instances and two consoles on one
 * empty PostgreSQL database, started by the test itself (tests/scaled/), which kills some of them.
 * One worker, one test; hard limits so that it never holds `npm test` for long: the test's own
 * limit, and the whole run's (after which the global teardown still kills every process it started).
 */
export default defineConfig({
  testDir: "tests/scaled",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/scaled/global-setup.ts",
  workers: 1,
  retries: 0,
  timeout: 300_000,
  globalTimeout: 330_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results/scaled",
  use: {
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--js-flags=--no-opt"],
    },
  },
});
