import { beforeAll, describe, expect, it } from "vitest";
import { testPlatform, type TestPlatform } from "./test/harness.ts";

// The platform's answers carry the security headers (issue 10 item 9), /api/v1/docs included.

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const fetchApi = (path: string, init?: RequestInit) => p.app.fetch(new Request(`http://platform.test/api/v1/${path}`, init));

describe("security headers of the platform's answers", () => {
  it("on the reference page, the contract, a JSON call, an error and a 404", async () => {
    const a = await p.newAccount();
    const answers = {
      docs: await fetchApi("docs"),
      openapi: await fetchApi("openapi.json"),
      call: await fetchApi("get_entity", { headers: { authorization: `Bearer ${a.token}` } }),
      refused: await fetchApi("token", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      missing: await fetchApi("no-such-call"),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), name).toBe("no-referrer");
      expect(res.headers.get("x-frame-options"), name).toBe("DENY");
      expect(res.headers.get("content-security-policy"), name).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy"), name).not.toContain("script-src");
    }
    expect(answers.docs.headers.get("content-security-policy")).toContain("style-src 'unsafe-inline'");
    expect(answers.call.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
  });
});
