/**
 * A capture file read and hashed (SHA-256) on another thread, the parser reading the same
 * buffers (no TypeScript inside the worker, so it starts fast and needs no loader). Kept in
 * its own small module so the CLI can start it before loading the analyzer.
 */
import { Worker } from "node:worker_threads";

/** Files up to this size are hashed on the parsing thread instead. */
export const INLINE_HASH_LIMIT = 64 * 1024 * 1024;

// The reading thread of startBackgroundRead(): reads the file into a ring of slots in shared
// memory, publishes each slot (control[0] = chunks read; a slot of length 0 is the end of the
// file), then hashes it while the other thread parses it; a slot is read again only once the
// parser has released it (control[1] = chunks consumed). control[2] = 1: the parser gave up.
const READ_AND_HASH_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync } = require("node:fs");
const { path, data, control, lengths, slots, slotSize } = workerData;
const c = new Int32Array(control);
const len = new Int32Array(lengths);
const h = createHash("sha256");
const fd = openSync(path, "r");
try {
  for (let k = 0; ; k++) {
    for (;;) {
      if (Atomics.load(c, 2) === 1) process.exit(0);
      const consumed = Atomics.load(c, 1);
      if (k - consumed < slots) break;
      Atomics.wait(c, 1, consumed, 1000);
    }
    const slot = k % slots;
    const buf = new Uint8Array(data, slot * slotSize, slotSize);
    const n = readSync(fd, buf, 0, slotSize, null);
    len[slot] = n;
    Atomics.store(c, 0, k + 1);
    Atomics.notify(c, 0);
    if (n === 0) break;
    h.update(buf.subarray(0, n));
  }
} finally {
  closeSync(fd);
}
parentPort.postMessage(h.digest("hex"));
`;

/** A file being read and hashed on another thread (startBackgroundRead). */
export interface BackgroundRead {
  /** The file's chunks, in order; each is valid until the next one is asked for. Iterate once. */
  chunks(): AsyncGenerator<Uint8Array>;
  /** SHA-256 (hex) of the whole file, once the reading thread has hashed all of it. */
  readonly sha256: Promise<string>;
  /** Stop the reading thread (the parser gave up, or never started). */
  cancel(): void;
}

/** 8 slots of 1 MiB: enough for the reading thread to stay ahead, small beside the 128 MB budget. */
const SLOT_SIZE = 1024 * 1024;
const SLOTS = 8;

/**
 * Read a file once for both the parser and the SHA-256: another thread reads it into shared
 * memory and hashes it, the calling thread parses the same bytes. The reading (a copy out of
 * the page cache, ~15 % of the analysis) thus moves off the parsing thread, which is the
 * longer of the two, and the file is read once instead of twice.
 */
export function startBackgroundRead(path: string, slotSize = SLOT_SIZE, slots = SLOTS): BackgroundRead {
  const data = new SharedArrayBuffer(slotSize * slots);
  const control = new SharedArrayBuffer(16);
  const lengths = new SharedArrayBuffer(4 * slots);
  const c = new Int32Array(control);
  const len = new Int32Array(lengths);
  let failure: unknown = null;
  const w = new Worker(READ_AND_HASH_WORKER_SOURCE, { eval: true, workerData: { path, data, control, lengths, slots, slotSize } });
  const sha256 = new Promise<string>((resolve, reject) => {
    w.once("message", (hex: string) => {
      resolve(hex);
      void w.terminate();
    });
    w.once("error", (e) => {
      failure = e;
      reject(e);
    });
    w.once("exit", (code) => {
      const e = new Error(code === 0 ? "the reading thread stopped before the end of the file" : `sha256 worker exited with code ${code}`);
      failure ??= e;
      reject(e);
    });
  });
  sha256.catch(() => undefined);
  let started = false;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (started) throw new Error("BackgroundRead.chunks() can be iterated once");
    started = true;
    let finished = false;
    try {
      for (let k = 0; ; k++) {
        for (;;) {
          const read = Atomics.load(c, 0);
          if (read > k) break;
          if (failure !== null) throw failure;
          // wait on the reading thread; now and then give the event loop a turn, so that
          // the worker's error or exit can be heard
          if (Atomics.wait(c, 0, read, 20) === "timed-out") await new Promise<void>((r) => setImmediate(r));
        }
        const slot = k % slots;
        const n = len[slot];
        if (n === 0) {
          finished = true;
          return;
        }
        yield new Uint8Array(data, slot * slotSize, n);
        Atomics.store(c, 1, k + 1);
        Atomics.notify(c, 1);
        if (k % 16 === 15) await new Promise<void>((r) => setImmediate(r));
      }
    } finally {
      // the parser stopped early (an error): stop the reading thread
      if (!finished) cancel();
    }
  }
  function cancel(): void {
    Atomics.store(c, 2, 1);
    Atomics.notify(c, 1);
  }
  return { chunks, sha256, cancel };
}
