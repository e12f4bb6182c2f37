import pg from "pg";
import { describe, expect, it } from "vitest";
import { ABANDONED_MS, createPrivateDatabase, dropAbandoned, madeAt, serverReachable } from "./private-database.mjs";

const server = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

async function run(statement: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function exists(name: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

// CI always has PostgreSQL (scripts/test.mjs fails without it); a machine without one skips.
describe.skipIf(!(await serverReachable(server)))("createPrivateDatabase", () => {
  it("makes an empty database of its own, and drop() removes it though a client is still connected", async () => {
    const db = await createPrivateDatabase(server, "linkwise_unit");
    expect(db.name).toMatch(/^linkwise_unit_\d+_[a-z0-9]+_[a-z0-9]+$/);
    expect(new URL(db.url).pathname).toBe(`/${db.name}`);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    client.on("error", () => {}); // the forced drop ends this connection
    const tables = await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'");
    expect(tables.rows[0].n).toBe(0);
    await db.drop();
    expect(await exists(db.name)).toBe(false);
    await client.end().catch(() => {});
  });

  it("gives concurrent runs different databases", async () => {
    const [a, b] = await Promise.all([createPrivateDatabase(server, "linkwise_unit"), createPrivateDatabase(server, "linkwise_unit")]);
    try {
      expect(a.name).not.toBe(b.name);
      expect(await exists(a.name)).toBe(true);
      expect(await exists(b.name)).toBe(true);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  });

  it("refuses a prefix that is not a plain name", async () => {
    await expect(createPrivateDatabase(server, "x; drop database test")).rejects.toThrow(/not a database name prefix/);
    await expect(dropAbandoned(server, "x; drop database test")).rejects.toThrow(/not a database name prefix/);
  });

  it("drops what an interrupted run left behind, and nothing else", async () => {
    // An interrupted run's database (made 7 hours ago), a run's under way (made now), and a name
    // of another form: only the first goes.
    const old = `linkwise_sweep_1234_${(Date.now() - ABANDONED_MS - 3_600_000).toString(36)}_abcd`;
    const other = "linkwise_sweep_kept";
    const current = await createPrivateDatabase(server, "linkwise_sweep");
    await run(`CREATE DATABASE ${old}`);
    await run(`CREATE DATABASE ${other}`);
    try {
      expect(await dropAbandoned(server, "linkwise_sweep")).toEqual([old]);
      expect(await exists(old)).toBe(false);
      expect(await exists(current.name)).toBe(true);
      expect(await exists(other)).toBe(true);
      // createPrivateDatabase sweeps first: an abandoned one made since is gone after it.
      await run(`CREATE DATABASE ${old}`);
      const next = await createPrivateDatabase(server, "linkwise_sweep");
      await next.drop();
      expect(await exists(old)).toBe(false);
    } finally {
      await current.drop();
      await run(`DROP DATABASE IF EXISTS ${other}`);
      await run(`DROP DATABASE IF EXISTS ${old}`);
    }
  });
});

describe("madeAt", () => {
  it("reads the time in a private database's name, and nothing from other names", () => {
    const at = Date.UTC(2026, 11, 1, 12);
    expect(madeAt(`linkwise_e2e_4242_${at.toString(36)}_x1y2`, "linkwise_e2e")).toBe(at);
    expect(madeAt(`linkwise_e2e_4242_${at.toString(36)}_x1y2`, "linkwise_test")).toBeNull();
    expect(madeAt("linkwise_e2e", "linkwise_e2e")).toBeNull();
    expect(madeAt("linkwise_e2e_main", "linkwise_e2e")).toBeNull();
    expect(madeAt(`linkwise_e2e_x_${at.toString(36)}_x1y2`, "linkwise_e2e")).toBeNull();
  });
});
