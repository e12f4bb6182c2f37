// Starts a worker thread on a TypeScript module: `workerData.workerTs` is its path. For the code
// run from the sources (tsx, Vitest, Vite's dev server); a build starts the built entries of
// build/platform/ instead (platform/lib/built-entry.ts), and production never loads this file.
//
// Plain JavaScript on purpose: a worker thread starts with Node's own loader, and the thread does
// not get the tsx hooks of the process that created it. So unless .ts files already load, tsx (a
// dev dependency) is registered here first. The entry files of the threads (platform/pcap/worker-entry.mjs,
// platform/thread/entry.mjs) import this one.
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const target = pathToFileURL(workerData.workerTs).href;
try {
  await import(target);
} catch (e) {
  if (e?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw e;
  const { register } = await import("tsx/esm/api");
  register();
  // a failed import stays cached under its URL: load it under a fresh one
  await import(`${target}?tsx`);
}
