import { defineConfig } from "vitest/config";

// The test files that replace modules with vi.mock: they need a module graph of their own. In the
// shared graph their mocks apply or not depending on which file a worker ran before (a fresh
// clone orders the files differently from a warm one: checkout.test.ts failed there with a 403).
const mocking = ["app/lib/action.server.test.ts", "app/routes/auth/idp-login.test.ts", "app/routes/billing/checkout.test.ts"];

// Playwright specs live in tests/e2e and are run by Playwright, never by vitest.
export default defineConfig({
  test: {
    exclude: ["node_modules/**", "tests/e2e/**", "build/**"],
    globalSetup: ["platform/test/global-setup.ts"],
    // One JSON line per platform call would bury the runner's output: warnings and errors only
    // (a test that reads the logs sets its own level).
    env: { LOG_LEVEL: process.env.LOG_LEVEL || "warn" },
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    // One retry on CI, as the end-to-end run has (playwright.config.ts): a test that fails twice fails;
    // one that passed on its retry is marked so by the reporter.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["platform/**/*.test.ts", "app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "server/**/*.test.ts"],
          exclude: ["node_modules/**", "tests/e2e/**", "build/**", ...mocking],
          // The files of a worker share one module graph and so one platform (platform/test/harness.ts:
          // one PGlite, migrated once per worker instead of once per file): 175 s → 58 s. Tests isolate
          // themselves by their own accounts; a test that changes the shared platform puts it back.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "mocking", include: mocking, isolate: true, sequence: { groupOrder: 0 } } },
      // The Dockerfile's steps and the image started (tests/docker/image.test.ts): after the others,
      // alone, since its npm ci and build keep both cores busy and would stretch their time limits.
      { extends: true, test: { name: "image", include: ["tests/docker/**/*.test.ts"], sequence: { groupOrder: 1 } } },
    ],
  },
});
