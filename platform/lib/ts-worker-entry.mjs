// Starts a worker thread on a TypeScript module: `workerData.workerTs` is its path. For the code
// run from the sources (tsx, Vitest, Vite's dev server); a build starts the built entries of
// build/platform/ instead (platform/lib/built-entry.ts), and production never loads this file.
//
// Plain JavaScript on purpose: a worker thread starts with Node's own loader, and the thread does
// not get the tsx hooks of the process that created it (unless they came in its execArgv). Node 24
// loads .ts files itself by stripping their types, but only erasable syntax: the platform's
// parameter properties (platform/lib/errors.ts) stop it with ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX. Then
// the module is loaded again through tsx (a dev dependency), under tsx's own namespace so that no
// module of the failed attempt is taken from Node's cache.
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const target = pathToFileURL(workerData.workerTs).href;
try {
  await import(target);
} catch (e) {
  if (e?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && e?.code !== "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") throw e;
  const { tsImport } = await import("tsx/esm/api");
  await tsImport(target, import.meta.url);
}
