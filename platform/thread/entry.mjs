// Entry point of the platform thread (host.ts). Plain JavaScript on purpose, like
// platform/pcap/worker-entry.mjs: a worker thread starts with Node's own loader, which cannot
// import TypeScript, so tsx (a runtime dependency) is registered first unless .ts already loads.
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
