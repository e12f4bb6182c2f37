import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/*
 * Issue 27 items 5, 6 and 7: values a call cannot use are refused with a 4xx before any query
 * runs, never a 500 (and never a 200 whose stream then breaks).
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });
const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const detailText = (r: { body: any }) => JSON.stringify(r.body.detail);

async function appService(a: TestAccount) {
  const body = { app_service_name: "CRM", location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 };
  const r = await post(a, "create-app-service", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.app_service_id ?? r.body.app_service?.app_service_id) as string;
}

describe("item 5: time ranges (every call with start_time/end_time)", () => {
  it("get-top-talker-ep: a range in the future and malformed times answer 422 with a clear detail", async () => {
    const a = await p.newAccount();
    const id = await appService(a);
    const hour = 3_600_000;
    const future = { app_service_id: id, start_time: new Date(Date.now() + 2 * hour).toISOString(), end_time: new Date(Date.now() + 3 * hour).toISOString() };
    const r = await get(a, "get-top-talker-ep", future);
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(detailText(r)).toMatch(/start_time must not be in the future/);

    for (const bad of ["aaaa", "2026-13-45T99:00:00Z", "", "1e5"]) {
      const m = await get(a, "get-top-talker-ep", { app_service_id: id, start_time: bad, end_time: new Date().toISOString() });
      expect(m.status, `${bad}: ${JSON.stringify(m.body)}`).toBe(422);
      expect(detailText(m)).toMatch(/start_time must be an ISO 8601 time/);
      const e = await get(a, "get-top-talker-ep", { app_service_id: id, start_time: new Date(Date.now() - hour).toISOString(), end_time: bad });
      expect(e.status, `${bad}: ${JSON.stringify(e.body)}`).toBe(422);
    }
    // Both malformed: both named, no 500.
    const both = await get(a, "get-top-talker-ep", { app_service_id: id, start_time: "aaaa", end_time: "bbbb" });
    expect(both.status).toBe(422);
    // A range ending in the future (now is inside it) is fine: the end is clamped.
    const ok = await get(a, "get-top-talker-ep", { app_service_id: id, start_time: new Date(Date.now() - hour).toISOString(), end_time: new Date(Date.now() + hour).toISOString() });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe("item 6: times PostgreSQL cannot hold, on the change log and its export", () => {
  const badTimes = ["0000-01-01T00:00:00Z", "2026-11-25T10:00:00+23:59", "-000001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "0001-01-01T00:00:00+14:01"];

  it("get_api_log refuses them with 422 before the query", async () => {
    const a = await p.newAccount();
    for (const t of badTimes) {
      for (const key of ["from", "to"]) {
        const r = await get(a, "get_api_log", { [key]: t });
        expect(r.status, `${key}=${t}: ${JSON.stringify(r.body)}`).toBe(422);
      }
    }
    // Ordinary ISO times with offsets still work.
    expect((await get(a, "get_api_log", { from: "2026-11-25T10:00:00+05:30", to: "2026-11-25T12:00:00-08:00" })).status).toBe(200);
    expect((await get(a, "get_api_log", { from: "1970-01-01T00:00:00Z" })).status).toBe(200);
  });

  it("export_api_log refuses them with 422, never a 200 that then breaks", async () => {
    const a = await p.newAccount();
    for (const t of badTimes) {
      const url = new URL("http://platform.test/api/v1/export_api_log");
      url.searchParams.set("from", t);
      const res = await p.app.fetch(new Request(url, { headers: { authorization: `Bearer ${a.token}` } }));
      expect(res.status, t).toBe(422);
      await res.text();
    }
  });

  it("a From after its To is refused with 422 that says so", async () => {
    const a = await p.newAccount();
    const r = await get(a, "get_api_log", { from: "2026-11-25T12:00:00Z", to: "2026-11-25T10:00:00Z" });
    expect(r.status).toBe(422);
    expect(detailText(r)).toMatch(/To must be after From/);
  });

  it("an export stream that fails after its headers errors the body: the reader sees an error, not a complete file", async () => {
    const a = await p.newAccount();
    await post(a, "create_ticket", { title: "One", description: "x", priority: "Low", category: "Other" });
    const url = new URL("http://platform.test/api/v1/export_api_log");
    const db = p.deps.db as unknown as { execute: (...args: unknown[]) => unknown };
    const original = db.execute;
    db.execute = () => Promise.reject(new Error("connection lost"));
    try {
      const res = await p.app.fetch(new Request(url, { headers: { authorization: `Bearer ${a.token}` } }));
      if (res.status === 200) await expect(res.text()).rejects.toThrow();
      else expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      db.execute = original;
    }
  });
});

describe("item 7: NUL and invalid UTF-8 in any string", () => {
  it("perform-flow-analysis with a NUL in pcap_file_key or session_id answers 4xx", async () => {
    const a = await p.newAccount();
    for (const body of [
      { pcap_file_key: `${a.accountId}_pcap-x\u0000y`, session_id: "1" },
      { pcap_file_key: `${a.accountId}_pcap-x`, session_id: "1\u0000" },
    ]) {
      const r = await post(a, "perform-flow-analysis", body);
      expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });

  it("a body with bytes that are not UTF-8 is refused with a 4xx", async () => {
    const a = await p.newAccount();
    const bytes = Buffer.concat([Buffer.from('{"entity_name":"ab'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('cd"}')]);
    const res = await p.app.fetch(
      new Request("http://platform.test/api/v1/create_entity", { method: "POST", headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: bytes }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await get(a, "get_entity")).body).not.toContainEqual(expect.objectContaining({ entity_name: expect.stringContaining("ab") }));
  });

  it("a query parameter with a NUL, a lone surrogate or invalid UTF-8 is refused with a 4xx on every GET call", async () => {
    const a = await p.newAccount();
    const doc = (await p.app.fetch(new Request("http://platform.test/api/v1/openapi.json"))).json() as Promise<any>;
    const paths = (await doc).paths as Record<string, Record<string, any>>;
    const failures: string[] = [];
    for (const [path, ops] of Object.entries(paths)) {
      const op = ops.get;
      if (!op || path.includes("{")) continue;
      const params = ((op.parameters ?? []) as any[]).filter((x) => x.in === "query");
      for (const param of params) {
        for (const raw of ["a%00b", "a%FFb", "a%ED%A0%80b"]) {
          const url = `http://platform.test${path}?${param.name}=${raw}`;
          const res = await p.app.fetch(new Request(url, { headers: { authorization: `Bearer ${a.token}` } }));
          await res.arrayBuffer();
          if (res.status < 400 || res.status >= 500) failures.push(`${path} ${param.name}=${raw}: ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
