// Starts a worker thread on a TypeScript module: `workerData.workerTs` is its path.
//
// Plain JavaScript on purpose: a worker thread starts with Node's own loader, which cannot import
// TypeScript (on Node 20 the thread does not get the tsx hooks of the process that created it).
// So unless .ts files already load, tsx -- a runtime dependency of the project -- is registered
// here first. The entry files of the threads (platform/pcap/worker-entry.mjs,
// platform/thread/entry.mjs) import this one.
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const target = pathToFileURL(workerData.workerTs).href;
try {
  await import(target);
} catch (e) {
  // Node 20 has no TypeScript loader (ERR_UNKNOWN_FILE_EXTENSION); Node 24's strips types only and
  // refuses what it cannot strip, such as the parameter properties of platform/lib/errors.ts
  // (ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX): tsx loads both.
  if (e?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && e?.code !== "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") throw e;
  const { register } = await import("tsx/esm/api");
  register();
  // a failed import stays cached under its URL: load it under a fresh one
  await import(`${target}?tsx`);
}
