import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";
import { createAccount, issueToken } from "../domain/accounts.ts";
import { authMiddleware } from "./auth.ts";
import { configFromEnv } from "./config.ts";
import type { Env, PlatformDeps } from "./context.ts";
import { newId } from "./ids.ts";
import { defineList, execRows, inIds, numberColumn, stepColumn, textColumn, timeColumn, type ListQuery } from "./list.ts";
import { outboxMailer } from "../test/mail.ts";

/* defineList itself, over a table of its own (the lists of every area: platform/routes/lists.test.ts). */

interface Row {
  id: string;
  name: string;
  size: string;
  n: number | null;
  at: string;
}

let database: Database;
let deps: PlatformDeps;
const table = sql.raw(`list_test_${process.pid}`);
const account = newId("acc");
const other = newId("acc");

const rows = (db: Database["db"], accountId: string, ids: string[]) =>
  execRows<Row>(db, sql`select id, name, size, n, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from ${table} where account_id = ${accountId} and ${inIds(sql`id`, ids)}`);

interface TestQuery extends ListQuery {
  minN?: number;
}

const spec: Parameters<typeof defineList<Row, "name" | "size" | "n" | "at", TestQuery>>[0] = {
  from: sql`from ${table} r`,
  id: sql`r.id`,
  account: sql`r.account_id`,
  search: [sql`lower(r.name)`, sql`r.size`],
  sortable: { name: textColumn(sql`r.name`), size: stepColumn(sql`r.size`, ["small", "medium", "large"]), n: numberColumn(sql`r.n`), at: timeColumn(sql`r.at`) },
  defaultSort: "at",
  filter: (_db, _accountId, q) => (q.minN === undefined ? {} : { where: [sql`r.n >= ${q.minN}`] }),
  rows: (db, accountId, ids) => rows(db, accountId, ids),
  idOf: (r) => r.id,
  notFound: () => new Error("Row not found"),
  all: (db, accountId) => execRows<Row>(db, sql`select id, name, size, n, at::text as at from ${table} where account_id = ${accountId} order by at, id`),
  exportBatch: 3,
};
const list = defineList(spec);

/** id, name, size, n: created one second apart in this order. */
const seed: [string, string, string, number | null][] = [
  ["r01", "Ada", "large", 3],
  ["r02", "", "small", null],
  ["r03", "bob", "medium", 1],
  ["r04", "Ada", "huge", 2],
  ["r05", "carl", "small", null],
  ["r06", "", "large", 5],
  ["r07", "ada lovelace", "medium", 4],
  ["r08", "Bob", "small", 1],
];

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL || undefined });
  const config = { ...configFromEnv({}), consoleUrl: "http://console.test", seedDemo: false, cacheCallers: "local" as const };
  deps = { db: database.db, dbKind: database.kind, config, mailer: outboxMailer("/tmp") };
  await database.db.execute(sql`create table if not exists ${table} (id text primary key, account_id text not null, name text not null, size text not null, n int, at timestamptz not null)`);
  for (const [i, [id, name, size, n]] of seed.entries()) {
    await database.db.execute(sql`insert into ${table} values (${`${account}-${id}`}, ${account}, ${name}, ${size}, ${n}, timestamptz '2026-01-01T00:00:00Z' + ${`${i} seconds`}::interval)`);
  }
  await database.db.execute(sql`insert into ${table} values (${`${other}-r01`}, ${other}, 'Ada', 'small', 1, now())`);
});

afterAll(async () => {
  await database.db.execute(sql`drop table if exists ${table}`);
  await database.close();
});

const names = (page: { items: Row[] }) => page.items.map((r) => r.id.slice(-3));
const page = (q: TestQuery) => list.page(database.db, account, { size: 100, ...q });

describe("defineList", () => {
  it("sorts text case-insensitively with blanks last both ways, ties by id", async () => {
    expect(names(await page({ sort: "name" }))).toEqual(["r01", "r04", "r07", "r03", "r08", "r05", "r02", "r06"]);
    expect(names(await page({ sort: "-name" }))).toEqual(["r05", "r08", "r03", "r07", "r04", "r01", "r06", "r02"]);
  });

  it("sorts numbers and steps with blanks (null, unknown step) last both ways", async () => {
    expect(names(await page({ sort: "n" }))).toEqual(["r03", "r08", "r04", "r01", "r07", "r06", "r02", "r05"]);
    expect(names(await page({ sort: "-n" }))).toEqual(["r06", "r07", "r01", "r04", "r08", "r03", "r05", "r02"]);
    expect(names(await page({ sort: "size" }))).toEqual(["r02", "r05", "r08", "r03", "r07", "r01", "r06", "r04"]);
    expect(names(await page({ sort: "-size" }))).toEqual(["r06", "r01", "r07", "r03", "r08", "r05", "r02", "r04"]);
  });

  it("pages every sort consistently: late pages (read in the reversed order) continue the early ones", async () => {
    for (const sort of ["name", "-name", "n", "-n", "size", "-size", "at", "-at"]) {
      const whole = names(await page({ sort }));
      const pages: string[] = [];
      for (let p = 1; p <= 3; p++) pages.push(...names(await page({ sort, size: 3, page: p })));
      expect(pages, sort).toEqual(whole);
      const last = await page({ sort, size: 2, page: 4 });
      expect(names(last), sort).toEqual(whole.slice(6));
      expect(last.total).toBe(8);
    }
    // A time sort has no blanks: its last page is the other direction's first, reversed.
    expect(names(await page({ sort: "at", size: 3, page: 3 }))).toEqual(names(await page({ sort: "-at", size: 2, page: 1 })).reverse());
    expect(await page({ page: 5, size: 2 })).toEqual({ items: [], total: 8 });
  });

  it("searches: every word must occur in one of the texts; the total counts the matches", async () => {
    const found = await page({ q: "ADA" });
    expect(names(found)).toEqual(["r01", "r04", "r07"]);
    expect(found.total).toBe(3);
    expect(names(await page({ q: "ada small" }))).toEqual([]);
    expect(names(await page({ q: "bob small" }))).toEqual(["r08"]);
    expect(names(await page({ q: "100%" }))).toEqual([]);
  });

  it("filters by ids (only the account's) and by the list's own filters", async () => {
    const ids = [`${account}-r03`, `${account}-r01`, `${other}-r01`, "nope"];
    expect(names(await page({ ids }))).toEqual(["r01", "r03"]);
    expect(await page({ ids: [] })).toEqual({ items: [], total: 0 });
    expect(names(await page({ minN: 3, sort: "-n" }))).toEqual(["r06", "r07", "r01"]);
    expect((await list.byIds(database.db, account, [`${account}-r08`, `${other}-r01`, `${account}-r02`])).map((r) => r.id.slice(-3))).toEqual(["r08", "r02"]);
    expect((await list.one(database.db, account, `${account}-r05`)).name).toBe("carl");
    await expect(list.one(database.db, account, `${other}-r01`)).rejects.toThrow("Row not found");
  });

  it("exports in the page order, in keyset batches, with the search and filters", async () => {
    for (const query of [{ sort: "name" }, { sort: "-n" }, { sort: "-size" }, { sort: "-at" }, {}, { q: "a", sort: "-name" }, { minN: 1, sort: "n" }] as TestQuery[]) {
      const exported: string[] = [];
      const batches: number[] = [];
      for await (const batch of list.batches(database.db, account, query)) {
        batches.push(batch.length);
        exported.push(...batch.map((r) => r.id.slice(-3)));
      }
      expect(exported, JSON.stringify(query)).toEqual(names(await page(query)));
      expect(batches.every((n) => n <= 3)).toBe(true);
    }
  });

  it("answers through the read cache, which a write empties", async () => {
    const owner = await createAccount(deps, { username: `list-${newId("t")}@example.test`, password: "correct horse battery", name: "List test" });
    const token = await issueToken(deps, owner.accountId);
    await database.db.execute(sql`insert into ${table} values (${`${owner.accountId}-a`}, ${owner.accountId}, 'first', 'small', 1, now())`);
    const app = new Hono<Env>();
    app.use("*", async (c, next) => {
      c.set("deps", deps);
      await next();
    });
    app.use("*", authMiddleware(""));
    app.get("/rows", (c) => list.answer(c, owner.accountId, { q: c.req.query("q") }, c.req.query("q") !== undefined));
    app.post("/touch", (c) => c.json({ ok: true }));
    const get = async (q?: string) => {
      const res = await app.fetch(new Request(`http://t/rows${q === undefined ? "" : `?q=${q}`}`, { headers: { authorization: `Bearer ${token}` } }));
      return res.json() as Promise<Row[] | { items: Row[]; total: number }>;
    };
    expect(await get()).toHaveLength(1);
    expect(await get("")).toMatchObject({ total: 1 });
    // A change made outside a call is not seen while the answers are remembered…
    await database.db.execute(sql`insert into ${table} values (${`${owner.accountId}-b`}, ${owner.accountId}, 'second', 'small', 2, now())`);
    expect(await get()).toHaveLength(1);
    expect(await get("")).toMatchObject({ total: 1 });
    // …and any write call forgets them: both the plain array and the page are read again.
    await app.fetch(new Request("http://t/touch", { method: "POST", headers: { authorization: `Bearer ${token}` } }));
    expect(await get()).toHaveLength(2);
    expect(await get("")).toMatchObject({ total: 2 });
  });

  it("keeps an answer with a figure computed from the time no longer than its freshUntil", async () => {
    const owner = await createAccount(deps, { username: `list-${newId("t")}@example.test`, password: "correct horse battery", name: "List test" });
    const token = await issueToken(deps, owner.accountId);
    const insert = (suffix: string, n: number) =>
      database.db.execute(sql`insert into ${table} values (${`${owner.accountId}-${suffix}`}, ${owner.accountId}, 'row', 'small', ${n}, now())`);
    await insert("a", 1);
    // A row with n = 0 says "my figure changes now"; otherwise the figures change 80 ms from now.
    const timed = defineList({ ...spec, freshUntil: (rows, now) => (rows.some((r) => r.n === 0) ? now : now + 80) });
    const app = new Hono<Env>();
    app.use("*", async (c, next) => {
      c.set("deps", deps);
      await next();
    });
    app.use("*", authMiddleware(""));
    app.get("/rows", (c) => timed.answer(c, owner.accountId, {}, false));
    const count = async () => ((await (await app.fetch(new Request("http://t/rows", { headers: { authorization: `Bearer ${token}` } }))).json()) as Row[]).length;
    expect(await count()).toBe(1);
    await insert("b", 2);
    // Remembered (a change made outside a call is not seen)…
    expect(await count()).toBe(1);
    // …until the time its figures change.
    await new Promise((r) => setTimeout(r, 120));
    expect(await count()).toBe(2);
    // An answer whose figure changes now is never remembered.
    await insert("c", 0);
    await new Promise((r) => setTimeout(r, 120));
    expect(await count()).toBe(3);
    await insert("d", 4);
    expect(await count()).toBe(4);
  });
});
