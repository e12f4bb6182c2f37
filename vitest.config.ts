import { defineConfig } from "vitest/config";

// Playwright specs live in tests/e2e and are run by Playwright, never by vitest.
export default defineConfig({
  test: {
    include: ["platform/**/*.test.ts", "app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "server/**/*.test.ts"],
    exclude: ["node_modules/**", "tests/e2e/**", "build/**"],
    globalSetup: ["platform/test/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
