/**
 * SHA-256 of a capture file on another thread (no TypeScript inside the worker, so it
 * starts fast and needs no loader). Kept in its own small module so the CLI can start
 * it before loading the analyzer.
 */
import { Worker } from "node:worker_threads";

/** Files up to this size are hashed on the parsing thread instead. */
export const INLINE_HASH_LIMIT = 64 * 1024 * 1024;

const HASH_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync } = require("node:fs");
// synchronous reads: this thread has nothing else to do
const h = createHash("sha256");
const fd = openSync(workerData, "r");
const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
for (;;) {
  const n = readSync(fd, buf, 0, buf.length, null);
  if (n === 0) break;
  h.update(n === buf.length ? buf : buf.subarray(0, n));
}
closeSync(fd);
parentPort.postMessage(h.digest("hex"));
`;

/**
 * SHA-256 of a file, computed on another thread while this one parses (hashing on the
 * parsing thread would cost about 40 % of the analysis time).
 */
export function sha256InBackground(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const w = new Worker(HASH_WORKER_SOURCE, { eval: true, workerData: path });
    w.once("message", (hex: string) => {
      resolve(hex);
      void w.terminate();
    });
    w.once("error", reject);
    w.once("exit", (code) => {
      if (code !== 0) reject(new Error(`sha256 worker exited with code ${code}`));
    });
  });
}
