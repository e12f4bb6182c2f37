// The server the end-to-end tests run against: the production build on a fresh data directory.
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
fs.rmSync(dataDir, { recursive: true, force: true });
execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const child = spawn(process.execPath, ["server.mjs", "./build/server/index.js"], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", COOKIE_SECURE: "false", DEMO_PASSWORD: "demo-password-1", CONSOLE_URL: `http://localhost:${process.env.PORT}` },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
