// Entry point of the analysis worker thread (see queue.ts and docs/pcap.md, "Worker"): loads
// worker.ts, whose path the caller gives in workerData (../lib/ts-worker-entry.mjs says how).
import "../lib/ts-worker-entry.mjs";
