import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPrivateDatabase } from "./private-database.mjs";

const server = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

async function reachable() {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
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
describe.skipIf(!(await reachable()))("createPrivateDatabase", () => {
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
  });
});
