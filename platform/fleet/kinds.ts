import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { DeviceEvents, FleetKind } from "./model.ts";
import type { Affected } from "./outages.ts";

/*
 * The object-kind registry: how the fleet clock finds the account's devices and nodes. Each
 * issue that creates an object table (CPE, metro, service nodes, endpoint nodes) registers its
 * kind once, with a source that lists the objects from the database, persists an op state
 * change, and says what the object serves (for an outage's "affected").
 */

/** One object as its table holds it. */
export interface FleetObjectState {
  id: string;
  accountId: string;
  lat?: number | null;
  lon?: number | null;
  contractedMbps?: number | null;
  opState: string | null;
  opStateChangeAt: Date | null;
  /** The object's name, when the kind says where it is (webhook and e-mail events carry it). */
  name?: string | null;
  /** Announced maintenance and resets, when the kind has them. */
  events?: DeviceEvents;
}

export interface FleetKindSource {
  kind: FleetKind;
  /** Every object of this kind, of every account. */
  list(db: Db): Promise<FleetObjectState[]>;
  /**
   * Persist an op state change at `at`. Must be a compare-and-set: apply only when the stored
   * state differs and the stored change time is before `at` (so a change replayed by another
   * instance, or one older than what is stored, changes nothing); answer whether it applied.
   */
  setOpState(db: Db, id: string, state: "up" | "down", at: Date): Promise<boolean>;
  /** The app services and endpoints served through the object. */
  served?(db: Db, id: string): Promise<Affected>;
}

export interface FleetKindRegistry {
  register(source: FleetKindSource): void;
  unregister(kind: FleetKind): void;
  list(): FleetKindSource[];
}

export function createKindRegistry(): FleetKindRegistry {
  const kinds = new Map<string, FleetKindSource>();
  return {
    register(source) {
      kinds.set(String(source.kind), source);
    },
    unregister(kind) {
      kinds.delete(String(kind));
    },
    list: () => [...kinds.values()],
  };
}

/** The platform's registry: object modules register their kind here at import. */
export const fleetKinds: FleetKindRegistry = createKindRegistry();

function rowsOf(result: unknown): Record<string, unknown>[] {
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number.isFinite(Number(v)) ? Number(v) : null);
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/**
 * A source for a table with the usual columns: the column names are the table's (constants of
 * the code, never user input). `contractedMbps` may be an SQL expression over the row
 * (e.g. `coalesce(wan_cir_mbps, 0) + coalesce(wan_eir_mbps, 0)`).
 */
export function sqlKindSource(def: {
  kind: FleetKind;
  table: string;
  id: string;
  accountId: string;
  opState: string;
  opStateChangeAt: string;
  lat?: string;
  lon?: string;
  contractedMbps?: string;
  /** The name column, when there is one (events name the object). */
  name?: string;
  served?: FleetKindSource["served"];
  /**
   * Which rows the network monitors (an SQL condition over the row, a constant of the code): the
   * clock lists and changes only these; the others keep no op state (a device never registered
   * is not up).
   */
  monitored?: string;
  events?: (db: Db, ids: string[]) => Promise<Record<string, DeviceEvents>>;
}): FleetKindSource {
  const t = sql.identifier(def.table);
  const col = (c: string) => sql.identifier(c);
  const opt = (c: string | undefined): SQL => (c ? sql`${col(c)}` : sql`null`);
  return {
    kind: def.kind,
    async list(db) {
      const mbps = def.contractedMbps ? sql.raw(def.contractedMbps) : sql`null`;
      const where = def.monitored ? sql` where ${sql.raw(def.monitored)}` : sql``;
      const rows = rowsOf(
        await db.execute(sql`select ${col(def.id)} as id, ${col(def.accountId)} as account_id, ${opt(def.lat)} as lat, ${opt(def.lon)} as lon, ${mbps} as mbps,
          ${col(def.opState)} as op_state, ${col(def.opStateChangeAt)} as op_state_change_at, ${opt(def.name)} as name from ${t}${where}`),
      );
      const events = def.events ? await def.events(db, rows.map((r) => String(r.id))) : {};
      return rows.map((r) => ({
        id: String(r.id),
        accountId: String(r.account_id),
        lat: num(r.lat),
        lon: num(r.lon),
        contractedMbps: num(r.mbps),
        opState: r.op_state === null || r.op_state === undefined ? null : String(r.op_state),
        opStateChangeAt: date(r.op_state_change_at),
        name: r.name === null || r.name === undefined ? null : String(r.name),
        events: events[String(r.id)],
      }));
    },
    async setOpState(db, id, state, at) {
      const rows = rowsOf(
        await db.execute(sql`update ${t} set ${col(def.opState)} = ${state}, ${col(def.opStateChangeAt)} = ${at.toISOString()}
          where ${col(def.id)} = ${id} and ${col(def.opState)} is distinct from ${state}
            and (${col(def.opStateChangeAt)} is null or ${col(def.opStateChangeAt)} < ${at.toISOString()})${def.monitored ? sql` and ${sql.raw(def.monitored)}` : sql``}
          returning ${col(def.id)} as id`),
      );
      return rows.length > 0;
    },
    served: def.served,
  };
}

/**
 * What must be written in the same transaction as an op state change (the operations outbox,
 * platform/webhooks): the clock runs `setOpState` and every registered hook in one transaction,
 * so the change and what it causes commit together or not at all. A hook only writes rows; it
 * never waits on the network.
 */
export type OpStateHook = (tx: Db, change: import("./bus.ts").OpStateChanged & { name: string | null }) => Promise<void>;

export interface OpStateHookRegistry {
  register(name: string, hook: OpStateHook): void;
  list(): OpStateHook[];
}

export function createOpStateHooks(): OpStateHookRegistry {
  const hooks = new Map<string, OpStateHook>();
  return {
    register(name, hook) {
      hooks.set(name, hook);
    },
    list: () => [...hooks.values()],
  };
}

/** The platform's hooks: modules register at import (platform/webhooks/events.ts). */
export const fleetOpStateHooks: OpStateHookRegistry = createOpStateHooks();
