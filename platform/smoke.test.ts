import { describe, expect, it } from "vitest";
import { testPlatform } from "./test/harness.ts";

describe("platform skeleton", () => {
  it("publishes its OpenAPI document and answers FastAPI-style errors", async () => {
    const p = await testPlatform();
    const doc = await p.call("GET", "openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toContain("/api/v1/get_entity_names");
    const anon = await p.call("GET", "get_entity_names");
    expect(anon).toEqual({ status: 401, body: { detail: "Not authenticated" } });
    const a = await p.newAccount();
    const names = await p.call("GET", "get-entity-names", { token: a.token });
    expect(names).toEqual({ status: 200, body: [] });
    const bad = await p.call("GET", "get-entity-names", { token: a.token, query: { parent: "maybe" } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "parent"]);
    const missing = await p.call("GET", "no-such-call", { token: a.token });
    expect(missing).toEqual({ status: 404, body: { detail: "Not Found" } });
  });
});
