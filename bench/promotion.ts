// `npm run bench:promotion -- URL [views]`: how many bytes of each view of URL outlive two
// scavenges and are promoted to V8's old generation, where only a mark-compact frees them
// (docs/notes/2026-12-01-promotion.md). Promoted garbage is what makes the server's mark-compacts
// come every few seconds, and each one stalls every request under way: the tail of `npm run bench`'s
// p99. Unlike a latency, this figure does not move with the machine's speed, so a change can be
// judged by it in one run. The views are rendered in a child process (bench/promotion-child.mjs)
// by the production build's handler, without HTTP; PROMOTION_COOKIE signs it in. DATA_DIR as for
// `npm start` (a fresh temporary one by default).
import { spawnSync, execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../server/node-flags.mjs";

const [url = "http://localhost/login", views = "2000"] = process.argv.slice(2);
execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const dataDir = process.env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-promotion-"));
// PROMOTION_NODE_FLAGS: V8 flags to try beside the server's own (e.g. "--no-use-ic").
const extraFlags = (process.env.PROMOTION_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const child = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...extraFlags, "--trace-gc-nvp", "bench/promotion-child.mjs", url, views], {
  env: { ...process.env, DATA_DIR: dataDir, ACCESS_LOG: "off" },
  encoding: "latin1",
  maxBuffer: 512 * 1024 * 1024,
});
if (!process.env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
const out = child.stdout.replace(/\0/g, "");
const start = out.indexOf("PROMOTION-START");
const endMatch = /PROMOTION-END (\d+) (\d+) ([\d.]+)/.exec(out);
if (start < 0 || !endMatch) {
  console.error(child.stderr || out.slice(-2000));
  throw new Error("the child did not finish");
}
const lines = out.slice(start, endMatch.index).split("\n");
// The main thread's isolate is the one that scavenges most; the platform's worker has its own.
const isolateOf = (line: string) => /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
const counts = new Map<string, number>();
for (const line of lines) if (line.includes(" gc=s ")) counts.set(isolateOf(line) ?? "", (counts.get(isolateOf(line) ?? "") ?? 0) + 1);
const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
let promoted = 0, scavenges = 0, scavengeMs = 0, markCompacts = 0, markCompactMs = 0;
for (const line of lines) {
  if (isolateOf(line) !== main) continue;
  if (line.includes(" gc=s ")) {
    scavenges++;
    promoted += field(line, "promoted");
    scavengeMs += field(line, "pause");
  } else if (line.includes(" gc=mc ")) {
    markCompacts++;
    markCompactMs += field(line, "pause");
  }
}
const n = Number(endMatch[1]);
console.log(`${url} (status ${endMatch[2]}): ${n} views, ${endMatch[3]} ms a view`);
console.log(`promoted ${(promoted / n / 1024).toFixed(1)} KB a view; ${scavenges} scavenges (${(scavengeMs / n).toFixed(3)} ms a view), ${markCompacts} mark-compacts (${markCompactMs.toFixed(0)} ms)`);
