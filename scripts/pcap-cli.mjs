// `npm run pcap -- [--decode-as udp.port==N,vxlan|geneve]... FILE`: the capture analyzer as a command (platform/pcap/cli.ts).
// It runs a bundle of the CLI made with esbuild, rebuilt whenever a platform source is newer, so
// the command starts in ~0.1 s instead of the ~0.3 s it takes to load the TypeScript sources
// (that start-up is inside every figure of `npm run bench:pcap`).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const pcapCliBundle = path.join(root, "build", "pcap", "cli.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|mjs|js|json)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the bundle when it is missing or older than a platform source; returns its path. */
export async function ensurePcapCli() {
  const built = fs.existsSync(pcapCliBundle) ? fs.statSync(pcapCliBundle).mtimeMs : 0;
  if (built > newestSource(path.join(root, "platform"))) return pcapCliBundle;
  const { build } = await import("esbuild");
  await build({
    entryPoints: [path.join(root, "platform/pcap/cli.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: pcapCliBundle,
    logLevel: "warning",
  });
  return pcapCliBundle;
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  // The CLI reads process.argv.slice(2): the arguments given to this script.
  await import(pathToFileURL(await ensurePcapCli()).href);
}
