import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { createFleet, createFleetClock, createInProcessBus, createKindRegistry, createPgBus, sqlKindSource, type FleetEvent, type Outage } from "./index.ts";
import { DAY } from "./time.ts";

/*
 * The fleet clock against a real database: a small table of test devices created here (the
 * object tables belong to later issues), on PGlite by default and on PostgreSQL with
 * TEST_DATABASE_URL. The clock is driven by hand, never by sleeping.
 */

const NOW = Date.parse("2026-11-18T15:07:30Z");
const fleet = createFleet(7);
const pgUrl = process.env.TEST_DATABASE_URL;

let db: Db;
let closeDb: () => Promise<void>;
const tables: string[] = [];

// The test table needs none of the platform's schema: a bare database, no migrations to wait for.
beforeAll(async () => {
  if (pgUrl) {
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new pg.Pool({ connectionString: pgUrl, max: 4 });
    db = drizzle(pool) as unknown as Db;
    closeDb = () => pool.end();
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    // Start PGlite here (hook time-out), not in the first test: on a busy machine it takes seconds.
    const client = await PGlite.create();
    db = drizzle(client) as unknown as Db;
    await db.execute(sql`select 1`);
    closeDb = () => client.close();
  }
});

afterAll(async () => {
  for (const t of tables) await db.execute(sql`drop table if exists ${sql.identifier(t)}`);
  await closeDb();
});

/** A fresh test table with one device in an outage-bearing position; answers its name and the device's outage. */
async function setup(accountId = "acct-fleet-test") {
  const table = `fleet_test_devices_${Math.random().toString(36).slice(2, 10)}`;
  tables.push(table);
  await db.execute(sql`create table ${sql.identifier(table)} (
    id text primary key, account_id text not null, lat double precision, lon double precision, mbps integer,
    op_state text, op_state_change_at timestamptz)`);
  // A device with an outage in the last week (searched, not assumed).
  let id = "";
  let outage: Outage | undefined;
  for (let i = 0; i < 500 && !outage; i++) {
    id = `cpe-clock-${table}-${i}`;
    outage = fleet.outages({ id, kind: "cpe", lat: 51.5, lon: -0.1 }, "1w", NOW).find((o) => o.end_time && o.start > NOW - 6 * DAY);
  }
  await db.execute(sql`insert into ${sql.identifier(table)} (id, account_id, lat, lon, mbps, op_state, op_state_change_at)
    values (${id}, ${accountId}, 51.5, -0.1, 300, 'up', ${new Date(NOW - 30 * DAY).toISOString()})`);
  const kinds = createKindRegistry();
  kinds.register(
    sqlKindSource({
      kind: "cpe",
      table,
      id: "id",
      accountId: "account_id",
      lat: "lat",
      lon: "lon",
      contractedMbps: "mbps",
      opState: "op_state",
      opStateChangeAt: "op_state_change_at",
      served: async () => ({ app_services: ["as-1"], endpoints: ["ep-1"] }),
    }),
  );
  const state = async () => {
    const r = (await db.execute(sql`select op_state, op_state_change_at from ${sql.identifier(table)} where id = ${id}`)) as unknown as { rows: { op_state: string; op_state_change_at: Date | string }[] };
    return { op_state: r.rows[0]!.op_state, at: new Date(r.rows[0]!.op_state_change_at).getTime() };
  };
  return { table, id, outage: outage!, kinds, state };
}

describe("fleet clock", () => {
  it("changes op_state exactly at an outage's start and end, with one event each", async () => {
    const { id, outage, kinds, state } = await setup();
    const bus = createInProcessBus();
    const events: FleetEvent[] = [];
    bus.subscribe((e) => events.push(e));
    let changedTicks = 0;
    const clock = createFleetClock({ db, fleet, kinds, bus, replayMs: 0, onChange: () => changedTicks++ });

    await clock.tick(outage.start - 1000);
    expect(await state()).toMatchObject({ op_state: "up" });
    expect(events).toEqual([]);
    expect(changedTicks).toBe(0);

    const r = await clock.tick(outage.start);
    expect(r).toEqual({ leader: true, changes: 1 });
    expect(await state()).toEqual({ op_state: "down", at: outage.start });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "op_state_changed",
      event_id: `cpe:${id}:down:${outage.start}`,
      kind: "cpe",
      id,
      account_id: "acct-fleet-test",
      before: "up",
      after: "down",
      at: outage.start_time,
      outage_id: outage.outage_id,
      self_diagnosis: outage.self_diagnosis,
      announced: false,
      affected: { app_services: ["as-1"], endpoints: ["ep-1"] },
    });

    // Ticks during the outage change nothing.
    await clock.tick(outage.start + 1000);
    await clock.tick(outage.end - 1);
    expect(events).toHaveLength(1);

    // Between ticks: the end falls inside (end - 1, end + 3000]; it is applied at the end itself.
    await clock.tick(outage.end + 3000);
    expect(await state()).toEqual({ op_state: "up", at: outage.end });
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ before: "down", after: "up", at: outage.end_time, self_diagnosis: null });
    await clock.tick(outage.end + 6000);
    expect(events).toHaveLength(2);
    // The platform forgets its cached reads after each tick that wrote.
    expect(changedTicks).toBe(2);
    await clock.stop();
  });

  it("a replayed tick (another instance, or a new leader) applies nothing twice", async () => {
    const { outage, kinds, state } = await setup();
    const bus = createInProcessBus();
    const events: FleetEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const a = createFleetClock({ db, fleet, kinds, bus, replayMs: 0 });
    await a.tick(outage.start - 1000);
    await a.tick(outage.end + 1000);
    expect(events.map((e) => e.after)).toEqual(["down", "up"]);
    // A second clock that replays the last day: the database already has both changes.
    const b = createFleetClock({ db, fleet, kinds, bus, replayMs: DAY });
    await b.tick(outage.end + 2000);
    expect(events).toHaveLength(2);
    expect(await state()).toEqual({ op_state: "up", at: outage.end });
  });

  it("announced maintenance marks the outage's events so no alert is sent", async () => {
    const { outage, kinds } = await setup();
    const source = kinds.list()[0]!;
    const maintenance = [{ start: outage.start - 60_000, end: outage.end + 60_000 }];
    kinds.register({ ...source, list: async (d) => (await source.list(d)).map((o) => ({ ...o, events: { maintenance } })) });
    const bus = createInProcessBus();
    const events: FleetEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const clock = createFleetClock({ db, fleet, kinds, bus, replayMs: 0 });
    await clock.tick(outage.start - 1);
    await clock.tick(outage.start);
    await clock.tick(outage.end);
    expect(events.map((e) => [e.after, e.announced])).toEqual([
      ["down", true],
      ["up", true],
    ]);
  });

  it("a new object takes the state it has now", async () => {
    const { outage, kinds, state } = await setup();
    const clock = createFleetClock({ db, fleet, kinds, bus: createInProcessBus(), replayMs: 0 });
    // First tick in the middle of the outage: down since its start.
    const r = await clock.tick(outage.start + 1000);
    expect(r.changes).toBe(1);
    expect(await state()).toEqual({ op_state: "down", at: outage.start });
  });
});

describe.skipIf(!pgUrl)("fleet clock on PostgreSQL, two instances", () => {
  it("one instance runs the clock; events reach both; when the holder dies the other takes over within one tick", async () => {
    const { outage, kinds, state } = await setup();
    const lockKey = Math.floor(Math.random() * 2 ** 30);
    const channel = `fleet_test_${Math.random().toString(36).slice(2, 10)}`;
    const busA = createPgBus(pgUrl!, { channel });
    const busB = createPgBus(pgUrl!, { channel });
    await Promise.all([busA.ready, busB.ready]);
    const gotA: FleetEvent[] = [];
    const gotB: FleetEvent[] = [];
    busA.subscribe((e) => gotA.push(e));
    busB.subscribe((e) => gotB.push(e));
    const a = createFleetClock({ db, fleet, kinds, bus: busA, databaseUrl: pgUrl, lockKey, replayMs: 0 });
    const b = createFleetClock({ db, fleet, kinds, bus: busB, databaseUrl: pgUrl, lockKey, replayMs: 0 });
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    try {
      expect((await a.tick(outage.start - 1000)).leader).toBe(true);
      expect((await b.tick(outage.start - 1000)).leader).toBe(false);

      // Both instances tick at the outage start: only the leader applies it; both hear the event.
      const [ra, rb] = await Promise.all([a.tick(outage.start), b.tick(outage.start)]);
      expect(ra).toEqual({ leader: true, changes: 1 });
      expect(rb).toEqual({ leader: false, changes: 0 });
      await until(() => gotA.length === 1 && gotB.length === 1);
      expect(gotB[0]).toMatchObject({ after: "down", at: outage.start_time });
      expect(await state()).toEqual({ op_state: "down", at: outage.start });

      // Kill the holder's session (as when its process dies).
      const pid = a.lockSessionPid();
      expect(pid).not.toBeNull();
      await admin.query("select pg_terminate_backend($1)", [pid]);
      await until(async () => (await admin.query("select 1 from pg_stat_activity where pid = $1", [pid])).rowCount === 0);

      // The next tick of the other instance takes over and applies the outage's end.
      const takeover = await b.tick(outage.end);
      expect(takeover).toEqual({ leader: true, changes: 1 });
      expect(await state()).toEqual({ op_state: "up", at: outage.end });
      await until(() => gotA.length === 2 && gotB.length === 2);
      expect(gotA[1]).toMatchObject({ after: "up", at: outage.end_time });

      // The old holder comes back as a follower.
      expect(await a.tick(outage.end + 1000)).toEqual({ leader: false, changes: 0 });
      expect(gotA).toHaveLength(2);
    } finally {
      await admin.end();
      await Promise.all([a.stop(), b.stop(), busA.close(), busB.close()]);
    }
  });

  it("an instance whose event connection drops listens again and gets the next events", async () => {
    const channel = `fleet_test_${Math.random().toString(36).slice(2, 10)}`;
    const busA = createPgBus(pgUrl!, { channel });
    const busB = createPgBus(pgUrl!, { channel });
    await Promise.all([busA.ready, busB.ready]);
    const gotA: FleetEvent[] = [];
    busA.subscribe((e) => gotA.push(e));
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const listeners = async () => (await admin.query("select pid from pg_stat_activity where query = $1", [`LISTEN ${channel}`])).rows.map((r) => r.pid as number);
    try {
      const [first] = await listeners();
      await admin.query("select pg_terminate_backend($1)", [first]);
      // Both listening again (one reconnected after its 1 s back-off).
      await until(async () => {
        const now = await listeners();
        return now.length === 2 && !now.includes(first!);
      });
      const event: FleetEvent = { type: "op_state_changed", event_id: "cpe:cpe-x:down:1", kind: "cpe", id: "cpe-x", account_id: "a", before: "up", after: "down", at: new Date(NOW).toISOString(), outage_id: null, self_diagnosis: null, announced: false, affected: { app_services: [], endpoints: [] } };
      await busB.publish(event);
      await until(() => gotA.length === 1);
      expect(gotA[0]).toEqual(event);
    } finally {
      await admin.end();
      await Promise.all([busA.close(), busB.close()]);
    }
  });
});

/** Waits for something another connection does (a NOTIFY arriving, a backend exiting); bounded. */
async function until(cond: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
