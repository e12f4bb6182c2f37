// `npm run build`, after the console's build: the platform's entry points as plain JavaScript in
// build/platform/, so that a production process (the image, `npm start`, `npm run start:platform`)
// compiles no TypeScript at start and needs neither tsx nor any other dev dependency
// (docs/decisions/2026-12-03-image.md):
//   server.mjs         the platform on its own (platform/server.ts)
//   thread-worker.mjs  the embedded platform's thread, started by the console (platform/thread/host.ts)
//   pcap-worker.mjs    the capture analyzer's thread (platform/pcap/queue.ts)
//   migrations/        the SQL migrations and their journal, found beside the bundles (platform/db/client.ts)
// Packages stay imports of node_modules (PGlite and pdfkit read files of their own beside their code).
// The built code finds these entries through platform/lib/built-entry.ts; run from the sources (tsx,
// Vitest, Vite's dev server), the platform keeps loading its TypeScript entries.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The built file (in build/platform/) of each entry, and its source. */
export const PLATFORM_ENTRIES = {
  "server.mjs": "platform/server.ts",
  "thread-worker.mjs": "platform/thread/worker.ts",
  "pcap-worker.mjs": "platform/pcap/worker.ts",
};

/** Builds the entries into `outdir` (default build/platform/, emptied first); answers the files written. */
export async function buildPlatform({ outdir = path.join(root, "build", "platform") } = {}) {
  const { build } = await import("esbuild");
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.entries(PLATFORM_ENTRIES).map(([out, src]) => ({ in: src, out: out.replace(/\.mjs$/, "") })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // The three share most of the platform: one copy of it, in chunks beside them.
    splitting: true,
    // Flat: the bundled code finds the migrations and the other entries beside its own file.
    chunkNames: "[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "node24",
    packages: "external",
    metafile: true,
    logLevel: "warning",
  });
  const migrations = path.join(root, "platform", "db", "migrations");
  const migrationsOut = path.join(outdir, "migrations");
  fs.mkdirSync(path.join(migrationsOut, "meta"), { recursive: true });
  // What drizzle's migrator reads: the journal and the SQL (the snapshots are drizzle-kit's).
  fs.copyFileSync(path.join(migrations, "meta", "_journal.json"), path.join(migrationsOut, "meta", "_journal.json"));
  for (const file of fs.readdirSync(migrations)) {
    if (file.endsWith(".sql")) fs.copyFileSync(path.join(migrations, file), path.join(migrationsOut, file));
  }
  return Object.keys(result.metafile.outputs);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const files = await buildPlatform();
  console.log(`build/platform/: ${files.length} files in ${Date.now() - t0} ms`);
}
