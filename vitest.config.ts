import { defineConfig } from "vitest/config";

// Playwright specs live in tests/e2e and are run by Playwright, never by vitest.
export default defineConfig({
  test: {
    include: ["platform/**/*.test.ts", "app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "server/**/*.test.ts"],
    exclude: ["node_modules/**", "tests/e2e/**", "build/**"],
    globalSetup: ["platform/test/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    // The files of a worker share one module graph and so one platform (platform/test/harness.ts:
    // one PGlite, migrated once per worker instead of once per file): 175 s → 58 s. Tests isolate
    // themselves by their own accounts; a test that changes the shared platform puts it back.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
