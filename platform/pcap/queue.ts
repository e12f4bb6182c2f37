/**
 * Runs capture analyses off the caller's thread, one at a time.
 *
 *   const result = await analyzeFileInWorker("/path/to/upload.pcapng");
 *
 * The platform calls it from its job of the `pcap-analysis` queue (domain/pcap-analysis.ts), which
 * takes one job at a time per instance: the jobs themselves wait in PostgreSQL, not here.
 *
 * - Every analysis runs in a worker_threads Worker (never on the caller's thread, so an
 *   HTTP server stays responsive, and the job's heartbeat goes on, while a 1 GB file is read).
 * - Concurrency is 1: a second call waits until the first one is done (the machine has
 *   two cores; the analysis uses one and the file hash another).
 * - The worker is kept for the next job and stopped after `idleMs` without work; it
 *   never keeps the process alive on its own.
 * - A job that runs longer than `timeoutMs` (if given) is stopped: the worker is
 *   terminated and the promise rejects with AnalysisTimeoutError. A job whose `signal` aborts
 *   (its queue job's claim is gone) is stopped the same way.
 *
 * How the worker file is found, under tsx (dev, tests) and after a Vite SSR build, is
 * explained in docs/pcap.md ("Worker").
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { builtEntry } from "../lib/built-entry.ts";
import type { AnalyzeOptions } from "./analyzer.ts";
import { PcapFormatError, type PcapErrorKind } from "./errors.ts";
import type { AnalysisResult } from "./types.ts";
import type { WorkerRequest, WorkerResponse } from "./worker.ts";

export interface QueueOptions {
  /** stop the idle worker after this long (default 30 s) */
  idleMs?: number;
}

export interface JobOptions extends AnalyzeOptions {
  /** give up (and terminate the worker) after this many milliseconds */
  timeoutMs?: number;
  /** stop the analysis (and terminate the worker) when this aborts */
  signal?: AbortSignal;
}

/** The analysis ran past its `timeoutMs` and was stopped. */
export class AnalysisTimeoutError extends Error {
  constructor(path: string, timeoutMs: number) {
    super(`pcap analysis of ${path} took longer than ${timeoutMs} ms and was stopped`);
    this.name = "AnalysisTimeoutError";
  }
}

/**
 * The directory holding worker-entry.mjs and worker.ts. Resolved from this module's
 * own location when the sources are beside it (tsx, vitest); from
 * LINKWISE_PCAP_DIR or <cwd>/platform/pcap otherwise (a bundle built elsewhere).
 * Deliberately not written as `new URL("./x", import.meta.url)`, which bundlers rewrite.
 */
export function workerDirectory(): string {
  const candidates = [
    process.env.LINKWISE_PCAP_DIR,
    dirname(fileURLToPath(import.meta.url)),
    resolve(process.cwd(), "platform", "pcap"),
  ];
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, "worker-entry.mjs")) && existsSync(join(dir, "worker.ts"))) return dir;
  }
  throw new Error(
    "pcap worker files not found (worker-entry.mjs, worker.ts); set LINKWISE_PCAP_DIR to the platform/pcap directory",
  );
}

/** From a build, the analyzer's built entry (no TypeScript compiled at start); from the sources, worker.ts. */
function newAnalysisThread(): Worker {
  const built = builtEntry(import.meta.url, "pcap-worker.mjs");
  if (built) return new Worker(built);
  const dir = workerDirectory();
  return new Worker(join(dir, "worker-entry.mjs"), { workerData: { workerTs: join(dir, "worker.ts") } });
}

interface Job {
  path: string;
  options: JobOptions;
  resolve: (r: AnalysisResult) => void;
  reject: (e: Error) => void;
}

export class AnalysisQueue {
  private readonly jobs: Job[] = [];
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private running = false;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly idleMs: number;

  constructor(opts: QueueOptions = {}) {
    this.idleMs = opts.idleMs ?? 30_000;
  }

  /** Jobs waiting (not counting the one running). */
  get waiting(): number {
    return this.jobs.length;
  }

  get busy(): boolean {
    return this.running;
  }

  analyze(path: string, options: JobOptions = {}): Promise<AnalysisResult> {
    return new Promise<AnalysisResult>((res, rej) => {
      this.jobs.push({ path, options, resolve: res, reject: rej });
      void this.pump();
    });
  }

  /** Stop the worker now (pending jobs are rejected). */
  async close(): Promise<void> {
    for (const j of this.jobs.splice(0)) j.reject(new Error("pcap analysis queue closed"));
    await this.stopWorker();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const job = this.jobs.shift();
    if (!job) return;
    this.running = true;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    try {
      job.resolve(await this.run(job));
    } catch (e) {
      job.reject(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.running = false;
      if (this.jobs.length > 0) void this.pump();
      else this.scheduleIdleStop();
    }
  }

  private startWorker(): Worker {
    const w = newAnalysisThread();
    this.worker = w;
    this.ready = new Promise<void>((res, rej) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (m && m.ready) {
          w.off("message", onMessage);
          w.off("error", rej);
          res();
        }
      };
      w.on("message", onMessage);
      w.once("error", rej);
    });
    w.once("exit", () => {
      if (this.worker === w) {
        this.worker = null;
        this.ready = null;
      }
    });
    return w;
  }

  private async run(job: Job): Promise<AnalysisResult> {
    const w = this.worker ?? this.startWorker();
    w.ref();
    await this.ready;
    const id = this.nextId++;
    const { timeoutMs, signal, ...analyzeOptions } = job.options;
    try {
      return await new Promise<AnalysisResult>((res, rej) => {
        let timer: NodeJS.Timeout | null = null;
        const cleanup = () => {
          w.off("message", onMessage);
          w.off("error", onError);
          w.off("exit", onExit);
          signal?.removeEventListener("abort", onAbort);
          if (timer) clearTimeout(timer);
        };
        const onAbort = () => {
          cleanup();
          void this.stopWorker();
          rej(signal?.reason instanceof Error ? signal.reason : new Error("pcap analysis stopped"));
        };
        const onMessage = (m: WorkerResponse) => {
          if (!m || (m as { id?: number }).id !== id) return;
          cleanup();
          if (m.ok) res(m.result);
          else if (m.error.name === "PcapFormatError") {
            rej(new PcapFormatError(m.error.kind as PcapErrorKind, m.error.message, m.error.offset ?? 0));
          } else {
            const e = new Error(m.error.message);
            e.name = m.error.name;
            rej(e);
          }
        };
        const onError = (e: Error) => {
          cleanup();
          rej(e);
        };
        const onExit = (code: number) => {
          cleanup();
          rej(new Error(`pcap worker stopped (exit code ${code})`));
        };
        if (signal?.aborted) return onAbort();
        w.on("message", onMessage);
        w.once("error", onError);
        w.once("exit", onExit);
        signal?.addEventListener("abort", onAbort, { once: true });
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            cleanup();
            void this.stopWorker();
            rej(new AnalysisTimeoutError(job.path, timeoutMs));
          }, timeoutMs);
        }
        const req: WorkerRequest = { id, path: job.path, options: analyzeOptions };
        w.postMessage(req);
      });
    } finally {
      // an idle worker must not keep the process alive
      if (this.worker === w) w.unref();
    }
  }

  private scheduleIdleStop(): void {
    if (!this.worker) return;
    this.idleTimer = setTimeout(() => void this.stopWorker(), this.idleMs);
    this.idleTimer.unref();
  }

  private async stopWorker(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }
}

let shared: AnalysisQueue | null = null;

/** The process-wide queue used by analyzeFileInWorker(). */
export function pcapQueue(): AnalysisQueue {
  shared ??= new AnalysisQueue();
  return shared;
}

/**
 * Analyse a capture file in the worker thread, after any analysis already queued.
 * Rejects with PcapFormatError for a file that is not a readable capture.
 */
export function analyzeFileInWorker(path: string, options: JobOptions = {}): Promise<AnalysisResult> {
  return pcapQueue().analyze(path, options);
}
