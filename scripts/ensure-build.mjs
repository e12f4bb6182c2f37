// `npm start` builds first when there is no build, or when the sources are newer than it.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const built = "build/server/index.js";
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(p));
    else latest = Math.max(latest, fs.statSync(p).mtimeMs);
  }
  return latest;
}
const stale =
  !fs.existsSync(built) ||
  Math.max(newest("app"), newest("platform"), fs.statSync("package.json").mtimeMs) > fs.statSync(built).mtimeMs;
if (stale) {
  console.log("[start] building the console…");
  execSync("npx react-router build", { stdio: "inherit" });
}
