import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// server.mjs failing before it serves (its build cannot be loaded): one fatal log line naming the
// cause and exit code 1, at once — not a second error from the shutdown meant for a running server.
describe("the console's server start", () => {
  it("a build that cannot be loaded ends the process with the cause logged and exit code 1", () => {
    const run = spawnSync(process.execPath, [path.resolve("server.mjs"), path.resolve("no-such-build/index.js")], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, PORT: "0", NODE_ENV: "production" },
    });
    const out = run.stdout + run.stderr;
    expect(run.status, out).toBe(1);
    expect(out).toContain("Cannot find module");
    expect(out).toContain("failed before serving");
    expect(out).not.toContain("before initialization");
  }, 40_000);
});
