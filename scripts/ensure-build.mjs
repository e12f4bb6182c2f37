// `npm start` and `npm run start:platform` build first (`npm run build`: the console, then the
// platform's entries, scripts/build-platform.mjs) when a build is missing, or when the sources are
// newer than it.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const built = ["build/server/index.js", "build/platform/server.mjs", "build/platform/thread-worker.mjs", "build/platform/pcap-worker.mjs"];
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(p));
    else latest = Math.max(latest, fs.statSync(p).mtimeMs);
  }
  return latest;
}
const sources = Math.max(newest("app"), newest("platform"), fs.statSync("package.json").mtimeMs);
const stale = built.some((file) => !fs.existsSync(file) || sources > fs.statSync(file).mtimeMs);
if (stale) {
  console.log("[start] building the console and the platform…");
  execSync("npm run -s build", { stdio: "inherit" });
}
