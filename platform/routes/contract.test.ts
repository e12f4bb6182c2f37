import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiLog } from "../db/schema.ts";
import { publicCalls } from "../lib/auth.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";

let p: TestPlatform;
let doc: any;
beforeAll(async () => {
  p = await testPlatform();
  const r = await p.call("GET", "openapi.json");
  expect(r.status).toBe(200);
  doc = r.body;
});

const prefix = "/api/v1";

function operations(): Array<{ method: string; path: string; call: string; op: any }> {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ method, path, call: path.slice(prefix.length), op })),
  );
}

describe("contract: the OpenAPI document", () => {
  it("is an OpenAPI 3.x document with info, paths and the bearer scheme", () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" });
    for (const path of Object.keys(doc.paths)) expect(path.startsWith(`${prefix}/`), path).toBe(true);
  });

  it("every operation declares a 200 and, for every status, a description and a schema", () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations()) {
      const codes = Object.keys(op.responses ?? {});
      if (!codes.includes("200")) problems.push(`${method} ${path}: no 200 response`);
      for (const code of codes) {
        // A standard error answer is a $ref to components/responses: check what it refers to.
        const ref = op.responses[code].$ref as string | undefined;
        const r = ref ? doc.components.responses?.[ref.split("/").pop()!] : op.responses[code];
        if (!r) problems.push(`${method} ${path} ${code}: unresolved ${ref}`);
        if (!r) continue;
        if (!r.description) problems.push(`${method} ${path} ${code}: no description`);
        const media = Object.values<any>(r.content ?? {});
        if (media.length === 0 || media.some((m) => !m.schema)) problems.push(`${method} ${path} ${code}: no schema`);
      }
    }
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = JSON.parse(ref).split("/").pop();
      if (!doc.components.schemas?.[name]) problems.push(`unresolved ${ref}`);
    }
    expect(problems).toEqual([]);
  });

  it("every POST declares a requestBody and 422; every call but the public ones declares the bearer scheme and 401", () => {
    const problems: string[] = [];
    for (const { method, path, call, op } of operations()) {
      const codes = Object.keys(op.responses ?? {});
      if (method === "post") {
        const media = Object.values<any>(op.requestBody?.content ?? {});
        if (media.length === 0 || media.some((m) => !m.schema)) problems.push(`${path}: no requestBody schema`);
        if (!codes.includes("422")) problems.push(`${path}: no 422`);
      }
      const signedIn = JSON.stringify(op.security ?? []).includes("bearer");
      if (!signedIn && !publicCalls.has(call) && !path.includes("{")) problems.push(`${method} ${path}: neither public nor bearer`);
      if (signedIn && !codes.includes("401")) problems.push(`${method} ${path}: no 401`);
    }
    expect(problems).toEqual([]);
  });

  it("every call declares what it answers: without a token (401 for signed-in calls), and to a readonly IAM user (403 where refused)", async () => {
    const a = await p.newAccount();
    let readonly = await p.newIamUser(a, "readonly");
    const problems: string[] = [];
    for (const { method, path, call, op } of operations()) {
      const codes = Object.keys(op.responses ?? {});
      const signedIn = JSON.stringify(op.security ?? []).includes("bearer");
      const url = `${prefix}${call.replace(/\{[^}]+\}/g, "x")}`;
      // An empty body of the declared media type: nothing to act on, so nothing changes.
      const contentType = Object.keys(op.requestBody?.content ?? {})[0] ?? "application/json";
      const body = method === "get" ? undefined : contentType === "application/json" ? "{}" : "";
      const send = async (token?: string) => {
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        if (body !== undefined) headers["content-type"] = contentType;
        const res = await p.app.fetch(new Request(`http://platform.test${url}`, { method: method.toUpperCase(), headers, body }));
        await res.arrayBuffer();
        return res.status;
      };
      const anonymous = await send();
      if (signedIn && anonymous !== 401) problems.push(`${method} ${path}: answers ${anonymous} without a token`);
      if (!codes.includes(String(anonymous))) problems.push(`${method} ${path}: answers ${anonymous} without a token, not declared`);
      if (!signedIn) continue;
      const status = await send(readonly.token);
      if (!codes.includes(String(status))) problems.push(`${method} ${path}: answers a readonly IAM user ${status}, not declared`);
      // A call that let the readonly user through may have ended its session (logout): start a new one.
      if (method !== "get" && status < 300) readonly = await p.newIamUser(a, "readonly");
    }
    expect(problems).toEqual([]);
  });

  it("lists every entity and contact call, with both spellings where the spec has two", () => {
    const expected = {
      get: [
        "get_entity_names",
        "get-entity-names",
        "get_entity",
        "get_contact",
        "get-contact",
        "contact-types",
        "get-contact-by-ep-id",
        "get-contact-assigned-entities",
      ],
      post: [
        "create_entity",
        "edit_entity_description",
        "assign_entity_parent",
        "remove_entity",
        "create-contact",
        "update-contact",
        "remove-contact",
        "contact-assign-entity",
        "contact-unassign-entity",
      ],
    };
    for (const [method, calls] of Object.entries(expected)) {
      for (const call of calls) expect(doc.paths[`${prefix}/${call}`]?.[method], `${method} ${call}`).toBeDefined();
    }
    // The entity and contact POSTs also declare 400 (malformed JSON), 404, 413 (too large) and 415 (not JSON).
    for (const call of expected.post) {
      expect(Object.keys(doc.paths[`${prefix}/${call}`].post.responses), call).toEqual(
        expect.arrayContaining(["200", "400", "401", "403", "404", "413", "415", "422"]),
      );
    }
    expect(Object.keys(doc.paths[`${prefix}/create_entity`].post.responses)).toContain("409");
    // The answers the console reads are described field by field.
    const contact = doc.components.schemas.Contact;
    expect(Object.keys(contact.properties)).toEqual([
      "contact_id",
      "first_name",
      "last_name",
      "email",
      "phone",
      "address",
      "company_name",
      "contact_type",
      "entity_name",
      "created_at",
      "updated_at",
    ]);
    expect(Object.keys(doc.components.schemas.Entity.properties)).toEqual([
      "entity_id",
      "entity_name",
      "parent_entity_name",
      "description",
      "email",
      "created_at",
    ]);
  });

  it("GET /api/v1/docs renders an HTML reference listing every call", async () => {
    const res = await p.app.fetch(new Request("http://platform.test/api/v1/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    for (const { method, path } of operations()) {
      expect(html, `${method} ${path}`).toContain(`id="${method}${path}"`);
      expect(html).toContain(`<code>${path}</code>`);
    }
    expect(html).toContain("Entity X still has 2 child entities");
  });
});

describe("contract: the API log", () => {
  it("writes a row for every mutating call: path without /api/v1, body with secrets removed, query, account and IAM user", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const ok = await p.call("POST", "create_entity", {
      token: admin.token,
      query: { source: "console" },
      body: { entity_name: "Logged", description: "from the contract test" },
    });
    expect(ok.status).toBe(200);
    // A refused call is logged too, and secrets are removed at any depth.
    const refused = await p.call("POST", "create-contact", {
      token: a.token,
      body: { email: "x@example.com", contact_type: "business", entity_name: "Logged", password: "hunter2", extra: { api_token: "t0k3n" } },
    });
    expect(refused.status).toBe(422);

    const rows = await p.deps.db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId)).orderBy(asc(apiLog.createdAt));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      accountId: a.accountId,
      accountUsername: a.username,
      iamUserId: admin.iamUserId,
      iamUserUsername: admin.username,
      method: "POST",
      urlPath: "/create_entity",
      requestBody: { entity_name: "Logged", description: "from the contract test" },
      queryParameters: { source: "console" },
      status: 200,
    });
    expect(rows[1]).toMatchObject({
      iamUserId: null,
      urlPath: "/create-contact",
      requestBody: { email: "x@example.com", contact_type: "business", entity_name: "Logged", password: "***", extra: { api_token: "***" } },
      status: 422,
    });
    // Reads are not logged.
    await p.call("GET", "get_entity", { token: a.token });
    expect(await p.deps.db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId))).toHaveLength(2);
  });
});
