import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/* Lists queried in SQL: q/sort/page/size/ids → {items, total}; detail calls; NDJSON export. */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

async function entity(a: TestAccount, entity_name: string, extra: Record<string, string> = {}) {
  const r = await post(a, "create_entity", { entity_name, description: `${entity_name} desc`, parent_entity_name: "", ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.entity_id as string;
}

async function contact(a: TestAccount, first_name: string, last_name: string, fields: Record<string, string> = {}) {
  const r = await post(a, "create-contact", {
    first_name,
    last_name,
    email: `${first_name.toLowerCase() || "x"}@example.com`,
    contact_type: "business",
    entity_name: "HQ",
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.contact_id as string;
}

/** NDJSON text → rows. */
const lines = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe("contact lists in SQL", () => {
  let a: TestAccount;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    a = await p.newAccount();
    await entity(a, "HQ");
    await entity(a, "Lab");
    ids.ada = await contact(a, "Ada", "Lovelace", { company_name: "Analytical Engines" });
    ids.grace = await contact(a, "Grace", "Hopper", { contact_type: "technical" });
    ids.alan = await contact(a, "Alan", "Turing", { phone: "+44 1" });
    ids.blank = await contact(a, "", "Nameless");
    expect((await post(a, "contact-assign-entity", { contact_id: ids.alan, contact_types: "security", new_entity_name: "Lab" })).status).toBe(200);
  });

  it("without list parameters answers the spec's array", async () => {
    const r = await get(a, "get-contact");
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body.map((c: any) => c.first_name)).toEqual(["Ada", "Grace", "Alan", ""]);
  });

  it("pages in creation order with the total", async () => {
    const first = await get(a, "get-contact", { page: "1", size: "3" });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.items.map((c: any) => c.first_name)).toEqual(["Ada", "Grace", "Alan"]);
    const second = await get(a, "get-contact", { page: "2", size: "3" });
    expect(second.body).toMatchObject({ total: 4, items: [{ last_name: "Nameless" }] });
    expect((await get(a, "get-contact", { page: "3", size: "3" })).body).toEqual({ items: [], total: 4 });
    // The item shape is the array's.
    const whole = (await get(a, "get-contact")).body as any[];
    expect(first.body.items[0]).toEqual(whole[0]);
  });

  it("sorts case-insensitively, blanks last both ways, and the last page reads the reversed order correctly", async () => {
    const asc = await get(a, "get-contact", { sort: "first_name", size: "10" });
    expect(asc.body.items.map((c: any) => c.first_name)).toEqual(["Ada", "Alan", "Grace", ""]);
    const desc = await get(a, "get-contact", { sort: "-first_name", size: "10" });
    expect(desc.body.items.map((c: any) => c.first_name)).toEqual(["Grace", "Alan", "Ada", ""]);
    // Page 2 of size 2 lies in the second half: read backwards, answered forwards.
    const last = await get(a, "get-contact", { sort: "first_name", size: "2", page: "2" });
    expect(last.body.items.map((c: any) => c.first_name)).toEqual(["Grace", ""]);
    const byEntity = await get(a, "get-contact", { sort: "-entity_name", size: "10" });
    expect(byEntity.body.items.map((c: any) => c.entity_name)).toEqual(["HQ", "HQ", "HQ", "HQ"]);
  });

  it("searches every word in the contact's texts and its entities' names", async () => {
    expect((await get(a, "get-contact", { q: "hopper" })).body).toMatchObject({ total: 1, items: [{ first_name: "Grace" }] });
    expect((await get(a, "get-contact", { q: "ENGINES ada" })).body.total).toBe(1);
    expect((await get(a, "get-contact", { q: "lab" })).body).toMatchObject({ total: 1, items: [{ first_name: "Alan" }] });
    expect((await get(a, "get-contact", { q: "technical" })).body.total).toBe(1);
    // LIKE wildcards are text, not patterns.
    expect((await get(a, "get-contact", { q: "%" })).body).toEqual({ items: [], total: 0 });
    expect((await get(a, "get-contact", { q: "_" })).body.total).toBe(0);
  });

  it("filters by entity and by ids", async () => {
    const labId = ((await get(a, "get_entity", { q: "Lab" })).body.items[0] as any).entity_id;
    const lab = await get(a, "get_contact", { entity_id: labId, size: "10" });
    expect(lab.body).toMatchObject({ total: 1, items: [{ first_name: "Alan", contact_type: "security", entity_name: "Lab" }] });
    const some = await get(a, "get-contact", { ids: `${ids.ada},${ids.grace},con-unknown`, q: "hopper" });
    expect(some.body.items.map((c: any) => c.contact_id)).toEqual([ids.grace]);
  });

  it("refuses bad list parameters with 422", async () => {
    const bad: Record<string, string>[] = [
      { page: "0" },
      { page: "x" },
      { page: "1.5" },
      { size: "101" },
      { size: "0" },
      { sort: "password" },
      { sort: "--first_name" },
      { q: "x".repeat(201) },
      { q: "a\u0000b" },
    ];
    for (const query of bad) {
      expect((await get(a, "get-contact", query)).status, JSON.stringify(query)).toBe(422);
    }
  });

  it("keeps every account to its own rows: lists, details, entity filter and export", async () => {
    const b = await p.newAccount();
    expect((await get(b, "get-contact", { size: "10" })).body).toEqual({ items: [], total: 0 });
    // B's contact shows B's entity, never an older assignment of another account.
    await entity(b, "B-only");
    const own = await contact(b, "Bea", "B", { entity_name: "B-only" });
    expect((await get(b, "get-contact-detail", { contact_id: own })).body.entity_name).toBe("B-only");
    expect((await get(b, "get-contact", { page: "1" })).body.items[0].entity_name).toBe("B-only");
    expect((await get(b, "get-contact", { q: "hq" })).body.total).toBe(0);
    expect((await get(b, "get-contact", { ids: ids.ada })).body).toEqual({ items: [], total: 0 });
    expect((await get(b, "get-contact", { ids: `${ids.ada},${own}` })).body.items.map((c: any) => c.contact_id)).toEqual([own]);
    expect((await get(b, "get-contact-detail", { contact_id: ids.ada })).status).toBe(404);
    const hq = ((await get(a, "get_entity", { q: "HQ" })).body.items[0] as any).entity_id;
    expect((await get(b, "get_contact", { entity_id: hq, page: "1" })).status).toBe(404);
    expect((await get(b, "export-contacts", { entity_id: hq })).status).toBe(404);
    // One NDJSON line is one JSON object, which the harness parses.
    expect((await get(b, "export-contacts")).body).toMatchObject({ contact_id: own, entity_name: "B-only" });
    expect((await get(b, "get-entity-detail", { entity_id: hq })).status).toBe(404);
  });

  it("answers one contact by id", async () => {
    const r = await get(a, "get-contact-detail", { contact_id: ids.alan });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(((await get(a, "get-contact")).body as any[]).find((c) => c.contact_id === ids.alan));
    expect((await get(a, "get-contact-detail", { contact_id: "con-nope" })).status).toBe(404);
    expect((await get(a, "get-contact-detail", {})).status).toBe(422);
  });

  it("exports what the search selects, in the list's order, as NDJSON; a readonly user may export", async () => {
    const ro = await p.newIamUser(a, "readonly");
    const r = await p.app.fetch(
      new Request("http://platform.test/api/v1/export-contacts?sort=-first_name&q=a", { headers: { authorization: `Bearer ${ro.token}` } }),
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    const rows = lines(await r.text());
    const listed = (await get(a, "get-contact", { sort: "-first_name", q: "a", size: "100" })).body;
    expect(rows).toEqual(listed.items);
    expect((await get(ro, "get-contact", { page: "1" })).status).toBe(200);
  });
});

describe("entity lists in SQL", () => {
  it("pages, sorts, searches and answers one entity", async () => {
    const a = await p.newAccount();
    const root = await entity(a, "Root");
    await entity(a, "beta", { parent_entity_name: "Root" });
    await entity(a, "Alpha", { parent_entity_name: "Root" });
    expect((await get(a, "get_entity")).body.map((e: any) => e.entity_name)).toEqual(["Alpha", "Root", "beta"]);
    const page = await get(a, "get_entity", { size: "2" });
    expect(page.body.total).toBe(3);
    expect(page.body.items.map((e: any) => e.entity_name)).toEqual(["Alpha", "beta"]);
    const byParent = await get(a, "get_entity", { sort: "parent_entity_name", size: "10" });
    // Both children have parent Root (ties go by id); Root's blank parent comes last.
    expect(byParent.body.items.map((e: any) => e.entity_name).slice(2)).toEqual(["Root"]);
    expect(byParent.body.items.map((e: any) => e.parent_entity_name)).toEqual(["Root", "Root", ""]);
    expect((await get(a, "get_entity", { q: "root" })).body.total).toBe(3); // name or parent name
    expect((await get(a, "get_entity", { q: "alpha" })).body.total).toBe(1);
    expect((await get(a, "get_entity", { sort: "name" })).status).toBe(422);
    expect((await get(a, "get-entity-detail", { entity_id: root })).body).toMatchObject({ entity_name: "Root", parent_entity_name: "" });
    const exported = await p.app.fetch(
      new Request("http://platform.test/api/v1/export-entities?sort=-entity_name", { headers: { authorization: `Bearer ${a.token}` } }),
    );
    expect(lines(await exported.text()).map((e) => e.entity_name)).toEqual(["Root", "beta", "Alpha"]);
  });
});

describe("100,000 contacts in one account", () => {
  it("answers the first and the last page fast, and exports them all in order", async () => {
    const a = await p.newAccount();
    // One statement: distinct names and creation times, so every sort has a defined order.
    await p.deps.db.execute(sql`insert into contacts (contact_id, account_id, first_name, last_name, email, contact_type, created_at, updated_at)
      select 'con-big' || lpad(i::text, 6, '0'), ${a.accountId}, 'First' || i, 'Last' || (100000 - i), 'c' || i || '@example.com',
        'business', timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
      from generate_series(1, 100000) as i`);
    await p.deps.db.execute(sql`analyze contacts`);
    // Warm: each query shape planned once and its index pages read once, as on a running platform.
    await get(a, "get-contact", { page: "1", size: "10" });
    await get(a, "get-contact", { page: "10000", size: "10" });

    // The best of five: the machine running the tests is shared, one run can be stalled by others.
    const timed = async (query: Record<string, string>) => {
      let best = Infinity;
      let r: Awaited<ReturnType<typeof get>> | undefined;
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        r = await get(a, "get-contact", query);
        best = Math.min(best, performance.now() - started);
      }
      return { ms: best, r: r! };
    };
    const first = await timed({ page: "1", size: "10" });
    const last = await timed({ page: "10000", size: "10" });
    expect(first.r.body.total).toBe(100000);
    expect(first.r.body.items[0].contact_id).toBe("con-big000001");
    expect(last.r.body.items.map((c: any) => c.contact_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `con-big${String(99991 + i).padStart(6, "0")}`),
    );
    console.log(`100k contacts: first page ${first.ms.toFixed(1)} ms, last page ${last.ms.toFixed(1)} ms`);
    expect(first.ms).toBeLessThan(50);
    expect(last.ms).toBeLessThan(50);

    const search = await timed({ q: "first99999", size: "10" });
    console.log(`100k contacts: search ${search.ms.toFixed(1)} ms`);
    expect(search.r.body.total).toBe(1);

    // The export streams every row once, in order (keyset batches).
    const res = await p.app.fetch(new Request("http://platform.test/api/v1/export-contacts", { headers: { authorization: `Bearer ${a.token}` } }));
    const reader = res.body!.getReader();
    let count = 0;
    let rest = "";
    let previous = "";
    let ordered = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const parts = (rest + new TextDecoder().decode(value)).split("\n");
      rest = parts.pop()!;
      for (const part of parts) {
        const id = JSON.parse(part).contact_id as string;
        if (id <= previous) ordered = false;
        previous = id;
        count++;
      }
    }
    expect(count).toBe(100000);
    expect(ordered).toBe(true);
  }, 120_000);
});
