import type { Client } from "pg";

/*
 * What the platform runs beside its calls: a job repeated on a timer (the fleet clock) and a
 * LISTEN connection that comes back after a drop (the fleet's event bus).
 */

/** Runs `run` on the next turn and then every `ms`, without keeping the process alive; answers the stop. */
export function repeat(run: () => void, ms: number): () => void {
  const timer = setInterval(run, ms);
  timer.unref();
  setImmediate(run);
  return () => clearInterval(timer);
}

export interface Listener {
  /** Settles with the first connection: resolves once listening, rejects when that failed. */
  ready: Promise<void>;
  /** The connection while it listens (null while away), e.g. to NOTIFY on it. */
  client(): Client | null;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` on a dedicated connection. After a drop it connects again a second later
 * (what was notified meanwhile is not replayed: the database is the truth), and after a failed
 * first connection too when `retryFirst`. `listening` runs each time it listens.
 */
export function listen(databaseUrl: string, channel: string, on: { notification: (payload: string | undefined) => void; listening?: () => void; retryFirst?: boolean }): Listener {
  // LISTEN takes an identifier, not a parameter.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  let client: Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  function reconnectSoon() {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(reconnectSoon);
    }, 1000);
    retry.unref();
  }

  async function connect(): Promise<void> {
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on("notification", (msg) => {
      if (msg.channel === channel) on.notification(msg.payload);
    });
    const lost = () => {
      if (client !== c) return;
      client = null;
      reconnectSoon();
    };
    c.on("error", lost);
    c.on("end", lost);
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (error) {
      await c.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    on.listening?.();
  }

  const ready = connect();
  if (on.retryFirst) ready.catch(reconnectSoon);
  return {
    ready,
    client: () => client,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
