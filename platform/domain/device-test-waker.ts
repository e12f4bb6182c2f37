import { sql } from "drizzle-orm";
import type { PlatformDeps } from "../lib/context.ts";
import { observe } from "../../server/observe.mjs";

/*
 * Wakes the activation-test streams of every platform instance when a test's rows change
 * (DESIGN "Scaled": anything that must reach every instance goes through LISTEN/NOTIFY). Each
 * instance with a DATABASE_URL LISTENs on one dedicated connection; a write NOTIFYs with the
 * test's sse_id. Without one (PGlite: one process) the wake-up is in-process. A stream also wakes
 * at its next message's time, so a lost notification delays nothing for long.
 */

export const TEST_CHANNEL = "linkwise_device_tests";

type Deps = Pick<PlatformDeps, "db" | "config" | "dbKind">;

interface Waker {
  waiters: Map<string, Set<() => void>>;
  listening: Promise<boolean>;
  close(): Promise<void>;
}

const wakers = new WeakMap<object, Waker>();

function wake(w: Waker, sseId: string) {
  for (const f of [...(w.waiters.get(sseId) ?? [])]) f();
}

function wakerOf(deps: Deps): Waker {
  const w = wakers.get(deps);
  if (w) return w;
  const waiters = new Map<string, Set<() => void>>();
  let client: import("pg").Client | null = null;
  let closed = false;
  const url = deps.dbKind === "postgres" ? deps.config.databaseUrl : undefined;
  const created: Waker = {
    waiters,
    listening: Promise.resolve(false),
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
  const connect = async (): Promise<boolean> => {
    if (!url) return false;
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (msg) => {
      if (msg.channel === TEST_CHANNEL && msg.payload) wake(created, msg.payload);
    });
    const lost = () => {
      if (client !== c) return;
      client = null;
      if (!closed) setTimeout(() => void (created.listening = connect().catch(() => false)), 1000).unref();
    };
    c.on("error", lost);
    c.on("end", lost);
    await c.connect();
    await c.query(`LISTEN ${TEST_CHANNEL}`);
    if (closed) {
      await c.end().catch(() => {});
      return false;
    }
    client = c;
    return true;
  };
  created.listening = connect().catch((error) => {
    observe("platform").logger.error({ err: error }, "could not LISTEN for test progress");
    return false;
  });
  wakers.set(deps, created);
  return created;
}

/** After a test's rows changed: every instance's streams of it wake. */
export async function notifyTest(deps: Deps, sseId: string): Promise<void> {
  const w = wakerOf(deps);
  if (deps.dbKind === "postgres") {
    await deps.db.execute(sql`select pg_notify(${TEST_CHANNEL}, ${sseId})`);
    // Without a listening connection of its own, this instance wakes its own streams directly.
    if (!(await w.listening)) wake(w, sseId);
  } else {
    wake(w, sseId);
  }
}

/** Resolves on a notification for the test, after `ms`, or when `signal` aborts. */
export async function waitForTest(deps: Deps, sseId: string, ms: number, signal: AbortSignal): Promise<void> {
  const w = wakerOf(deps);
  await w.listening;
  await new Promise<void>((resolve) => {
    let set = w.waiters.get(sseId);
    if (!set) w.waiters.set(sseId, (set = new Set()));
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      set!.delete(done);
      if (set!.size === 0) w.waiters.delete(sseId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    set.add(done);
  });
}

/** Ends this instance's LISTEN connection (tests, shutdown). */
export async function closeTestWaker(deps: Deps): Promise<void> {
  const w = wakers.get(deps);
  wakers.delete(deps);
  if (w) await w.close();
}

/** Whether this instance LISTENs (PostgreSQL with a URL). */
export const listensForTests = (deps: Deps) => wakerOf(deps).listening;
