import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

async function createEntity(a: TestAccount, entity_name: string, parent_entity_name = "", description = "") {
  const r = await post(a, "create_entity", { entity_name, description, parent_entity_name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.entity_id as string;
}

async function entityRow(a: TestAccount, entityId: string) {
  const rows = (await get(a, "get_entity")).body as any[];
  return rows.find((e) => e.entity_id === entityId);
}

/** Everything an account's entity and contact calls can show, to prove a refused call changed nothing. */
async function snapshot(a: TestAccount) {
  const entities = (await get(a, "get_entity")).body;
  const contacts = (await get(a, "get-contact")).body as any[];
  const assigned = [];
  for (const c of contacts) assigned.push((await get(a, "get-contact-assigned-entities", { contact_id: c.contact_id })).body);
  return { entities, contacts, assigned };
}

describe("entities: reads", () => {
  it("GET get_entity_names and get-entity-names list the account's names, sorted", async () => {
    const a = await p.newAccount();
    await createEntity(a, "Zulu");
    await createEntity(a, "Alpha");
    for (const path of ["get_entity_names", "get-entity-names"]) {
      expect(await get(a, path)).toEqual({ status: 200, body: ["Alpha", "Zulu"] });
    }
  });

  it("parent=true with entity_id leaves out the entity and everything below it", async () => {
    const a = await p.newAccount();
    await createEntity(a, "Root");
    const mid = await createEntity(a, "Mid", "Root");
    await createEntity(a, "Leaf", "Mid");
    await createEntity(a, "Other");
    expect((await get(a, "get_entity_names", { parent: "true", entity_id: mid })).body).toEqual(["Other", "Root"]);
    expect((await get(a, "get_entity_names", { parent: "true" })).body).toEqual(["Leaf", "Mid", "Other", "Root"]);
    expect((await get(a, "get_entity_names", { parent: "false", entity_id: mid })).body).toEqual(["Leaf", "Mid", "Other", "Root"]);
    expect(await get(a, "get_entity_names", { parent: "true", entity_id: "ent-nope" })).toEqual({
      status: 404,
      body: { detail: "Entity not found." },
    });
  });

  it("GET get_entity answers every field, parent by name, ISO times", async () => {
    const a = await p.newAccount();
    const root = await createEntity(a, "Root", "", "The top");
    const child = await createEntity(a, "Child", "Root");
    const rows = (await get(a, "get_entity")).body;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      entity_id: child,
      entity_name: "Child",
      parent_entity_name: "Root",
      description: "",
      email: "",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(rows[1]).toMatchObject({ entity_id: root, entity_name: "Root", parent_entity_name: "", description: "The top" });
  });

  it("GET get_contact {entity_id} lists the entity's contacts with the types held there", async () => {
    const a = await p.newAccount();
    const hq = await createEntity(a, "HQ");
    await createEntity(a, "Branch");
    const created = await post(a, "create-contact", {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      phone: "+1 555 0100",
      contact_type: "business",
      entity_name: "Branch",
    });
    const contactId = created.body.contact_id;
    expect((await post(a, "contact-assign-entity", { contact_id: contactId, contact_types: "technical,billing", new_entity_name: "HQ" })).status).toBe(200);
    const rows = (await get(a, "get_contact", { entity_id: hq })).body;
    expect(rows).toEqual([
      {
        contact_id: contactId,
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        phone: "+1 555 0100",
        address: "",
        company_name: "",
        contact_type: "technical,billing",
        entity_name: "HQ",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect(await get(a, "get_contact", { entity_id: "ent-unknown" })).toEqual({ status: 404, body: { detail: "Entity not found." } });
    // Text Postgres cannot store is refused before any query (a NUL would otherwise be a 500).
    expect((await get(a, "get_contact", { entity_id: "ent-\u0000" })).status).toBe(422);
    expect((await get(a, "get_entity_names", { parent: "true", entity_id: "ent-\u001b[0m" })).status).toBe(422);
  });
});

describe("entities: create_entity", () => {
  it("creates with an ent- id, description and parent", async () => {
    const a = await p.newAccount();
    await createEntity(a, "Root");
    const r = await post(a, "create_entity", { entity_name: "  Branch  ", description: "East\ncoast", parent_entity_name: "Root" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ entity_id: expect.stringMatching(/^ent-[0-9a-z]{12}$/), detail: "Entity created." });
    expect(await entityRow(a, r.body.entity_id)).toMatchObject({ entity_name: "Branch", parent_entity_name: "Root", description: "East\ncoast" });
    // description and parent are optional
    expect((await post(a, "create_entity", { entity_name: "Solo" })).status).toBe(200);
  });

  it("refuses a duplicate name (409), an unknown parent (404) and a missing, blank or oversized name (422)", async () => {
    const a = await p.newAccount();
    await createEntity(a, "Root");
    expect(await post(a, "create_entity", { entity_name: "Root", description: "", parent_entity_name: "" })).toEqual({
      status: 409,
      body: { detail: "Entity Root already exists." },
    });
    expect(await post(a, "create_entity", { entity_name: "Kid", parent_entity_name: "Nobody" })).toEqual({
      status: 404,
      body: { detail: "Entity Nobody not found." },
    });
    const missing = await post(a, "create_entity", { description: "x" });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toEqual({ loc: ["body", "entity_name"], msg: "Field required", type: "invalid_type" });
    const blank = await post(a, "create_entity", { entity_name: "   " });
    expect(blank.status).toBe(422);
    expect(blank.body.detail[0].msg).toBe("Entity name is required.");
    expect((await post(a, "create_entity", { entity_name: "x".repeat(201) })).status).toBe(422);
    expect((await post(a, "create_entity", { entity_name: "ok", description: "d".repeat(2001) })).status).toBe(422);
    expect((await get(a, "get_entity_names")).body).toEqual(["Root"]);
  });

  it("the same name in another account is fine", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    await createEntity(a, "Shared Name");
    await createEntity(b, "Shared Name");
  });

  it("concurrent creates of one name: exactly one wins, the others get 409", async () => {
    const a = await p.newAccount();
    const results = await Promise.all([1, 2, 3, 4].map(() => post(a, "create_entity", { entity_name: "Race" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });
});

describe("entities: edit_entity_description", () => {
  it("updates description and alert e-mails, checking each address", async () => {
    const a = await p.newAccount();
    const id = await createEntity(a, "Root", "", "old");
    const r = await post(a, "edit_entity_description", { entity_id: id, description: "new", email: " noc@example.com, ops@example.org,,NOC@example.com " });
    expect(r).toEqual({ status: 200, body: { detail: "Entity updated." } });
    expect(await entityRow(a, id)).toMatchObject({ description: "new", email: "noc@example.com,ops@example.org" });

    // email left out keeps the addresses; '' clears them
    expect((await post(a, "edit_entity_description", { entity_id: id, description: "newer" })).status).toBe(200);
    expect(await entityRow(a, id)).toMatchObject({ description: "newer", email: "noc@example.com,ops@example.org" });
    expect((await post(a, "edit_entity_description", { entity_id: id, description: "newer", email: "" })).status).toBe(200);
    expect((await entityRow(a, id)).email).toBe("");
  });

  it("refuses a blank description, a bad address and an unknown id", async () => {
    const a = await p.newAccount();
    const id = await createEntity(a, "Root", "", "keep");
    const blank = await post(a, "edit_entity_description", { entity_id: id, description: "  ", email: "" });
    expect(blank.status).toBe(422);
    expect(blank.body.detail).toEqual([{ loc: ["body", "description"], msg: "Description is required.", type: "too_small" }]);
    const bad = await post(a, "edit_entity_description", { entity_id: id, description: "d", email: "good@example.com, not-an-email, x@y" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: any) => d.msg)).toEqual(["Not a valid e-mail address: not-an-email", "Not a valid e-mail address: x@y"]);
    expect(bad.body.detail[0].loc).toEqual(["body", "email"]);
    expect((await post(a, "edit_entity_description", { entity_id: id, description: "d", email: `${"a".repeat(250)}@example.com` })).status).toBe(422);
    expect(await post(a, "edit_entity_description", { entity_id: "ent-nope", description: "d", email: "" })).toEqual({
      status: 404,
      body: { detail: "Entity not found." },
    });
    expect(await entityRow(a, id)).toMatchObject({ description: "keep", email: "" });
  });
});

describe("entities: assign_entity_parent", () => {
  it("sets, changes and clears the parent", async () => {
    const a = await p.newAccount();
    await createEntity(a, "A");
    await createEntity(a, "B");
    const c = await createEntity(a, "C");
    expect(await post(a, "assign_entity_parent", { entity_id: c, parent_entity_name: "A" })).toEqual({
      status: 200,
      body: { detail: "Parent entity assigned." },
    });
    expect((await entityRow(a, c)).parent_entity_name).toBe("A");
    expect((await post(a, "assign_entity_parent", { entity_id: c, parent_entity_name: "B" })).status).toBe(200);
    expect((await entityRow(a, c)).parent_entity_name).toBe("B");
    expect(await post(a, "assign_entity_parent", { entity_id: c, parent_entity_name: "" })).toEqual({
      status: 200,
      body: { detail: "Parent entity cleared." },
    });
    expect((await entityRow(a, c)).parent_entity_name).toBe("");
  });

  it("refuses self-parenting and cycles with a 400 detail list, and unknown names or ids with 404", async () => {
    const a = await p.newAccount();
    const top = await createEntity(a, "Top");
    const mid = await createEntity(a, "Mid", "Top");
    await createEntity(a, "Low", "Mid");
    expect(await post(a, "assign_entity_parent", { entity_id: top, parent_entity_name: "Top" })).toEqual({
      status: 400,
      body: { detail: [{ loc: ["body", "parent_entity_name"], msg: "Entity Top cannot be its own parent.", type: "entity_cycle" }] },
    });
    expect(await post(a, "assign_entity_parent", { entity_id: top, parent_entity_name: "Low" })).toEqual({
      status: 400,
      body: {
        detail: [{ loc: ["body", "parent_entity_name"], msg: "Entity Low is below Top in the tree: it cannot become its parent.", type: "entity_cycle" }],
      },
    });
    expect((await post(a, "assign_entity_parent", { entity_id: top, parent_entity_name: "Mid" })).status).toBe(400);
    expect(await post(a, "assign_entity_parent", { entity_id: mid, parent_entity_name: "Ghost" })).toEqual({
      status: 404,
      body: { detail: "Entity Ghost not found." },
    });
    expect((await post(a, "assign_entity_parent", { entity_id: "ent-nope", parent_entity_name: "Top" })).status).toBe(404);
    expect((await entityRow(a, top)).parent_entity_name).toBe("");
    expect((await entityRow(a, mid)).parent_entity_name).toBe("Top");
  });

  it("two concurrent re-parentings that would together close a loop: one of them is refused", async () => {
    const a = await p.newAccount();
    const x = await createEntity(a, "X");
    const y = await createEntity(a, "Y");
    const [r1, r2] = await Promise.all([
      post(a, "assign_entity_parent", { entity_id: x, parent_entity_name: "Y" }),
      post(a, "assign_entity_parent", { entity_id: y, parent_entity_name: "X" }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 400]);
  });
});

describe("entities: remove_entity", () => {
  it("removes an unused entity", async () => {
    const a = await p.newAccount();
    const id = await createEntity(a, "Gone");
    expect(await post(a, "remove_entity", { entity_id: id })).toEqual({ status: 200, body: { detail: "Entity removed." } });
    expect((await get(a, "get_entity")).body).toEqual([]);
    expect(await post(a, "remove_entity", { entity_id: id })).toEqual({ status: 404, body: { detail: "Entity not found." } });
  });

  it("answers one detail item per blocking reason: child entities, assigned contacts, IAM users", async () => {
    const a = await p.newAccount();
    const iam = await p.newIamUser(a, "admin");
    // The harness ties the IAM user to an entity of its own: make that entity the one to remove.
    const names = (await get(a, "get_entity")).body as any[];
    const target = names.find((e) => e.entity_name === iam.entityName)!;
    await createEntity(a, "Kid B", iam.entityName);
    await createEntity(a, "Kid A", iam.entityName);
    const c1 = await post(a, "create-contact", { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", contact_type: "business", entity_name: iam.entityName });
    await post(a, "create-contact", { email: "nameless@example.com", contact_type: "technical", entity_name: iam.entityName });

    const r = await post(a, "remove_entity", { entity_id: target.entity_id });
    expect(r.status).toBe(400);
    const n = iam.entityName;
    expect(r.body.detail).toEqual([
      { loc: ["body", "entity_id"], msg: `Entity ${n} still has 2 child entities: Kid A, Kid B`, type: "entity_in_use" },
      { loc: ["body", "entity_id"], msg: `Entity ${n} still has 2 assigned contacts: nameless@example.com, Ada Lovelace`, type: "entity_in_use" },
      { loc: ["body", "entity_id"], msg: `Entity ${n} still has 1 IAM user: ${iam.username}`, type: "entity_in_use" },
    ]);
    expect((await get(a, "get_entity")).body).toHaveLength(3);

    // Only the children left: one item, singular wording once one child remains.
    await post(a, "contact-unassign-entity", { contact_id: c1.body.contact_id, entity_name: n });
    const contacts = (await get(a, "get_contact", { entity_id: target.entity_id })).body as any[];
    await post(a, "remove-contact", { contact_id: contacts[0].contact_id });
    const kidA = ((await get(a, "get_entity")).body as any[]).find((e) => e.entity_name === "Kid A");
    await post(a, "remove_entity", { entity_id: kidA.entity_id });
    const partial = await post(a, "remove_entity", { entity_id: target.entity_id });
    expect(partial.body.detail.map((d: any) => d.msg)).toEqual([
      `Entity ${n} still has 1 child entity: Kid B`,
      `Entity ${n} still has 1 IAM user: ${iam.username}`,
    ]);
  });

  it("lists at most ten blocking names", async () => {
    const a = await p.newAccount();
    const id = await createEntity(a, "Big");
    for (let i = 0; i < 12; i++) await createEntity(a, `Kid ${String(i).padStart(2, "0")}`, "Big");
    const r = await post(a, "remove_entity", { entity_id: id });
    expect(r.body.detail[0].msg).toBe(
      "Entity Big still has 12 child entities: Kid 00, Kid 01, Kid 02, Kid 03, Kid 04, Kid 05, Kid 06, Kid 07, Kid 08, Kid 09 and 2 more",
    );
  });
});

describe("entities: tenancy and roles", () => {
  it("account A can neither read nor change account B's entities (404)", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    await createEntity(b, "B Parent");
    const bEntity = await createEntity(b, "B Child", "B Parent", "b's");
    const before = await snapshot(b);

    expect((await get(a, "get_entity")).body).toEqual([]);
    expect((await get(a, "get_entity_names")).body).toEqual([]);
    expect((await get(a, "get_entity_names", { parent: "true", entity_id: bEntity })).status).toBe(404);
    expect((await get(a, "get_contact", { entity_id: bEntity })).status).toBe(404);
    expect((await post(a, "edit_entity_description", { entity_id: bEntity, description: "mine", email: "" })).status).toBe(404);
    expect((await post(a, "assign_entity_parent", { entity_id: bEntity, parent_entity_name: "" })).status).toBe(404);
    expect((await post(a, "remove_entity", { entity_id: bEntity })).status).toBe(404);
    // B's names mean nothing in A
    expect(await post(a, "create_entity", { entity_name: "A kid", parent_entity_name: "B Parent" })).toEqual({
      status: 404,
      body: { detail: "Entity B Parent not found." },
    });
    const aOwn = await createEntity(a, "A own");
    expect((await post(a, "assign_entity_parent", { entity_id: aOwn, parent_entity_name: "B Parent" })).status).toBe(404);
    expect(await snapshot(b)).toEqual(before);
  });

  it("a readonly IAM user reads but gets 403 on every mutating call; an admin may write", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const id = await createEntity(a, "Root", "", "keep");
    const before = await snapshot(a);
    const calls: Array<[string, unknown]> = [
      ["create_entity", { entity_name: "New", description: "", parent_entity_name: "" }],
      ["edit_entity_description", { entity_id: id, description: "changed", email: "" }],
      ["assign_entity_parent", { entity_id: id, parent_entity_name: ro.entityName }],
      ["remove_entity", { entity_id: id }],
    ];
    for (const [call, body] of calls) {
      const r = await post(ro, call, body);
      expect(r, call).toEqual({ status: 403, body: { detail: "Your IAM role is readonly: you cannot make changes." } });
      // even an invalid body: the role is checked first
      expect((await post(ro, call, {})).status, call).toBe(403);
    }
    expect(await snapshot(a)).toEqual(before);
    expect((await get(ro, "get_entity")).status).toBe(200);
    expect((await get(ro, "get_entity_names")).body).toContain("Root");

    const admin = await p.newIamUser(a, "admin");
    expect((await post(admin, "edit_entity_description", { entity_id: id, description: "by admin", email: "" })).status).toBe(200);
  });

  it("without a token every call is 401", async () => {
    for (const call of ["get_entity", "get_entity_names", "get_contact"]) {
      expect((await p.call("GET", call)).status).toBe(401);
    }
    for (const call of ["create_entity", "edit_entity_description", "assign_entity_parent", "remove_entity"]) {
      expect((await p.call("POST", call, { body: {} })).status).toBe(401);
    }
  });
});

describe("entities: malformed payloads", () => {
  const cases: Array<{ call: string; valid: (ids: { leaf: string }) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    {
      call: "create_entity",
      valid: () => ({ entity_name: "Fresh", description: "A new one", parent_entity_name: "Root" }),
      validVariant: validVariants({ optional: ["description", "parent_entity_name"], multiline: ["description"] }),
    },
    {
      call: "edit_entity_description",
      valid: ({ leaf }) => ({ entity_id: leaf, description: "Changed", email: "noc@example.com,ops@example.com" }),
      validVariant: validVariants({ optional: ["email"], multiline: ["description"] }),
    },
    {
      call: "assign_entity_parent",
      valid: ({ leaf }) => ({ entity_id: leaf, parent_entity_name: "Other" }),
      validVariant: validVariants({ emptyAllowed: ["parent_entity_name"] }),
    },
    { call: "remove_entity", valid: ({ leaf }) => ({ entity_id: leaf }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: its malformed bodies all get a 4xx and change nothing`, async () => {
      const a = await p.newAccount();
      await createEntity(a, "Root", "", "root");
      await createEntity(a, "Other");
      const leaf = await createEntity(a, "Leaf", "Root", "leaf");
      const example = valid({ leaf });
      const payloads = malformedPayloads(example).filter((m) => !validVariant(m));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const before = await snapshot(a);
      const notRefused: string[] = [];
      let checked = 0;
      for (const m of payloads) {
        checked++;
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(15);
      expect(await snapshot(a)).toEqual(before);
      // The example itself is accepted: the refusals were about the malformations.
      expect((await post(a, call, example)).status).toBe(200);
    });
  }
});
