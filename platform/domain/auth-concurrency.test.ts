import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, oneTimeSecrets, rateLimits } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { defaultLimits } from "./abuse-limits.ts";
import { findPrincipals, MFA_CODE_ATTEMPTS, sendLoginCode, verifyLoginCode } from "./auth.ts";

// Check-then-act under concurrency (issue 10 items 4, 5): on PGlite, and on PostgreSQL with
// TEST_DATABASE_URL (where the requests really run on several connections at once).

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const uniqueEmail = (tag: string) => `${tag}-${newId("t")}@example.test`;

describe("sign-in limits under concurrency", () => {
  const LIMIT = defaultLimits["login.account"].points;
  const key = (address: string, username: string) => `login.account:${address} ${username}`;

  it("counts at most 5 of 30 simultaneous wrong passwords from one address, answers the rest 429, and then refuses the right one from there", async () => {
    const a = await p.newAccount();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => p.call("POST", "token", { body: { username: a.username, password: `wrong password ${i}` }, address: "192.0.2.30" })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - LIMIT);
    expect((await p.call("POST", "token", { body: { username: a.username, password: a.password }, address: "192.0.2.30" })).status).toBe(429);
    expect((await p.call("POST", "token", { body: { username: a.username, password: a.password }, address: "192.0.2.31" })).status).toBe(200);
  });

  it("does not keep counting successful attempts (attempts in flight count until they succeed)", async () => {
    const a = await p.newAccount();
    const answers = await Promise.all(
      Array.from({ length: LIMIT }, () => p.call("POST", "token", { body: { username: a.username, password: a.password }, address: "192.0.2.32" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
    const [row] = await p.deps.db.select().from(rateLimits).where(eq(rateLimits.key, key("192.0.2.32", a.username)));
    expect(row?.points ?? 0).toBeLessThanOrEqual(0);
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await p.call("POST", "token", { body: { username: a.username, password: a.password }, address: "192.0.2.32" })).status).toBe(200);
    }
  });
});

describe("one-time login codes under concurrency", () => {
  it("tries at most MFA_CODE_ATTEMPTS of 30 simultaneous guesses, and the code is spent after them", async () => {
    const a = await p.newAccount();
    const [principal] = await findPrincipals(p.deps, a.username);
    await sendLoginCode(p.deps, principal!);
    const mail = p.latestMail(a.username) ?? "";
    const code = /\b(\d{6})\b/.exec(mail.replace(/=\r?\n/g, ""))?.[1];
    expect(code).toBeDefined();
    const wrong = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all(wrong.map((otp) => verifyLoginCode(p.deps, principal!, otp)));
    expect(results.every((ok) => ok === false)).toBe(true);
    const [row] = await p.deps.db
      .select()
      .from(oneTimeSecrets)
      .where(and(eq(oneTimeSecrets.accountId, a.accountId), eq(oneTimeSecrets.purpose, "mfa")));
    expect(row!.attempts).toBe(MFA_CODE_ATTEMPTS);
    // Five tries used up: even the right code no longer works.
    expect(await verifyLoginCode(p.deps, principal!, code!)).toBe(false);
  });

  it("accepts the right code once when it is sent twice at the same time", async () => {
    const a = await p.newAccount();
    const [principal] = await findPrincipals(p.deps, a.username);
    await sendLoginCode(p.deps, principal!);
    const code = /\b(\d{6})\b/.exec((p.latestMail(a.username) ?? "").replace(/=\r?\n/g, ""))?.[1] ?? "";
    const results = await Promise.all([verifyLoginCode(p.deps, principal!, code), verifyLoginCode(p.deps, principal!, code)]);
    expect(results.filter(Boolean)).toEqual([true]);
  });
});

describe("registration under concurrency", () => {
  it("creates exactly one account of 10 simultaneous registrations of one e-mail; the others get 409", async () => {
    const username = uniqueEmail("reg");
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        // From 10 addresses: one address's registrations of one e-mail are limited to 5 an hour.
        p.call("POST", "register", { body: { username: i % 2 ? username.toUpperCase() : username, password: "registration password", terms: true }, address: `192.0.2.${40 + i}` }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(await p.deps.db.select().from(accounts).where(eq(accounts.username, username))).toHaveLength(1);
  });

  it("still allows several accounts with one e-mail set up otherwise (the login's 300 answer)", async () => {
    const username = uniqueEmail("shared");
    await p.newAccount({ username, password: "shared password 1" });
    await p.newAccount({ username, password: "shared password 1" });
    expect((await p.call("POST", "token", { body: { username, password: "shared password 1" } })).status).toBe(300);
    expect((await p.call("POST", "register", { body: { username, password: "another password", terms: true } })).status).toBe(409);
  });
});
