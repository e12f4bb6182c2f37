import type { Db } from "../db/client.ts";
import { repeat } from "../lib/background.ts";
import type { FleetBus, OpStateChanged } from "./bus.ts";
import type { Fleet } from "./index.ts";
import type { FleetKindRegistry, FleetKindSource, FleetObjectState, OpStateHookRegistry } from "./kinds.ts";
import { DAY, iso } from "./time.ts";
import { observe } from "../../server/observe.mjs";

const log = observe("platform").logger.child({ component: "fleet" });

/*
 * The fleet clock: moves the network forward. Each tick, the leader looks at every registered
 * object and applies the op state changes (outage starts and ends) that fell since its last
 * tick, at the exact time of the change, and publishes one event per change.
 *
 * Exactly one platform instance leads: on PostgreSQL the one holding a session advisory lock on
 * a dedicated connection (if that instance dies its session ends, the lock is free, and the
 * next instance to tick takes it); on PGlite the only process. Changes are compare-and-set by
 * time in the database, so a change replayed after a takeover applies (and is announced) once.
 */

export interface FleetClockOptions {
  db: Db;
  fleet: Fleet;
  kinds: FleetKindRegistry;
  bus: FleetBus;
  /** PostgreSQL: leadership through an advisory lock on its own connection. Absent: always leader. */
  databaseUrl?: string;
  /** The advisory lock's key (tests use their own). */
  lockKey?: number;
  /** Injectable time (tests drive the clock by hand). */
  now?: () => number;
  /** How far back a new leader replays changes (idempotent), ms. */
  replayMs?: number;
  /**
   * Called after a tick that changed the database, with the accounts whose objects changed (the platform forgets their cached reads). A promise
   * it answers is awaited: the tick ends once the scaled deployment's cache epoch has moved on.
   */
  onChange?: (accountIds: string[]) => unknown;
  /** Written in each change's transaction (the running platform passes fleetOpStateHooks; default none). */
  hooks?: OpStateHookRegistry;
}

export interface TickResult {
  leader: boolean;
  /** Op state changes applied (and events published) by this tick. */
  changes: number;
}

export interface FleetClock {
  tick(at?: number): Promise<TickResult>;
  /** Ticks every `intervalMs` until stopped. */
  start(intervalMs: number): void;
  stop(): Promise<void>;
  isLeader(): boolean;
  /** Backend pid of the lock connection (tests terminate it to kill the leader). */
  lockSessionPid(): number | null;
}

/** "linkwise fleet clock" as a 32-bit key. */
export const FLEET_LOCK_KEY = 0x6c77_6663;

export function createFleetClock(opts: FleetClockOptions): FleetClock {
  const now = opts.now ?? Date.now;
  const replayMs = opts.replayMs ?? 10 * 60_000;
  const lockKey = opts.lockKey ?? FLEET_LOCK_KEY;
  let leader = !opts.databaseUrl;
  let lockClient: import("pg").Client | null = null;
  let lockPid: number | null = null;
  let lastTick: number | null = null;
  let stopTimer: (() => void) | null = null;
  let running: Promise<TickResult> | null = null;
  let stopped = false;

  async function dropLock() {
    const c = lockClient;
    lockClient = null;
    lockPid = null;
    leader = false;
    if (c) await c.end().catch(() => {});
  }

  /** Keeps (or tries to take) leadership; answers whether this instance leads now. */
  async function lead(): Promise<boolean> {
    if (!opts.databaseUrl) return true;
    if (leader && lockClient) {
      try {
        // A live session still holds its lock; a dead one errors here.
        await lockClient.query("select 1");
        return true;
      } catch {
        await dropLock();
      }
    }
    try {
      if (!lockClient) {
        const { default: pg } = await import("pg");
        const c = new pg.Client({ connectionString: opts.databaseUrl });
        c.on("error", () => {
          if (lockClient === c) void dropLock();
        });
        await c.connect();
        lockClient = c;
        lockPid = (await c.query("select pg_backend_pid() as pid")).rows[0].pid;
      }
      const r = await lockClient.query("select pg_try_advisory_lock($1) as ok", [lockKey]);
      leader = r.rows[0].ok === true;
    } catch {
      await dropLock();
    }
    return leader;
  }

  async function apply(source: FleetKindSource, o: FleetObjectState, state: "up" | "down", at: number, outageId: string | null, t: number): Promise<boolean> {
    const before = o.opState;
    const hooks = opts.hooks?.list() ?? [];
    // The change and what it causes (hooks: the operations outbox) in one transaction.
    const change = async (db: Db): Promise<OpStateChanged | null> => {
      const applied = await source.setOpState(db, o.id, state, new Date(at));
      if (!applied) return null;
      const ref = { id: o.id, kind: source.kind, lat: o.lat, lon: o.lon, contractedMbps: o.contractedMbps };
      const outage = outageId ? opts.fleet.outage(ref, outageId, Math.max(t, at), { events: o.events }) : null;
      const maintenance = o.events?.maintenance ?? [];
      const event: OpStateChanged = {
        type: "op_state_changed",
        event_id: `${String(source.kind)}:${o.id}:${state}:${at}`,
        kind: String(source.kind),
        id: o.id,
        account_id: o.accountId,
        before,
        after: state,
        at: iso(at),
        outage_id: outageId,
        self_diagnosis: state === "down" ? (outage?.self_diagnosis ?? null) : null,
        announced: maintenance.some((m) => m.start <= at && at < m.end),
        affected: source.served ? await source.served(db, o.id) : { app_services: [], endpoints: [] },
      };
      for (const hook of hooks) await hook(db, { ...event, name: o.name ?? null });
      return event;
    };
    const event = hooks.length > 0 ? await opts.db.transaction((tx) => change(tx)) : await change(opts.db);
    if (!event) return false;
    o.opState = state;
    o.opStateChangeAt = new Date(at);
    try {
      await opts.bus.publish(event);
    } catch (error) {
      log.error({ err: error }, "could not publish an event");
    }
    return true;
  }

  async function runTick(t: number): Promise<TickResult> {
    const wasLeader = leader;
    const isLeader = await lead();
    const previous = lastTick;
    lastTick = t;
    if (!isLeader) return { leader: false, changes: 0 };
    // A new leader replays a little history: what the old one may not have applied.
    const from = previous === null || !wasLeader ? Math.min(previous ?? t, t - replayMs) : previous;
    let changes = 0;
    const changed = new Set<string>();
    for (const source of opts.kinds.list()) {
      let objects: FleetObjectState[];
      try {
        objects = await source.list(opts.db);
      } catch (error) {
        log.error({ err: error, kind: String(source.kind) }, "could not list the objects of a kind");
        continue;
      }
      for (const o of objects) {
        const ref = { id: o.id, kind: source.kind, lat: o.lat, lon: o.lon, contractedMbps: o.contractedMbps };
        for (const tr of opts.fleet.transitions(ref, from, t, o.events)) {
          if (await apply(source, o, tr.state, tr.at, tr.outage.outage_id, t)) {
            changes++;
            changed.add(o.accountId);
          }
        }
        // Reconcile: an object created or edited meanwhile takes the state it has now.
        const current = opts.fleet.currentOutage(ref, t, o.events);
        const expected = current ? "down" : "up";
        if (o.opState !== expected) {
          let at = current ? current.start : t;
          if (!current) {
            const ended = opts.fleet.transitions(ref, t - DAY, t, o.events).filter((x) => x.state === "up").pop();
            if (ended) at = ended.at;
          }
          const stored = o.opStateChangeAt?.getTime();
          if (stored !== undefined && stored >= at) at = stored + 1;
          if (at <= t && (await apply(source, o, expected, at, current?.outage_id ?? null, t))) {
            changes++;
            changed.add(o.accountId);
          }
        }
      }
    }
    if (changes > 0) await opts.onChange?.([...changed]);
    return { leader: true, changes };
  }

  const clock: FleetClock = {
    tick(at) {
      const t = at ?? now();
      // Ticks never overlap: a tick asked for while one runs waits for it.
      const next = (running ?? Promise.resolve()).catch(() => {}).then(() => runTick(t));
      running = next;
      return next;
    },
    start(intervalMs) {
      if (stopTimer || !(intervalMs > 0)) return;
      stopped = false;
      const run = () => {
        if (stopped) return;
        clock.tick().catch((error) => log.error({ err: error }, "tick failed"));
      };
      stopTimer = repeat(run, intervalMs);
    },
    async stop() {
      stopped = true;
      stopTimer?.();
      stopTimer = null;
      await running?.catch(() => {});
      await dropLock();
    },
    isLeader: () => leader,
    lockSessionPid: () => lockPid,
  };
  return clock;
}
