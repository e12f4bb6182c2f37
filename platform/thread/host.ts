import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { builtEntry } from "../lib/built-entry.ts";
import type { ScopeMetrics } from "@opentelemetry/sdk-metrics";
import { packBody, type AnswerMessage, type HostMessage, type TextAnswer, type WorkerMessage } from "./protocol.ts";
import { observe } from "../../server/observe.mjs";

/*
 * The embedded platform on its own thread (docs/decisions/2026-11-22-platform-thread.md).
 *
 * The console renders pages on the main thread; the platform (PGlite or PostgreSQL, Drizzle,
 * Hono, mail, the PCAP queue) runs in one worker thread. `fetch(request)` has the platform's
 * own signature, so api.server.ts, the /api/v1 splat route and the PCAP streams call it exactly
 * as they would call the in-process platform or a remote one. On a 2-core machine this lets a
 * page's database work and its rendering use both cores instead of queueing on one.
 *
 * If the thread dies, the calls under way fail (the console answers 'Service unavailable') and
 * the next call starts a new thread.
 */

export interface PlatformThread {
  fetch(request: Request): Promise<Response>;
  /** A plain call with a text body; answers the status, headers and text (see protocol.ts). */
  text(method: string, url: string, headers: [string, string][], body: string | null): Promise<TextAnswer>;
  /** Resolves when the platform has migrated and seeded (rejects if it could not start). */
  ready: Promise<void>;
  /** False once the thread has died or was closed. */
  alive(): boolean;
  /**
   * Resolves true once no call has been under way for `quietMs` (false after `maxMs`). For shutdown:
   * a loader whose browser hung up is no longer an HTTP request under way (React Router answered
   * its aborted request), but it may still be between one platform call and its next.
   */
  settle(quietMs: number, maxMs: number): Promise<boolean>;
  /** The thread's own metrics (its event loop, its calls, its queues), for the main thread's scrape. */
  metrics(): Promise<ScopeMetrics[]>;
  close(): Promise<void>;
}

/** The directory holding entry.mjs and worker.ts (sources beside this module, or under cwd). */
export function threadDirectory(): string {
  const candidates = [process.env.LINKWISE_PLATFORM_THREAD_DIR, dirname(fileURLToPath(import.meta.url)), resolve(process.cwd(), "platform", "thread")];
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, "entry.mjs")) && existsSync(join(dir, "worker.ts"))) return dir;
  }
  throw new Error("platform thread files not found (entry.mjs, worker.ts); set LINKWISE_PLATFORM_THREAD_DIR to the platform/thread directory");
}

interface Pending {
  resolve: (response: Response | TextAnswer) => void;
  reject: (error: Error) => void;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** From a build, the thread's built entry (no TypeScript compiled at start); from the sources, worker.ts. */
function newThread(): Worker {
  const built = builtEntry(import.meta.url, "thread-worker.mjs");
  if (built) return new Worker(built);
  const dir = threadDirectory();
  return new Worker(join(dir, "entry.mjs"), { workerData: { workerTs: join(dir, "worker.ts") } });
}

export function startPlatformThread(): PlatformThread {
  const worker = newThread();
  // The thread must not keep the process alive: when the HTTP server closes (SIGTERM), the
  // process exits and the thread with it, as the in-process platform did.
  worker.unref();
  const pending = new Map<number, Pending>();
  /** When a call last started or ended (settle). */
  let lastActivity = performance.now();
  let nextId = 1;
  let dead: Error | null = null;

  let markReady!: () => void;
  let failReady!: (error: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    markReady = res;
    failReady = rej;
  });
  ready.catch(() => {});

  const fail = (error: Error) => {
    dead ??= error;
    failReady(error);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  /** A call is under way until its answer; every start and end counts as activity. */
  const track = <T>(answer: Promise<T>): Promise<T> => {
    lastActivity = performance.now();
    answer.finally(() => (lastActivity = performance.now())).catch(() => {});
    return answer;
  };

  let closed: (() => void) | null = null;
  const metricsWanted = new Map<number, (scopeMetrics: ScopeMetrics[]) => void>();
  worker.on("message", (message: WorkerMessage) => {
    switch (message.kind) {
      case "metrics-answer":
        metricsWanted.get(message.id)?.(message.scopeMetrics);
        metricsWanted.delete(message.id);
        return;
      case "closed":
        closed?.();
        return;
      case "ready":
        markReady();
        return;
      case "start-failed":
        fail(new Error(`the platform could not start: ${message.message}`));
        void worker.terminate();
        return;
      case "answer": {
        const p = pending.get(message.id);
        if (!p) return;
        pending.delete(message.id);
        p.resolve(toResponse(message));
        return;
      }
      case "text-answer": {
        const p = pending.get(message.id);
        if (!p) return;
        pending.delete(message.id);
        p.resolve({ status: message.status, headers: new Headers(message.headers), text: message.text });
        return;
      }
      case "fail": {
        const p = pending.get(message.id);
        if (!p) return;
        pending.delete(message.id);
        p.reject(new Error(message.message));
        return;
      }
    }
  });
  worker.on("error", (error) => {
    observe().logger.error({ err: error }, "the platform thread crashed");
    fail(error);
  });
  worker.on("exit", (code) => fail(new Error(`the platform thread exited (code ${code})`)));

  if (process.env.LINKWISE_ELU) {
    let last = worker.performance.eventLoopUtilization();
    let lastMain = performance.eventLoopUtilization();
    setInterval(() => {
      const now = worker.performance.eventLoopUtilization();
      const main = performance.eventLoopUtilization();
      observe().logger.info(
        { platform: Number(worker.performance.eventLoopUtilization(now, last).utilization.toFixed(2)), console: Number(performance.eventLoopUtilization(main, lastMain).utilization.toFixed(2)) },
        "event-loop utilization",
      );
      last = now;
      lastMain = main;
    }, 2000).unref();
  }

  const post = (message: HostMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer as never);

  async function call(request: Request): Promise<Response> {
    if (dead) throw dead;
    const id = nextId++;
    const transfer: Transferable[] = [];
    const body =
      request.method === "GET" || request.method === "HEAD"
        ? null
        : await packBody(request.body, request.headers, () => request.arrayBuffer(), transfer);
    if (dead) throw dead;
    const answer = track(new Promise<Response>((resolve, reject) => pending.set(id, { resolve: resolve as Pending["resolve"], reject })));
    post({ kind: "call", id, method: request.method, url: request.url, headers: [...request.headers], body }, transfer);
    if (request.signal && !request.signal.aborted) {
      const onAbort = () => post({ kind: "abort", id });
      request.signal.addEventListener("abort", onAbort, { once: true });
      answer.finally(() => request.signal.removeEventListener("abort", onAbort)).catch(() => {});
    }
    return answer;
  }

  function text(method: string, url: string, headers: [string, string][], body: string | null): Promise<TextAnswer> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    const answer = track(new Promise<TextAnswer>((resolve, reject) => pending.set(id, { resolve: resolve as Pending["resolve"], reject })));
    post({ kind: "text-call", id, method, url, headers, body });
    return answer;
  }

  return {
    fetch: call,
    text,
    ready,
    alive: () => dead === null,
    metrics() {
      if (dead) return Promise.resolve([]);
      const id = nextId++;
      return new Promise<ScopeMetrics[]>((resolve) => {
        // A thread too busy to answer within a second is left out of this scrape.
        const timer = setTimeout(() => {
          metricsWanted.delete(id);
          resolve([]);
        }, 1_000);
        metricsWanted.set(id, (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        post({ kind: "metrics", id });
      });
    },
    settle(quietMs, maxMs) {
      const until = performance.now() + maxMs;
      return new Promise<boolean>((resolve) => {
        const check = () => {
          const now = performance.now();
          if (pending.size === 0 && now - lastActivity >= quietMs) return resolve(true);
          if (dead || now >= until) return resolve(pending.size === 0);
          setTimeout(check, Math.min(20, quietMs));
        };
        check();
      });
    },
    async close() {
      // Calls under way fail; the platform closes its database (PGlite checkpoints) within 10 s,
      // then the thread ends.
      if (dead) return;
      fail(new Error("the platform thread was closed"));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        closed = () => {
          clearTimeout(timer);
          resolve();
        };
        post({ kind: "close" });
      });
      await worker.terminate();
    },
  };
}

function toResponse(message: AnswerMessage): Response {
  const body = NULL_BODY_STATUS.has(message.status) ? null : (message.body as BodyInit | null);
  return new Response(body, { status: message.status, statusText: message.statusText, headers: message.headers });
}

/*
 * One thread per process, started on first use and again after it died. Kept on globalThis so
 * the dev server's module reloads do not start a second one.
 */
const key = Symbol.for("linkwise.platform-thread");
type GlobalWithThread = typeof globalThis & { [key]?: PlatformThread };

export function getPlatformThread(): PlatformThread {
  const g = globalThis as GlobalWithThread;
  let thread = g[key];
  if (!thread || !thread.alive()) {
    thread = startPlatformThread();
    g[key] = thread;
    closeOnSignals();
    metricsFromThread();
  }
  return thread;
}

let metricsHooked = false;
/** The main thread's scrape includes the platform thread's metrics (whichever thread runs now). */
function metricsFromThread() {
  if (metricsHooked) return;
  metricsHooked = true;
  observe().addMetricSource(async () => (await (globalThis as GlobalWithThread)[key]?.metrics()) ?? []);
}

let signalsHooked = false;
/**
 * On SIGTERM or SIGINT, close the platform with the HTTP server (server.mjs closes that):
 * the database shuts down cleanly and the process can exit.
 */
function closeOnSignals() {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // server.mjs closes the platform itself, once the requests under way are answered.
      if ((globalThis as Record<symbol, unknown>)[Symbol.for("linkwise.shutdown-by-server")]) return;
      const thread = (globalThis as GlobalWithThread)[key];
      void thread?.close().catch(() => {});
    });
  }
}
