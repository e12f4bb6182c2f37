import { listen } from "../lib/background.ts";
import type { Affected } from "./outages.ts";
import { observe } from "../../server/observe.mjs";

const log = observe("platform").logger.child({ component: "fleet" });

/*
 * The fleet's event bus. Later issues subscribe (webhooks, e-mail, SSE). With PGlite there is one
 * process, so the bus is in-process; with PostgreSQL every platform instance LISTENs on one
 * channel and the clock's leader NOTIFYs it, so every instance's subscribers get every event
 * exactly once (the publisher hears its own NOTIFY like everyone else).
 */

/** An object's op state changed (an outage began or ended). */
export interface OpStateChanged {
  type: "op_state_changed";
  /**
   * The same for the same change whichever instance saw it: subscribers that act once across
   * instances (webhook deliveries) insert it with a unique constraint.
   */
  event_id: string;
  kind: string;
  id: string;
  account_id: string;
  before: string | null;
  after: "up" | "down";
  /** When the change happened (the outage's start or end), ISO 8601 UTC. */
  at: string;
  outage_id: string | null;
  self_diagnosis: string | null;
  /** Inside an announced maintenance window: subscribers send no alert. */
  announced: boolean;
  affected: Affected;
}

export type FleetEvent = OpStateChanged;

export interface FleetBus {
  publish(event: FleetEvent): Promise<void>;
  /** Answers a function that unsubscribes. A subscriber that throws does not stop the others. */
  subscribe(listener: (event: FleetEvent) => void): () => void;
  close(): Promise<void>;
}

function dispatcher() {
  const listeners = new Set<(event: FleetEvent) => void>();
  return {
    listeners,
    dispatch(event: FleetEvent) {
      for (const l of [...listeners]) {
        try {
          l(event);
        } catch (error) {
          log.error({ err: error }, "event subscriber failed");
        }
      }
    },
    subscribe(listener: (event: FleetEvent) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export function createInProcessBus(): FleetBus {
  const d = dispatcher();
  return {
    async publish(event) {
      d.dispatch(event);
    },
    subscribe: d.subscribe,
    async close() {
      d.listeners.clear();
    },
  };
}

export const FLEET_CHANNEL = "linkwise_fleet_events";
/** NOTIFY payloads must stay under 8000 bytes: long "affected" lists are cut. */
const MAX_AFFECTED = 40;

export interface PgBus extends FleetBus {
  /** Resolves once this instance is listening. */
  ready: Promise<void>;
}

/**
 * LISTEN/NOTIFY on a dedicated connection. If the connection drops it reconnects (events
 * notified while it was away are not replayed: the op state in the database is the truth).
 */
export function createPgBus(databaseUrl: string, opts: { channel?: string } = {}): PgBus {
  const channel = opts.channel ?? FLEET_CHANNEL;
  const d = dispatcher();
  const listener = listen(databaseUrl, channel, {
    notification(payload) {
      if (!payload) return;
      try {
        d.dispatch(JSON.parse(payload) as FleetEvent);
      } catch (error) {
        log.error({ err: error }, "bad event payload");
      }
    },
  });
  const { ready } = listener;
  return {
    ready,
    async publish(event) {
      await ready;
      const payload: FleetEvent = {
        ...event,
        affected: { app_services: event.affected.app_services.slice(0, MAX_AFFECTED), endpoints: event.affected.endpoints.slice(0, MAX_AFFECTED) },
      };
      const client = listener.client();
      if (!client) throw new Error("fleet event bus is not connected");
      await client.query("select pg_notify($1, $2)", [channel, JSON.stringify(payload)]);
    },
    subscribe: d.subscribe,
    async close() {
      d.listeners.clear();
      await listener.close();
      await ready.catch(() => {});
    },
  };
}
