import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

async function createEntity(a: TestAccount, entity_name: string) {
  const r = await post(a, "create_entity", { entity_name, description: `${entity_name} desc`, parent_entity_name: "" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.entity_id as string;
}

const ada = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "+1 555 0100",
  address: "12 St James's Square\nLondon",
  company_name: "Analytical Engines Ltd",
  contact_type: "business",
  entity_name: "HQ",
};

async function createContact(a: TestAccount, fields: Partial<typeof ada> = {}) {
  const r = await post(a, "create-contact", { ...ada, ...fields });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.contact_id as string;
}

async function contactRow(a: TestAccount, contactId: string) {
  return ((await get(a, "get-contact")).body as any[]).find((c) => c.contact_id === contactId);
}

async function snapshot(a: TestAccount) {
  const entities = (await get(a, "get_entity")).body;
  const contacts = (await get(a, "get-contact")).body as any[];
  const assigned = [];
  for (const c of contacts) assigned.push((await get(a, "get-contact-assigned-entities", { contact_id: c.contact_id })).body);
  return { entities, contacts, assigned };
}

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("contacts: reads", () => {
  it("GET contact-types", async () => {
    const a = await p.newAccount();
    expect(await get(a, "contact-types")).toEqual({ status: 200, body: ["business", "technical", "billing", "security"] });
  });

  it("GET get-entity-names is served in the contacts spelling too", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    expect((await get(a, "get-entity-names")).body).toEqual(["HQ"]);
  });

  it("GET get-contact lists all contacts with the first assigned entity's name, or ''", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    await createEntity(a, "Branch");
    const first = await createContact(a);
    const second = await createContact(a, { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", contact_type: "technical", entity_name: "Branch" });
    await post(a, "contact-assign-entity", { contact_id: second, contact_types: "security", new_entity_name: "HQ" });
    const third = await createContact(a, { email: "lonely@example.com", entity_name: "HQ" });
    await post(a, "contact-unassign-entity", { contact_id: third, entity_name: "HQ" });

    const rows = (await get(a, "get-contact")).body as any[];
    expect(rows.map((r) => r.contact_id)).toEqual([first, second, third]);
    expect(rows[0]).toEqual({
      contact_id: first,
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      phone: "+1 555 0100",
      address: "12 St James's Square\nLondon",
      company_name: "Analytical Engines Ltd",
      contact_type: "business",
      entity_name: "HQ",
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    });
    expect(rows[1]).toMatchObject({ contact_type: "technical", entity_name: "Branch" });
    expect(rows[2]).toMatchObject({ entity_name: "" });
  });

  it("GET get-contact {entity_id} (and get_contact) lists one entity's contacts with the types held there", async () => {
    const a = await p.newAccount();
    const hq = await createEntity(a, "HQ");
    const branch = await createEntity(a, "Branch");
    const c = await createContact(a);
    await post(a, "contact-assign-entity", { contact_id: c, contact_types: "security,billing", new_entity_name: "Branch" });
    for (const path of ["get-contact", "get_contact"]) {
      const rows = (await get(a, path, { entity_id: branch })).body;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ contact_id: c, contact_type: "billing,security", entity_name: "Branch" });
      expect((await get(a, path, { entity_id: hq })).body[0]).toMatchObject({ contact_type: "business", entity_name: "HQ" });
    }
    expect(await get(a, "get-contact", { entity_id: "ent-missing" })).toEqual({ status: 404, body: { detail: "Entity not found." } });
    expect((await get(a, "get-contact", { entity_id: "" })).status).toBe(422);
  });

  it("GET get-contact-by-ep-id answers 404 'Endpoint not found' (endpoints do not exist yet)", async () => {
    const a = await p.newAccount();
    expect(await get(a, "get-contact-by-ep-id", { ep_id: "ep-123" })).toEqual({ status: 404, body: { detail: "Endpoint not found" } });
    expect((await get(a, "get-contact-by-ep-id")).status).toBe(422);
  });

  it("GET get-contact-assigned-entities lists entity_name, entity_id, description, contact_types", async () => {
    const a = await p.newAccount();
    const hq = await createEntity(a, "HQ");
    const branch = await createEntity(a, "Branch");
    const c = await createContact(a);
    await post(a, "contact-assign-entity", { contact_id: c, contact_types: "technical", new_entity_name: "Branch" });
    expect(await get(a, "get-contact-assigned-entities", { contact_id: c })).toEqual({
      status: 200,
      body: [
        { entity_name: "HQ", entity_id: hq, description: "HQ desc", contact_types: "business" },
        { entity_name: "Branch", entity_id: branch, description: "Branch desc", contact_types: "technical" },
      ],
    });
    expect(await get(a, "get-contact-assigned-entities", { contact_id: "con-missing" })).toEqual({
      status: 404,
      body: { detail: "Contact not found" },
    });
  });
});

describe("contacts: create-contact", () => {
  it("creates a con- contact assigned to the entity with its type", async () => {
    const a = await p.newAccount();
    const hq = await createEntity(a, "HQ");
    const r = await post(a, "create-contact", ada);
    expect(r).toEqual({ status: 200, body: { contact_id: expect.stringMatching(/^con-[0-9a-z]{12}$/), detail: "Contact successfully created." } });
    expect((await get(a, "get-contact", { entity_id: hq })).body[0]).toMatchObject({ contact_id: r.body.contact_id, contact_type: "business" });
    // Only email, contact_type and entity_name are required.
    const minimal = await post(a, "create-contact", { email: "min@example.com", contact_type: "billing", entity_name: "HQ" });
    expect(minimal.status).toBe(200);
    expect(await contactRow(a, minimal.body.contact_id)).toMatchObject({ first_name: "", last_name: "", phone: "", address: "", company_name: "" });
  });

  it("requires email, type and entity; checks the e-mail, the type and the lengths", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    for (const field of ["email", "contact_type", "entity_name"] as const) {
      const { [field]: _, ...rest } = ada;
      const r = await post(a, "create-contact", rest);
      expect(r.status, field).toBe(422);
      expect(r.body.detail).toEqual([{ loc: ["body", field], msg: "Field required", type: expect.any(String) }]);
    }
    const badType = await post(a, "create-contact", { ...ada, contact_type: "sales" });
    expect(badType.status).toBe(422);
    expect(badType.body.detail[0]).toMatchObject({ loc: ["body", "contact_type"], msg: "Contact type must be one of: business, technical, billing, security" });
    const badEmail = await post(a, "create-contact", { ...ada, email: "ada at example" });
    expect(badEmail.body.detail[0]).toMatchObject({ loc: ["body", "email"], msg: "Enter a valid email address." });
    const tooLong: Array<[string, number]> = [
      ["first_name", 201],
      ["last_name", 201],
      ["company_name", 201],
      ["phone", 51],
      ["address", 501],
    ];
    for (const [field, n] of tooLong) {
      const r = await post(a, "create-contact", { ...ada, [field]: "x".repeat(n) });
      expect(r.status, field).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ["body", field], msg: `Must be at most ${n - 1} characters.` });
    }
    expect((await post(a, "create-contact", { ...ada, email: `${"a".repeat(245)}@example.com` })).status).toBe(422);
    expect((await post(a, "create-contact", { ...ada, entity_id: "ent-x" })).status).toBe(422);
    expect((await get(a, "get-contact")).body).toEqual([]);
  });

  it("an unknown entity is 404 and leaves nothing behind", async () => {
    const a = await p.newAccount();
    expect(await post(a, "create-contact", { ...ada, entity_name: "Nowhere" })).toEqual({ status: 404, body: { detail: "Entity Nowhere not found." } });
    expect((await get(a, "get-contact")).body).toEqual([]);
  });
});

describe("contacts: update-contact and remove-contact", () => {
  it("updates the given fields and keeps the others; email and type are required", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    const c = await createContact(a);
    const before = await contactRow(a, c);
    await new Promise((r) => setTimeout(r, 5));
    const r = await post(a, "update-contact", { contact_id: c, email: "ada@new.example", contact_type: "security", phone: "" });
    expect(r).toEqual({ status: 200, body: { detail: "Contact successfully updated." } });
    const after = await contactRow(a, c);
    expect(after).toMatchObject({ ...before, email: "ada@new.example", contact_type: "security", phone: "", updated_at: expect.any(String) });
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(after.created_at).toBe(before.created_at);

    expect((await post(a, "update-contact", { contact_id: c, contact_type: "security" })).status).toBe(422);
    expect((await post(a, "update-contact", { contact_id: c, email: "ada@new.example" })).status).toBe(422);
    expect((await post(a, "update-contact", { contact_id: c, email: "a@b.example", contact_type: "security", entity_name: "HQ" })).status).toBe(422);
    expect(await post(a, "update-contact", { contact_id: "con-missing", email: "a@b.example", contact_type: "security" })).toEqual({
      status: 404,
      body: { detail: "Contact not found" },
    });
    expect(await contactRow(a, c)).toEqual(after);
  });

  it("removes a contact and its assignments", async () => {
    const a = await p.newAccount();
    const hq = await createEntity(a, "HQ");
    const c = await createContact(a);
    expect(await post(a, "remove-contact", { contact_id: c })).toEqual({ status: 200, body: { detail: "Contact removed." } });
    expect((await get(a, "get-contact")).body).toEqual([]);
    expect((await get(a, "get_contact", { entity_id: hq })).body).toEqual([]);
    expect(await post(a, "remove-contact", { contact_id: c })).toEqual({ status: 404, body: { detail: "Contact not found" } });
    // the entity is free again
    expect((await post(a, "remove_entity", { entity_id: hq })).status).toBe(200);
  });
});

describe("contacts: assign and unassign entities", () => {
  it("assigns with types, and re-assigning an assigned entity replaces its types", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    const branch = await createEntity(a, "Branch");
    const c = await createContact(a);
    const r = await post(a, "contact-assign-entity", { contact_id: c, contact_types: " security , business,security", new_entity_name: "Branch" });
    expect(r).toEqual({ status: 200, body: { detail: "Assigned entity successfully." } });
    expect((await get(a, "get-contact", { entity_id: branch })).body[0].contact_type).toBe("business,security");
    expect((await post(a, "contact-assign-entity", { contact_id: c, contact_types: "billing", new_entity_name: "Branch" })).status).toBe(200);
    const assigned = (await get(a, "get-contact-assigned-entities", { contact_id: c })).body;
    expect(assigned.map((e: any) => [e.entity_name, e.contact_types])).toEqual([
      ["HQ", "business"],
      ["Branch", "billing"],
    ]);
  });

  it("'Please select an entity and types.' without an entity or a type; unknown types, contacts and entities refused", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    const c = await createContact(a);
    const before = await snapshot(a);
    const msg = "Please select an entity and types.";
    for (const body of [
      { contact_id: c, contact_types: "business" },
      { contact_id: c, contact_types: "business", new_entity_name: "  " },
      { contact_id: c, new_entity_name: "HQ" },
      { contact_id: c, contact_types: "", new_entity_name: "HQ" },
      { contact_id: c, contact_types: " , ", new_entity_name: "HQ" },
    ]) {
      const r = await post(a, "contact-assign-entity", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.map((d: any) => d.msg), JSON.stringify(body)).toEqual([msg]);
    }
    const unknownType = await post(a, "contact-assign-entity", { contact_id: c, contact_types: "business,sales", new_entity_name: "HQ" });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.detail[0]).toMatchObject({
      loc: ["body", "contact_types"],
      msg: "Unknown contact type: sales. Choose from business, technical, billing, security",
    });
    expect(await post(a, "contact-assign-entity", { contact_id: c, contact_types: "business", new_entity_name: "Nowhere" })).toEqual({
      status: 404,
      body: { detail: "Entity Nowhere not found." },
    });
    expect(await post(a, "contact-assign-entity", { contact_id: "con-missing", contact_types: "business", new_entity_name: "HQ" })).toEqual({
      status: 404,
      body: { detail: "Contact not found" },
    });
    expect(await snapshot(a)).toEqual(before);
  });

  it("unassigns an entity; unassigning one that is not assigned is 404", async () => {
    const a = await p.newAccount();
    await createEntity(a, "HQ");
    await createEntity(a, "Branch");
    const c = await createContact(a);
    expect(await post(a, "contact-unassign-entity", { contact_id: c, entity_name: "HQ" })).toEqual({
      status: 200,
      body: { detail: "Unassigned entity successfully." },
    });
    expect((await get(a, "get-contact-assigned-entities", { contact_id: c })).body).toEqual([]);
    expect(await post(a, "contact-unassign-entity", { contact_id: c, entity_name: "Branch" })).toEqual({
      status: 404,
      body: { detail: "Contact is not assigned to entity Branch." },
    });
    expect((await post(a, "contact-unassign-entity", { contact_id: c, entity_name: "Nowhere" })).status).toBe(404);
    expect((await post(a, "contact-unassign-entity", { contact_id: "con-missing", entity_name: "HQ" })).status).toBe(404);
    expect((await post(a, "contact-unassign-entity", { contact_id: c })).status).toBe(422);
  });
});

describe("contacts: tenancy and roles", () => {
  it("account A can neither read nor change account B's contacts (404)", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    await createEntity(a, "HQ");
    const bHq = await createEntity(b, "HQ");
    await createEntity(b, "B only");
    const bc = await createContact(b);
    const aContact = await createContact(a, { email: "a@example.com" });
    const before = await snapshot(b);

    expect((await get(a, "get-contact")).body.map((c: any) => c.contact_id)).toEqual([aContact]);
    expect((await get(a, "get-contact", { entity_id: bHq })).status).toBe(404);
    expect((await get(a, "get-contact-assigned-entities", { contact_id: bc })).status).toBe(404);
    expect((await post(a, "update-contact", { contact_id: bc, email: "x@example.com", contact_type: "billing" })).status).toBe(404);
    expect((await post(a, "remove-contact", { contact_id: bc })).status).toBe(404);
    expect((await post(a, "contact-assign-entity", { contact_id: bc, contact_types: "billing", new_entity_name: "HQ" })).status).toBe(404);
    expect((await post(a, "contact-unassign-entity", { contact_id: bc, entity_name: "HQ" })).status).toBe(404);
    // B's entity names mean nothing in A
    expect((await post(a, "create-contact", { ...ada, entity_name: "B only" })).status).toBe(404);
    expect((await post(a, "contact-assign-entity", { contact_id: aContact, contact_types: "billing", new_entity_name: "B only" })).status).toBe(404);
    expect(await snapshot(b)).toEqual(before);
  });

  it("a readonly IAM user reads but gets 403 on every mutating call", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    await createEntity(a, "HQ");
    const c = await createContact(a);
    const before = await snapshot(a);
    const calls: Array<[string, unknown]> = [
      ["create-contact", ada],
      ["update-contact", { contact_id: c, email: "new@example.com", contact_type: "billing" }],
      ["remove-contact", { contact_id: c }],
      ["contact-assign-entity", { contact_id: c, contact_types: "billing", new_entity_name: ro.entityName }],
      ["contact-unassign-entity", { contact_id: c, entity_name: "HQ" }],
    ];
    for (const [call, body] of calls) {
      expect(await post(ro, call, body), call).toEqual({ status: 403, body: { detail: "Your IAM role is readonly: you cannot make changes." } });
      expect((await post(ro, call, { nonsense: true })).status, call).toBe(403);
    }
    expect(await snapshot(a)).toEqual(before);
    expect((await get(ro, "get-contact")).body).toHaveLength(1);
    expect((await get(ro, "contact-types")).status).toBe(200);
    expect((await get(ro, "get-contact-assigned-entities", { contact_id: c })).status).toBe(200);
  });

  it("without a token every call is 401", async () => {
    for (const call of ["contact-types", "get-contact", "get-contact-by-ep-id", "get-contact-assigned-entities"]) {
      expect((await p.call("GET", call)).status, call).toBe(401);
    }
    for (const call of ["create-contact", "update-contact", "remove-contact", "contact-assign-entity", "contact-unassign-entity"]) {
      expect((await p.call("POST", call, { body: {} })).status, call).toBe(401);
    }
  });
});

describe("contacts: malformed payloads", () => {
  const contactOptional = validVariants({ optional: ["first_name", "last_name", "phone", "address", "company_name"], multiline: ["address"] });
  const cases: Array<{ call: string; valid: (contactId: string) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    { call: "create-contact", valid: () => ({ ...ada, email: "new@example.com", entity_name: "Branch" }), validVariant: contactOptional },
    {
      call: "update-contact",
      valid: (contact_id) => ({
        contact_id,
        first_name: "Augusta",
        last_name: "King",
        email: "augusta@example.com",
        phone: "+44 20 7946 0000",
        address: "Ockham Park",
        company_name: "Babbage & Co",
        contact_type: "technical",
      }),
      validVariant: contactOptional,
    },
    { call: "remove-contact", valid: (contact_id) => ({ contact_id }), validVariant: validVariants({}) },
    {
      call: "contact-assign-entity",
      valid: (contact_id) => ({ contact_id, contact_types: "technical,security", new_entity_name: "Branch" }),
      validVariant: validVariants({}),
    },
    { call: "contact-unassign-entity", valid: (contact_id) => ({ contact_id, entity_name: "HQ" }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: its malformed bodies all get a 4xx and change nothing`, async () => {
      const a = await p.newAccount();
      await createEntity(a, "HQ");
      await createEntity(a, "Branch");
      const c = await createContact(a);
      const example = valid(c);
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
