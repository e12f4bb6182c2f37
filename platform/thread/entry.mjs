// Entry point of the platform thread (host.ts): loads worker.ts, whose path the caller gives in
// workerData (../lib/ts-worker-entry.mjs says how).
import "../lib/ts-worker-entry.mjs";
