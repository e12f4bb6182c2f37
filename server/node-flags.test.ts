import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

// The flags are written out where no import reaches (package.json's start script, the Dockerfile):
// they must say the same as server/node-flags.mjs.
describe("the server's V8 flags", () => {
  it("npm start passes them to node", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toContain(["node", ...SERVER_NODE_FLAGS, "server.mjs"].join(" "));
  });

  it("the Dockerfile's CMD passes them to node", () => {
    const cmd = fs.readFileSync("Dockerfile", "utf8").split("\n").find((line) => line.startsWith("CMD "));
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!.slice(4))).toEqual(["node", ...SERVER_NODE_FLAGS, "server.mjs", "./build/server/index.js"]);
  });

  it("node runs with at least the young generation measured in docs/decisions/2026-11-28-young-generation.md (32 MB semi-spaces)", async () => {
    const { execFileSync } = await import("node:child_process");
    // The new space grows to its maximum under allocation: fill it, then read its size.
    const script =
      "const a = []; for (let i = 0; i < 4e6; i++) a.push({ i }); a.length = 0;" +
      "console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)";
    const newSpace = (flags: readonly string[]) => Number(execFileSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" }));
    expect(newSpace(SERVER_NODE_FLAGS)).toBeGreaterThanOrEqual(2 * 32 * 1024 * 1024);
  });
});
