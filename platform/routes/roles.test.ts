import { beforeAll, describe, expect, it } from "vitest";
import { publicCalls } from "../lib/auth.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";

/*
 * The roles rule on the whole platform (docs/roles.md; app/lib/roles.ts on the console side): every
 * mutating call (POST/PUT/PATCH/DELETE) in the generated OpenAPI document answers a readonly IAM
 * user 403, before its body is even validated (`middleware: [writerOnly]`), so a call added later
 * is covered without touching this file. An admin IAM user is refused (403) only billing and
 * deleting the account.
 */

let p: TestPlatform;
let doc: any;
beforeAll(async () => {
  p = await testPlatform();
  doc = (await p.call("GET", "openapi.json")).body;
});

const prefix = "/api/v1";

/** Mutating calls a readonly IAM user may make, each with the reason. */
const readonlyAllowed: Record<string, string> = {
  "post /logout": "ends the caller's own session",
  "post /update-iam-user": "the caller's own password and profile (spec 1 §6: IAM users update their own)",
  "post /iam-user-enable-mfa": "the caller's own login codes",
  "post /iam-user-disable-mfa": "the caller's own login codes",
  "post /perform-flow-analysis": "computes a report of a stored capture; changes nothing (a read sent as POST, spec 3 §7)",
  "post /measure-endpoint-latency": "Test Reachability: measures from the simulated network and stores nothing (a read sent as POST)",
  "post /measure-app-service-latency": "Test Reachability, the same rule as the endpoint's (platform/routes/measure.ts; issue 27 item 8)",
  "post /run-health-check": "Test Node Health: the node's checks from the simulated network, stores nothing (a read sent as POST; issue 28)",
};

/** Mutating calls an admin IAM user may not make: billing, deleting the account (spec 1 §6, issue 13) and the SAML metadata URL (issue 27 item 10). */
const ownerOnly = (key: string, op: any) =>
  key === "post /remove-account" ||
  key === "post /update-account-idp" ||
  // Billing (its tag, or its calls' names): the account owner's alone.
  (op.tags ?? []).includes("Billing") ||
  /billing|stripe/i.test(key);

/**
 * The owner's own password, profile and login codes: refused to every IAM user (an admin too) because
 * they are another person's credentials, not a right; each IAM user has the twin call for its own.
 */
const accountSessionOnly = new Set(["post /update-account", "post /account-enable-mfa", "post /account-disable-mfa"]);
/** The IAM user's own password, profile and login codes: the owner uses the account calls. */
const iamSessionOnly = new Set(["post /update-iam-user", "post /iam-user-enable-mfa", "post /iam-user-disable-mfa"]);

function mutatingCalls(): Array<{ key: string; method: string; path: string; op: any }> {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => ["post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => {
        const call = path.slice(prefix.length);
        return { key: `${method} ${call}`, method, path: call.replace(/\{[^}]+\}/g, "x"), op };
      })
      // Public calls (no bearer token: sign-in, registration, links) and calls authorised otherwise
      // (the signed upload URL) have no caller role to check.
      .filter(({ path, op }) => !publicCalls.has(path) && !(Array.isArray(op.security) && op.security.length === 0)),
  );
}

async function send(method: string, path: string, token: string) {
  const res = await p.app.request(`${prefix}${path}`, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  return { status: res.status, body: await res.text() };
}

describe("roles on every mutating call of the OpenAPI document", () => {
  it("finds the calls (at least the ones known today)", () => {
    const keys = mutatingCalls().map((c) => c.key);
    for (const k of ["post /create-contact", "post /create_entity", "post /create-iam-user", "post /remove-account", "post /update-account-idp"]) {
      expect(keys).toContain(k);
    }
    // Every allow-listed call still exists (a renamed call must not silently keep its exemption).
    for (const k of Object.keys(readonlyAllowed)) expect(keys, k).toContain(k);
  });

  it("a readonly IAM user gets 403 on each, but the allow-list", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const wrong: string[] = [];
    for (const { key, method, path } of mutatingCalls()) {
      if (key in readonlyAllowed) continue;
      const r = await send(method, path, ro.token);
      if (r.status !== 403) wrong.push(`${key}: ${r.status} ${r.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    // Still signed in (nothing above ended the session), and the allow-listed calls are not refused.
    expect((await p.call("GET", "list-account", { token: ro.token })).status).toBe(200);
    for (const key of Object.keys(readonlyAllowed).filter((k) => k !== "post /logout")) {
      const [method, path] = key.split(" ") as [string, string];
      expect((await send(method, path, ro.token)).status, key).not.toBe(403);
    }
  });

  it("an admin IAM user gets 403 only on billing and account deletion", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const wrong: string[] = [];
    const calls = mutatingCalls().filter((c) => c.key !== "post /logout");
    for (const { key, method, path, op } of calls) {
      const r = await send(method, path, admin.token);
      const refused = r.status === 403;
      const expected = ownerOnly(key, op) || accountSessionOnly.has(key);
      if (refused !== expected) wrong.push(`${key}: ${r.status} ${r.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect((await send("post", "/logout", admin.token)).status).toBe(200);
  });

  it("the account owner is refused none of them", async () => {
    const a = await p.newAccount();
    const wrong: string[] = [];
    // Not remove-account with a valid body, not logout: the owner's token must survive the loop.
    for (const { key, method, path } of mutatingCalls().filter((c) => c.key !== "post /logout" && !iamSessionOnly.has(c.key))) {
      const r = await send(method, path, a.token);
      if (r.status === 403) wrong.push(`${key}: ${r.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
