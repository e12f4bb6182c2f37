import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiLog } from "../db/schema.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { isSecretKey, redactSecrets } from "./apilog.ts";

// No secret reaches the API log (issue 10 item 7): not from a body that does not parse, not
// under any spelling of a secret key, not at any depth.

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

describe("the API log", () => {
  it("logs a body that is not valid JSON as a placeholder, never as it came", async () => {
    const a = await p.newAccount();
    const malformed = [
      '{"password": "Sup3r-Secret-One", "current_password": "Sup3r-Secret-Two",}',
      '{"new_password": "Sup3r-Secret-Three"',
      "password=Sup3r-Secret-Four&x=1",
    ];
    for (const rawBody of malformed) {
      const res = await p.call("POST", "update-account", { token: a.token, rawBody });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    const rows = await p.deps.db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId));
    expect(rows).toHaveLength(malformed.length);
    expect(JSON.stringify(rows)).not.toMatch(/Sup3r-Secret/);
    expect(rows.map((r) => r.requestBody).sort()).toEqual(malformed.map((b) => `[unparsed body, ${Buffer.byteLength(b)} bytes]`).sort());
  });

  it("redacts every spelling of a secret key at any depth", () => {
    const body = {
      name: "kept",
      password: "s1",
      new_password: "s2",
      currentPassword: "s3",
      nested: { deeper: [{ access_token: "s4", "refresh-token": "s5", api_key: "s6" }] },
      client_secret: "s7",
      webhookSecret: "s8",
      private_key: "s9",
      card: { number: "4242424242424242", cvc: "123" },
      card_number: "s10",
      otp: "123456",
      Authorization: "Bearer s11",
    };
    const out = redactSecrets(body) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toMatch(/s\d+"|4242|123456|Bearer/);
    expect(out.name).toBe("kept");
    for (const key of ["password", "NEW_PASSWORD", "token", "accessToken", "webhook_secret", "privateKey", "cvv", "card_data"]) expect(isSecretKey(key)).toBe(true);
    for (const key of ["name", "email", "entity_name", "description", "contact_type"]) expect(isSecretKey(key)).toBe(false);
  });
});
