import type { Db } from "../db/client.ts";
import { createInProcessBus, createPgBus, type FleetBus } from "./bus.ts";
import { createFleetClock, type FleetClock } from "./clock.ts";
import { createFleet, type Fleet } from "./index.ts";
import { fleetKinds, fleetOpStateHooks, type FleetKindRegistry, type OpStateHookRegistry } from "./kinds.ts";

/*
 * The fleet as the running platform holds it: the simulator (pure), the event bus (in-process on
 * PGlite, LISTEN/NOTIFY on PostgreSQL) and the clock (FLEET_TICK ms; 0 disables it).
 */

export interface FleetRuntime {
  fleet: Fleet;
  bus: FleetBus;
  clock: FleetClock;
  close(): Promise<void>;
}

export async function startFleet(opts: {
  db: Db;
  databaseUrl?: string;
  seed: number;
  tickMs: number;
  kinds?: FleetKindRegistry;
  /** Written in each op state change's transaction (default: the platform's fleetOpStateHooks). */
  hooks?: OpStateHookRegistry;
  /** After the clock changed op states (outside any HTTP call): the platform forgets those accounts' cached reads. */
  onChange?: (accountIds: string[]) => unknown;
}): Promise<FleetRuntime> {
  const fleet = createFleet(opts.seed);
  let bus: FleetBus;
  if (opts.databaseUrl) {
    const pgBus = createPgBus(opts.databaseUrl);
    await pgBus.ready;
    bus = pgBus;
  } else {
    bus = createInProcessBus();
  }
  const clock = createFleetClock({ db: opts.db, fleet, kinds: opts.kinds ?? fleetKinds, hooks: opts.hooks ?? fleetOpStateHooks, bus, databaseUrl: opts.databaseUrl, onChange: opts.onChange });
  if (opts.tickMs > 0) clock.start(opts.tickMs);
  return {
    fleet,
    bus,
    clock,
    async close() {
      await clock.stop();
      await bus.close();
    },
  };
}

const bySeed = new Map<number, Fleet>();

/** The platform's fleet: the running one, or (tests, tools) a fleet for the configured seed. */
export function fleetOf(deps: { fleet?: FleetRuntime; config: { fleetSeed: number } }): Fleet {
  if (deps.fleet) return deps.fleet.fleet;
  let f = bySeed.get(deps.config.fleetSeed);
  if (!f) bySeed.set(deps.config.fleetSeed, (f = createFleet(deps.config.fleetSeed)));
  return f;
}
