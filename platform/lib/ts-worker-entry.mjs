// Starts a worker thread on a TypeScript module: `workerData.workerTs` is its path.
//
// Plain JavaScript on purpose: a worker thread starts with Node's own loader. Node 24 strips types
// itself, but only erasable syntax (no parameter properties, no enums: ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX),
// and the thread does not get the tsx hooks of the process that created it. So a .ts target is
// loaded through tsx -- a runtime dependency of the project -- registered here first; built
// entries (.js, .mjs) load as they are. The entry files of the threads (platform/pcap/worker-entry.mjs,
// platform/thread/entry.mjs) import this one.
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const target = pathToFileURL(workerData.workerTs).href;
if (/\.[cm]?ts$/.test(workerData.workerTs)) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(target);
