import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ticketCorrespondence, ticketEvents } from "../db/schema.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

const ticket = { title: "Link down at HQ", description: "Since 09:00\nno traffic <b>at all</b>", priority: "High", category: "Technical" };

async function createTicket(a: TestAccount, fields: Partial<typeof ticket> & { device_id?: string } = {}) {
  const r = await post(a, "create_ticket", { ...ticket, ...fields });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.detail).toBe("Ticket created successfully.");
  return r.body.ticket_id as string;
}

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const events = async (ticketId: string) =>
  (await p.deps.db.select().from(ticketEvents).where(eq(ticketEvents.ticketId, ticketId))).map((e) => e.kind).sort();

describe("support: choices", () => {
  it("answers the priorities, the categories and the (empty) device lists", async () => {
    const a = await p.newAccount();
    expect(await get(a, "get_ticket_priority")).toEqual({ status: 200, body: ["Low", "Medium", "High", "Urgent"] });
    expect(await get(a, "get_ticket_category")).toEqual({ status: 200, body: ["Technical", "Billing", "Account", "Device", "Other"] });
    expect(await get(a, "dashboard_get_device_names")).toEqual({ status: 200, body: { cpe: [], metro: [] } });
    expect((await p.call("GET", "get_ticket_priority")).status).toBe(401);
  });
});

describe("support: tickets", () => {
  it("export_tickets streams what the search selects, in the page's order, to a readonly user too; never another account's", async () => {
    const a = await p.newAccount();
    for (const title of ["Fan noise", "Link down east", "Link down west"]) await createTicket(a, { title });
    const reader = await p.newIamUser(a, "readonly");
    const exported = async (token: string, query: string) => {
      const res = await p.app.request(`/api/v1/export_tickets?${query}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/x-ndjson");
      const text = (await res.text()).trim();
      return text ? text.split("\n").map((l) => JSON.parse(l) as { ticket_id: string; title: string }) : [];
    };
    const rows = await exported(reader.token, "q=link%20down&sort=title");
    expect(rows.map((r) => r.title)).toEqual(["Link down east", "Link down west"]);
    const page = (await get(a, "get_ticket", { q: "link down", sort: "title" })).body as { items: { ticket_id: string }[] };
    expect(rows.map((r) => r.ticket_id)).toEqual(page.items.map((r) => r.ticket_id));
    expect(await exported((await p.newAccount()).token, "")).toEqual([]);
  });

  it("creates a ticket: listed, detailed, its description the first correspondence, a 'created' event", async () => {
    const a = await p.newAccount();
    const id = await createTicket(a);
    const list = (await get(a, "get_ticket")).body as any[];
    expect(list).toHaveLength(1);
    const detail = (await get(a, "get-ticket-detail", { ticket_id: id })).body;
    expect(list[0]).toEqual(detail);
    expect(detail).toMatchObject({
      ticket_id: id,
      title: ticket.title,
      priority: "High",
      category: "Technical",
      state: "Open",
      account_id: a.accountId,
      device_id: null,
      entity_id: null,
      created_by: a.username,
    });
    expect(detail.created_at).toMatch(iso);
    expect(detail.updated_at).toMatch(iso);
    const corr = (await get(a, "get_correspondence", { ticket_id: id })).body as any[];
    expect(corr).toEqual([{ correspondence_id: expect.any(String), correspondence: ticket.description, created_by: a.username, created_at: expect.stringMatching(iso) }]);
    expect(await events(id)).toEqual(["created"]);
  });

  it("validates the fields (spec 3 §5)", async () => {
    const a = await p.newAccount();
    await createTicket(a, { title: "x".repeat(250), description: "d".repeat(8000) });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ title: "x".repeat(251) }, /at most 250/],
      [{ title: "   " }, /Subject is required/],
      [{ description: "d".repeat(8001) }, /at most 8000/],
      [{ description: " \n " }, /Description is required/],
      [{ priority: "Whenever" }, /Priority must be one of/],
      [{ category: "" }, /Category is required/],
      [{ category: "Gossip" }, /Category must be one of/],
      [{ extra: 1 }, /./],
    ];
    for (const [fields, message] of bad) {
      const r = await post(a, "create_ticket", { ...ticket, ...fields });
      expect(r.status, JSON.stringify(fields)).toBe(422);
      expect(JSON.stringify(r.body)).toMatch(message);
    }
    // An empty choice says one thing once (issue 63 item 26).
    for (const field of ["priority", "category"]) {
      const r = await post(a, "create_ticket", { ...ticket, [field]: "" });
      expect((r.body as { detail: { msg: string }[] }).detail.map((d) => d.msg)).toEqual([`${field[0]!.toUpperCase()}${field.slice(1)} is required.`]);
    }
    for (const missing of ["title", "description", "priority", "category"]) {
      const body: Record<string, unknown> = { ...ticket };
      delete body[missing];
      expect((await post(a, "create_ticket", body)).status).toBe(422);
    }
    // A device must be one of dashboard_get_device_names (none yet); '' means none.
    expect(await post(a, "create_ticket", { ...ticket, device_id: "cpe-nope" })).toEqual({ status: 404, body: { detail: "Device not found" } });
    await createTicket(a, { device_id: "" });
    expect(((await get(a, "get_ticket")).body as any[]).length).toBe(2);
  });

  it("keeps replies newest first, as typed; refuses blank and too long ones", async () => {
    const a = await p.newAccount();
    const id = await createTicket(a);
    const texts = ["first reply", "second\n  <script>alert(1)</script>\n", "third"];
    for (const correspondence of texts) {
      expect(await post(a, "add_correspondence", { ticket_id: id, correspondence })).toEqual({ status: 200, body: { detail: "Reply sent successfully." } });
    }
    const corr = ((await get(a, "get_correspondence", { ticket_id: id })).body as any[]).map((c) => c.correspondence);
    expect(corr).toEqual(["third", "second\n  <script>alert(1)</script>", "first reply", ticket.description]);
    expect((await post(a, "add_correspondence", { ticket_id: id, correspondence: " \n\t " })).status).toBe(422);
    expect((await post(a, "add_correspondence", { ticket_id: id, correspondence: "r".repeat(8001) })).status).toBe(422);
    expect((await post(a, "add_correspondence", { ticket_id: id, correspondence: "r".repeat(8000) })).status).toBe(200);
    expect(await events(id)).toEqual(["created", "reply", "reply", "reply", "reply"]);
  });

  it("resolves irreversibly: re-resolving and replying are refused", async () => {
    const a = await p.newAccount();
    const id = await createTicket(a);
    expect(await post(a, "resolve_ticket", { ticket_id: id })).toEqual({ status: 200, body: { detail: "Ticket closed." } });
    expect((await get(a, "get-ticket-detail", { ticket_id: id })).body.state).toBe("Closed");
    expect(await post(a, "resolve_ticket", { ticket_id: id })).toEqual({ status: 409, body: { detail: "The ticket is already closed." } });
    expect(await post(a, "add_correspondence", { ticket_id: id, correspondence: "hello?" })).toEqual({
      status: 409,
      body: { detail: "The ticket is closed: it takes no more replies." },
    });
    expect(((await get(a, "get_correspondence", { ticket_id: id })).body as any[]).length).toBe(1);
    expect(await events(id)).toEqual(["created", "resolved"]);
  });

  it("resolves exactly once under concurrent requests, and no reply lands after the close", async () => {
    const a = await p.newAccount();
    const id = await createTicket(a);
    const calls = await Promise.all([
      ...Array.from({ length: 8 }, () => post(a, "resolve_ticket", { ticket_id: id })),
      ...Array.from({ length: 8 }, (_, i) => post(a, "add_correspondence", { ticket_id: id, correspondence: `race ${i}` })),
    ]);
    const resolves = calls.slice(0, 8).map((r) => r.status);
    const replies = calls.slice(8).map((r) => r.status);
    expect(resolves.filter((s) => s === 200)).toHaveLength(1);
    expect(resolves.filter((s) => s === 409)).toHaveLength(7);
    expect(replies.every((s) => s === 200 || s === 409)).toBe(true);
    const accepted = replies.filter((s) => s === 200).length;
    const rows = await p.deps.db.select().from(ticketCorrespondence).where(eq(ticketCorrespondence.ticketId, id));
    expect(rows).toHaveLength(1 + accepted);
    const kinds = await events(id);
    expect(kinds.filter((k) => k === "resolved")).toHaveLength(1);
    expect(kinds.filter((k) => k === "reply")).toHaveLength(accepted);
    // Every accepted reply was written before the ticket closed.
    const closedAt = Date.parse((await get(a, "get-ticket-detail", { ticket_id: id })).body.updated_at);
    for (const r of rows) expect(r.createdAt.getTime()).toBeLessThanOrEqual(closedAt + 1);
  });

  it("pages, sorts and searches in SQL; the plain list stays an array", async () => {
    const a = await p.newAccount();
    const ids = [];
    for (const [i, category] of ["Billing", "Technical", "Account"].entries()) ids.push(await createTicket(a, { title: `Ticket ${i} ${category}`, category }));
    await post(a, "resolve_ticket", { ticket_id: ids[1] });
    const page = (await get(a, "get_ticket", { page: "1", size: "2" })).body;
    expect(page.total).toBe(3);
    expect(page.items.map((t: any) => t.ticket_id)).toEqual([ids[2], ids[1]]);
    expect((await get(a, "get_ticket", { page: "2", size: "2" })).body.items.map((t: any) => t.ticket_id)).toEqual([ids[0]]);
    expect((await get(a, "get_ticket", { sort: "category" })).body.items.map((t: any) => t.category)).toEqual(["Account", "Billing", "Technical"]);
    expect((await get(a, "get_ticket", { q: "closed" })).body.items.map((t: any) => t.ticket_id)).toEqual([ids[1]]);
    expect((await get(a, "get_ticket", { q: "billing ticket" })).body.total).toBe(1);
    expect((await get(a, "get_ticket", { ids: `${ids[0]},tkt-other` })).body.items.map((t: any) => t.ticket_id)).toEqual([ids[0]]);
    expect((await get(a, "get_ticket", { sort: "description" })).status).toBe(422);
    expect(Array.isArray((await get(a, "get_ticket")).body)).toBe(true);
  });
});

describe("support: accounts and roles", () => {
  it("answers 404 for another account's ticket on every call", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const id = await createTicket(a);
    const notFound = { status: 404, body: { detail: "Ticket not found" } };
    expect(await get(b, "get-ticket-detail", { ticket_id: id })).toEqual(notFound);
    expect(await get(b, "get_correspondence", { ticket_id: id })).toEqual(notFound);
    expect(await post(b, "add_correspondence", { ticket_id: id, correspondence: "hi" })).toEqual(notFound);
    expect(await post(b, "resolve_ticket", { ticket_id: id })).toEqual(notFound);
    expect((await get(b, "get_ticket")).body).toEqual([]);
    expect((await get(a, "get-ticket-detail", { ticket_id: id })).body.state).toBe("Open");
  });

  it("an admin IAM user acts under its own name and entity; a readonly one reads only (403)", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const viewer = await p.newIamUser(a, "readonly");
    const id = await createTicket(admin);
    const detail = (await get(a, "get-ticket-detail", { ticket_id: id })).body;
    expect(detail.created_by).toBe(admin.username);
    expect(detail.entity_id).toMatch(/^ent-/);
    await post(admin, "add_correspondence", { ticket_id: id, correspondence: "from the admin" });
    expect((await get(viewer, "get_correspondence", { ticket_id: id })).body[0].created_by).toBe(admin.username);
    for (const [call, body] of [
      ["create_ticket", ticket],
      ["add_correspondence", { ticket_id: id, correspondence: "no" }],
      ["resolve_ticket", { ticket_id: id }],
    ] as const) {
      expect((await post(viewer, call, body)).status).toBe(403);
    }
    expect((await get(viewer, "get_ticket")).body).toHaveLength(1);
    expect((await get(a, "get-ticket-detail", { ticket_id: id })).body.state).toBe("Open");
  });
});

describe("support: malformed bodies", () => {
  const cases: Array<{ call: string; valid: (ticketId: string) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    { call: "create_ticket", valid: () => ({ ...ticket }), validVariant: validVariants({ multiline: ["description"] }) },
    { call: "add_correspondence", valid: (ticket_id) => ({ ticket_id, correspondence: "A reply" }), validVariant: validVariants({ multiline: ["correspondence"] }) },
    { call: "resolve_ticket", valid: (ticket_id) => ({ ticket_id }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: at least 20 malformed bodies all get a 4xx and change nothing`, async () => {
      const a = await p.newAccount();
      const id = await createTicket(a);
      const example = valid(id);
      // The emoji variant is at most 8000 characters as the limit counts them (UTF-16 units): a
      // valid description or reply.
      const payloads = malformedPayloads(example).filter((m) => !validVariant(m) && !/"(description|correspondence)": 10000-character string of emoji/.test(m.name));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const snapshot = async () => [(await get(a, "get_ticket")).body, (await get(a, "get_correspondence", { ticket_id: id })).body];
      const before = await snapshot();
      const notRefused: string[] = [];
      for (const m of payloads) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect((await post(a, call, example)).status).toBe(200);
    });
  }
});
