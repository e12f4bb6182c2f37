import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accessTokens, accounts, apiLog, oneTimeSecrets, rateLimits } from "../db/schema.ts";
import { clearLoginFailures } from "../domain/auth.ts";
import { sha256 } from "../lib/crypto.ts";
import { malformedPayloads, parserPayloads, stressesBodyStorage, validForEmptyBody, type MalformedPayload } from "../test/malformed.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { newId } from "../lib/ids.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

// ---- helpers --------------------------------------------------------------------------------

const uniqueEmail = (tag: string) => `${tag}-${newId("t")}@example.test`;

/** The decoded text of an .eml file (nodemailer writes quoted-printable). */
function mailText(raw: string | null): string {
  if (!raw) return "";
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  let body = raw.slice(split).trim();
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(head)) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  }
  return `${head}\n\n${body}`;
}

function mailFiles(to: string): string[] {
  if (!fs.existsSync(p.outboxDir)) return [];
  return fs.readdirSync(p.outboxDir).filter((f) => f.endsWith(`-${to}.eml`));
}

/** Runs `action` and returns the decoded mail it sent to `to` (exactly one). */
async function mailFrom<T>(to: string, action: () => Promise<T>): Promise<{ result: T; mail: string }> {
  const before = new Set(mailFiles(to));
  const result = await action();
  const added = mailFiles(to).filter((f) => !before.has(f));
  expect(added, `one new mail to ${to}`).toHaveLength(1);
  return { result, mail: mailText(fs.readFileSync(`${p.outboxDir}/${added[0]}`, "utf8")) };
}

const codeIn = (mail: string) => /login code is (\d{6})/.exec(mail)?.[1];
const linkParam = (mail: string, param: string) => new RegExp(`[?&]${param}=([A-Za-z0-9_%-]+)`).exec(mail)?.[1];

const login = (body: Record<string, unknown>) => p.call("POST", "token", { body });

/** Every variant gets a 4xx (never a 2xx, 3xx or 5xx). */
async function expectRefused(call: string, example: Record<string, unknown>, opts: { token?: string; legit?: (m: MalformedPayload) => boolean } = {}) {
  const variants = malformedPayloads(example).filter((m) => !opts.legit?.(m));
  // The call's schema variants (platform/routes/malformed.test.ts sends the parser's once): at least 15
  // for a body with fields, the 4 that are not an object for `{}`.
  expect(variants.length).toBeGreaterThanOrEqual(Object.keys(example).length ? 15 : 4);
  for (const m of variants) {
    const r = await p.call("POST", call, { token: opts.token, rawBody: m.rawBody, contentType: m.contentType });
    expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
  }
}

/** Whether the API log middleware (platform/lib/apilog.ts) survives NUL, lone surrogates and deep nesting. */
let cleans: Promise<boolean> | undefined;
function apiLogCleansBodies(token: string): Promise<boolean> {
  cleans ??= (async () => {
    for (const rawBody of ['{"a":"\\u0000"}', '{"a":"\\ud800"}', "[".repeat(5000) + "]".repeat(5000)]) {
      if ((await p.call("POST", "no-such-call", { token, rawBody })).status >= 500) return false;
    }
    return true;
  })();
  return cleans;
}

// ---- token ----------------------------------------------------------------------------------

describe("POST token", () => {
  it("signs an account owner in", async () => {
    const a = await p.newAccount();
    const r = await login({ username: a.username, password: a.password });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      token_type: "bearer",
      session_type: "account",
      username: a.username,
      account_id: a.accountId,
    });
    const me = await p.call("GET", "list-account", { token: r.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.account_id).toBe(a.accountId);
    // Only the hash is stored, with an expiry.
    const [row] = await p.deps.db.select().from(accessTokens).where(eq(accessTokens.tokenHash, sha256(r.body.access_token)));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 11 * 3600_000);
  });

  it("signs an IAM user in, case-insensitively, and ignores unknown fields", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const r = await login({ username: `  ${u.username.toUpperCase()} `, password: u.password, account_id: null, otp: "", subscriber: "acme", extra: [1] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ session_type: "iam_user", username: u.username, account_id: a.accountId, token_type: "bearer" });
  });

  it("answers 401 for a wrong password or an unknown user", async () => {
    const a = await p.newAccount();
    expect(await login({ username: a.username, password: "wrong password" })).toEqual({
      status: 401,
      body: { detail: "Incorrect username or password" },
    });
    expect(await login({ username: uniqueEmail("nobody"), password: "whatever1" })).toEqual({
      status: 401,
      body: { detail: "Incorrect username or password" },
    });
  });

  it("answers 422 FastAPI-style for missing fields", async () => {
    const r = await login({ username: "someone@example.test" });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ["body", "password"], msg: "Field required", type: "invalid_type" }]);
  });

  it("answers 300 with the accounts when several owners share the e-mail and the password", async () => {
    const username = uniqueEmail("shared");
    const a1 = await p.newAccount({ username, password: "same password 1" });
    const a2 = await p.newAccount({ username, password: "same password 1" });
    const a3 = await p.newAccount({ username, password: "different password" });
    const [d1] = await p.deps.db.select().from(accounts).where(eq(accounts.accountId, a1.accountId));
    const [d2] = await p.deps.db.select().from(accounts).where(eq(accounts.accountId, a2.accountId));
    const r = await login({ username, password: "same password 1" });
    expect(r.status).toBe(300);
    expect(r.body.detail).toHaveLength(2);
    expect(r.body.detail).toEqual(
      expect.arrayContaining([
        { account_id: a1.accountId, account_domain: d1!.accountDomain },
        { account_id: a2.accountId, account_domain: d2!.accountDomain },
      ]),
    );
    // Choosing one signs in to that one.
    const chosen = await login({ username, password: "same password 1", account_id: a2.accountId });
    expect(chosen.status).toBe(200);
    expect(chosen.body.account_id).toBe(a2.accountId);
    // The third account's password signs straight in to it.
    const third = await login({ username, password: "different password" });
    expect(third.status).toBe(200);
    expect(third.body.account_id).toBe(a3.accountId);
    // An account the password does not open, or a foreign one: 401.
    expect((await login({ username, password: "same password 1", account_id: a3.accountId })).status).toBe(401);
    expect((await login({ username, password: "same password 1", account_id: "acct-nope" })).status).toBe(401);
  });

  it("answers 300 when IAM users of two accounts share the e-mail and the password", async () => {
    const username = uniqueEmail("iam-shared");
    const a1 = await p.newAccount();
    const a2 = await p.newAccount();
    await p.newIamUser(a1, "admin", { username, password: "iam shared pw" });
    await p.newIamUser(a2, "readonly", { username, password: "iam shared pw" });
    const r = await login({ username, password: "iam shared pw" });
    expect(r.status).toBe(300);
    expect(r.body.detail.map((d: { account_id: string }) => d.account_id).sort()).toEqual([a1.accountId, a2.accountId].sort());
    const chosen = await login({ username, password: "iam shared pw", account_id: a1.accountId });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ session_type: "iam_user", account_id: a1.accountId });
  });

  it("after 5 failures within 15 minutes from one address, that address waits (429, Retry-After); the user's other addresses do not", async () => {
    const a = await p.newAccount();
    const from = (address: string, password: string) => p.call("POST", "token", { body: { username: a.username, password }, address });
    for (let i = 0; i < 5; i++) expect((await from("203.0.113.7", `wrong-${i}`)).status).toBe(401);
    const blocked = await from("203.0.113.7", a.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many failed login attempts\. Try again in (\d+) minutes?\.$/);
    expect(Number(/in (\d+) minute/.exec(blocked.body.detail)![1])).toBeLessThanOrEqual(15);
    const raw = await p.app.fetch(
      new Request("http://platform.test/api/v1/token", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
        body: JSON.stringify({ username: a.username, password: a.password }),
      }),
    );
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(raw.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    // The user, from elsewhere, is not kept out; nor are other users from that address.
    expect((await from("198.51.100.20", a.password)).status).toBe(200);
    const b = await p.newAccount();
    expect((await p.call("POST", "token", { body: { username: b.username, password: b.password }, address: "203.0.113.7" })).status).toBe(200);
    // Once the window is over, the right password works from there too, and its count is gone.
    await p.deps.db
      .update(rateLimits)
      .set({ expire: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, `login.account:203.0.113.7 ${a.username}`));
    expect((await from("203.0.113.7", a.password)).status).toBe(200);
    expect(await p.deps.db.select().from(rateLimits).where(eq(rateLimits.key, `login.account:203.0.113.7 ${a.username}`))).toEqual([]);
  });
});

// ---- MFA login --------------------------------------------------------------------------------

describe("MFA login", () => {
  it("e-mails a code, accepts it once, refuses wrong and old codes", async () => {
    const a = await p.newAccount();
    expect(await p.call("POST", "account-enable-mfa", { token: a.token, body: { type: "email" } })).toEqual({
      status: 200,
      body: { detail: "MFA enabled." },
    });
    const { result: first, mail } = await mailFrom(a.username, () => login({ username: a.username, password: a.password }));
    expect(first).toEqual({ status: 200, body: { detail: "We've emailed your passcode. Enter it to log in." } });
    expect(mail).toMatch(/Subject: Linkwise: your login code/);
    const code = codeIn(mail)!;
    expect(code).toMatch(/^\d{6}$/);
    // Stored hashed only.
    const secrets = await p.deps.db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.accountId, a.accountId));
    expect(secrets.some((s) => s.secretHash.includes(code))).toBe(false);

    const wrong = code === "000000" ? "111111" : "000000";
    expect(await login({ username: a.username, password: a.password, otp: wrong })).toEqual({
      status: 401,
      body: { detail: "Invalid or expired passcode" },
    });
    // The password is still checked with the code.
    expect((await login({ username: a.username, password: "not the password", otp: code })).body).toEqual({
      detail: "Incorrect username or password",
    });
    const ok = await login({ username: a.username, password: a.password, otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body.session_type).toBe("account");
    // Single use.
    expect((await login({ username: a.username, password: a.password, otp: code })).status).toBe(401);

    // A new code replaces the previous one.
    const { mail: m1 } = await mailFrom(a.username, () => login({ username: a.username, password: a.password }));
    const { mail: m2 } = await mailFrom(a.username, () => login({ username: a.username, password: a.password }));
    const [c1, c2] = [codeIn(m1)!, codeIn(m2)!];
    await clearLoginFailures(p.deps.db, a.username);
    if (c1 !== c2) expect((await login({ username: a.username, password: a.password, otp: c1 })).status).toBe(401);
    expect((await login({ username: a.username, password: a.password, otp: c2 })).status).toBe(200);
  });

  it("refuses an expired code and a code after 5 wrong tries", async () => {
    const a = await p.newAccount();
    await p.call("POST", "account-enable-mfa", { token: a.token, body: { type: "email" } });
    const { mail } = await mailFrom(a.username, () => login({ username: a.username, password: a.password }));
    const code = codeIn(mail)!;
    await p.deps.db
      .update(oneTimeSecrets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeSecrets.accountId, a.accountId), eq(oneTimeSecrets.purpose, "mfa")));
    expect((await login({ username: a.username, password: a.password, otp: code })).body.detail).toBe("Invalid or expired passcode");

    const { mail: mail2 } = await mailFrom(a.username, () => login({ username: a.username, password: a.password }));
    const code2 = codeIn(mail2)!;
    const wrong = code2 === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++) {
      // Keep the username throttle out of the way: this checks the code's own limit.
      await clearLoginFailures(p.deps.db, a.username);
      expect((await login({ username: a.username, password: a.password, otp: wrong })).status).toBe(401);
    }
    await clearLoginFailures(p.deps.db, a.username);
    expect(await login({ username: a.username, password: a.password, otp: code2 })).toEqual({
      status: 401,
      body: { detail: "Invalid or expired passcode" },
    });
  });

  it("works for an IAM user, and after the account chooser", async () => {
    const username = uniqueEmail("mfa-iam");
    const a1 = await p.newAccount();
    const a2 = await p.newAccount();
    const u1 = await p.newIamUser(a1, "readonly", { username, password: "iam mfa pass" });
    await p.newIamUser(a2, "admin", { username, password: "iam mfa pass" });
    expect((await p.call("POST", "iam-user-enable-mfa", { token: u1.token, body: { type: "email" } })).status).toBe(200);
    expect((await login({ username, password: "iam mfa pass" })).status).toBe(300);
    const { result, mail } = await mailFrom(username, () => login({ username, password: "iam mfa pass", account_id: a1.accountId }));
    expect(result.body).toEqual({ detail: "We've emailed your passcode. Enter it to log in." });
    // The harness reads the same outbox.
    expect(codeIn(mailText(p.latestMail(username)))).toBe(codeIn(mail));
    const ok = await login({ username, password: "iam mfa pass", account_id: a1.accountId, otp: codeIn(mail) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ session_type: "iam_user", account_id: a1.accountId });
    // The other account's IAM user has no MFA: straight in.
    expect((await login({ username, password: "iam mfa pass", account_id: a2.accountId })).body.access_token).toEqual(expect.any(String));
  });
});

// ---- logout ---------------------------------------------------------------------------------

describe("POST logout", () => {
  it("revokes the bearer token and is written to the API log", async () => {
    const a = await p.newAccount();
    const other = (await login({ username: a.username, password: a.password })).body.access_token;
    expect(await p.call("POST", "logout", { token: a.token, body: {} })).toEqual({ status: 200, body: { detail: "Logged out" } });
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(401);
    expect((await p.call("POST", "logout", { token: a.token, body: {} })).status).toBe(401);
    // Only that token.
    expect((await p.call("GET", "list-account", { token: other })).status).toBe(200);
    const logs = await p.deps.db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId));
    expect(logs.map((l) => [l.urlPath, l.status])).toContainEqual(["/logout", 200]);
  });

  it("needs a token", async () => {
    expect(await p.call("POST", "logout", { body: {} })).toEqual({ status: 401, body: { detail: "Not authenticated" } });
  });
});

// ---- register -------------------------------------------------------------------------------

describe("POST register", () => {
  it("creates an account that can log in", async () => {
    const username = uniqueEmail("new");
    const r = await p.call("POST", "register", { body: { username: username.toUpperCase(), password: "a fine password", terms: true, subscriber: "partner-7" } });
    expect(r).toEqual({ status: 200, body: { detail: "Registration successful. You can now log in." } });
    const [row] = await p.deps.db.select().from(accounts).where(eq(accounts.username, username));
    expect(row!.subscriber).toBe("partner-7");
    expect(row!.passwordHash).not.toContain("a fine password");
    const ok = await login({ username, password: "a fine password" });
    expect(ok.status).toBe(200);
    expect(ok.body.session_type).toBe("account");
  });

  it("answers 409 for an existing owner e-mail and 422 for bad fields", async () => {
    const a = await p.newAccount();
    expect((await p.call("POST", "register", { body: { username: a.username, password: "another password", terms: true } })).status).toBe(409);
    const noTerms = await p.call("POST", "register", { body: { username: uniqueEmail("t"), password: "a fine password", terms: false } });
    expect(noTerms.status).toBe(422);
    expect(noTerms.body.detail[0]).toMatchObject({ loc: ["body", "terms"], msg: "Accept the terms of use and the privacy policy." });
    const short = await p.call("POST", "register", { body: { username: uniqueEmail("t"), password: "short", terms: true } });
    expect(short.status).toBe(422);
    expect(short.body.detail[0]).toMatchObject({ loc: ["body", "password"], msg: "Password must be at least 8 characters." });
    const long = await p.call("POST", "register", { body: { username: uniqueEmail("t"), password: "x".repeat(129), terms: true } });
    expect(long.status).toBe(422);
    expect((await p.call("POST", "register", { body: { username: "not-an-email", password: "a fine password", terms: true } })).status).toBe(422);
  });
});

// ---- forgot / reset -------------------------------------------------------------------------

describe("password recovery", () => {
  const sent = { status: 200, body: { detail: "An email confirmation has been sent to your registered email address." } };

  it("answers the same for an unknown e-mail, and sends nothing", async () => {
    const username = uniqueEmail("ghost");
    expect(await p.call("POST", "forgot-password", { body: { username } })).toEqual(sent);
    expect(p.latestMail(username)).toBeNull();
  });

  it("e-mails a single-use link that sets a new password and ends the sessions", async () => {
    const a = await p.newAccount();
    const { result, mail } = await mailFrom(a.username, () => p.call("POST", "forgot-password", { body: { username: a.username } }));
    expect(result).toEqual(sent);
    expect(mail).toContain("http://console.test/reset-password-template?access_token=");
    expect(mail).toContain("Linkwise");
    const token = decodeURIComponent(linkParam(mail, "access_token")!);
    expect(await p.call("POST", "reset-password", { body: { access_token: token, password: "brand new password" } })).toEqual({
      status: 200,
      body: { detail: "Password updated." },
    });
    expect(await p.call("POST", "reset-password", { body: { access_token: token, password: "another new password" } })).toEqual({
      status: 400,
      body: { detail: "Invalid or expired link." },
    });
    expect((await login({ username: a.username, password: a.password })).status).toBe(401);
    expect((await login({ username: a.username, password: "brand new password" })).status).toBe(200);
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(401);
  });

  it("refuses an expired or unknown link", async () => {
    const a = await p.newAccount();
    const { mail } = await mailFrom(a.username, () => p.call("POST", "forgot-password", { body: { username: a.username } }));
    const token = decodeURIComponent(linkParam(mail, "access_token")!);
    await p.deps.db.update(oneTimeSecrets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeSecrets.secretHash, sha256(token)));
    expect((await p.call("POST", "reset-password", { body: { access_token: token, password: "brand new password" } })).status).toBe(400);
    expect((await p.call("POST", "reset-password", { body: { access_token: "made-up", password: "brand new password" } })).status).toBe(400);
    expect((await p.call("POST", "reset-password", { body: { access_token: token, password: "short" } })).status).toBe(422);
  });

  it("answers 300 with a JSON string when several accounts match, and resets only the chosen one", async () => {
    const username = uniqueEmail("two");
    const a1 = await p.newAccount({ username, password: "first password" });
    const a2 = await p.newAccount({ username, password: "second password" });
    const r = await p.call("POST", "forgot-password", { body: { username } });
    expect(r.status).toBe(300);
    expect(typeof r.body.detail).toBe("string");
    const choices = JSON.parse(r.body.detail);
    expect(choices.map((c: { account_id: string }) => c.account_id).sort()).toEqual([a1.accountId, a2.accountId].sort());
    expect(Object.keys(choices[0]).sort()).toEqual(["account_domain", "account_id"]);

    const { result, mail } = await mailFrom(username, () => p.call("POST", "forgot-password", { body: { username, account_id: a2.accountId } }));
    expect(result).toEqual(sent);
    const token = decodeURIComponent(linkParam(mail, "access_token")!);
    expect((await p.call("POST", "reset-password", { body: { access_token: token, password: "second renewed" } })).status).toBe(200);
    expect((await login({ username, password: "second renewed" })).body.account_id).toBe(a2.accountId);
    expect((await login({ username, password: "first password" })).body.account_id).toBe(a1.accountId);
  });

  it("works for an IAM user", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const { mail } = await mailFrom(u.username, () => p.call("POST", "forgot-password", { body: { username: u.username } }));
    const token = decodeURIComponent(linkParam(mail, "access_token")!);
    expect((await p.call("POST", "reset-password", { body: { access_token: token, password: "iam renewed pw" } })).status).toBe(200);
    expect((await login({ username: u.username, password: "iam renewed pw" })).body.session_type).toBe("iam_user");
  });
});

// ---- IAM user first password ----------------------------------------------------------------

describe("POST iam-user-set-password", () => {
  it("sets the first password once from the setup e-mail", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "admin");
    const username = uniqueEmail("invitee");
    const { result, mail } = await mailFrom(username, () =>
      p.call("POST", "create-iam-user", { token: a.token, body: { username, role: "readonly", entity_name: u.entityName, name: "Invitee" } }),
    );
    expect(result.status).toBe(200);
    expect(mail).toContain("http://console.test/new-iam-user-setup-template?iam_user_token=");
    const token = decodeURIComponent(linkParam(mail, "iam_user_token")!);
    // No password yet: cannot log in.
    expect((await login({ username, password: "anything at all" })).status).toBe(401);
    expect(await p.call("POST", "iam-user-set-password", { body: { iam_user_token: token, password: "my first password" } })).toEqual({
      status: 200,
      body: { detail: "Password set." },
    });
    expect(await p.call("POST", "iam-user-set-password", { body: { iam_user_token: token, password: "my second password" } })).toEqual({
      status: 400,
      body: { detail: "Invalid or expired link." },
    });
    const ok = await login({ username, password: "my first password" });
    expect(ok.body).toMatchObject({ session_type: "iam_user", account_id: a.accountId });
    // A reset link is not a setup link.
    const { mail: resetMail } = await mailFrom(username, () => p.call("POST", "forgot-password", { body: { username } }));
    const resetToken = decodeURIComponent(linkParam(resetMail, "access_token")!);
    expect((await p.call("POST", "iam-user-set-password", { body: { iam_user_token: resetToken, password: "sneaky password" } })).status).toBe(400);
  });
});

// ---- malformed payloads -----------------------------------------------------------------------

describe("malformed payloads get a 4xx", () => {
  it("token", async () => {
    const a = await p.newAccount();
    await expectRefused("token", { username: a.username, password: a.password });
    await clearLoginFailures(p.deps.db, a.username);
    expect((await login({ username: a.username, password: a.password })).status).toBe(200);
  });

  it("register", async () => {
    const example = { username: uniqueEmail("reg"), password: "a fine password", terms: true };
    await expectRefused("register", example);
    expect((await p.call("POST", "register", { body: example })).status).toBe(200);
  });

  it("forgot-password", async () => {
    const a = await p.newAccount();
    await expectRefused("forgot-password", { username: a.username });
    expect((await p.call("POST", "forgot-password", { body: { username: a.username } })).status).toBe(200);
  });

  it("reset-password", async () => {
    const a = await p.newAccount();
    const { mail } = await mailFrom(a.username, () => p.call("POST", "forgot-password", { body: { username: a.username } }));
    const example = { access_token: decodeURIComponent(linkParam(mail, "access_token")!), password: "brand new password" };
    await expectRefused("reset-password", example);
    expect((await p.call("POST", "reset-password", { body: example })).status).toBe(200);
  });

  it("iam-user-set-password", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "admin");
    const username = uniqueEmail("setpw");
    const { mail } = await mailFrom(username, () =>
      p.call("POST", "create-iam-user", { token: a.token, body: { username, entity_name: u.entityName } }),
    );
    const example = { iam_user_token: decodeURIComponent(linkParam(mail, "iam_user_token")!), password: "my first password" };
    await expectRefused("iam-user-set-password", example);
    expect((await p.call("POST", "iam-user-set-password", { body: example })).status).toBe(200);
  });

  it("logout (body {})", async () => {
    const a = await p.newAccount();
    await expectRefused("logout", {}, { token: a.token, legit: validForEmptyBody });
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(200);
  });
});

// ---- the API log ----------------------------------------------------------------------------

describe("API log", () => {
  // platform/lib/apilog.ts stores request bodies as jsonb: it must clean NUL, lone surrogates and
  // deep nesting first, or every signed-in call would answer 500 to such bodies.
  it("never turns a malformed signed-in body into a 500", async () => {
    const a = await p.newAccount();
    const unsafe = [...parserPayloads({ name: "x" }), ...malformedPayloads({ name: "x" })].filter(stressesBodyStorage);
    expect(unsafe.length).toBeGreaterThan(0);
    for (const m of unsafe) {
      const r = await p.call("POST", "update-iam-user", { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
      expect(r.status, m.name).toBeGreaterThanOrEqual(400);
      expect(r.status, m.name).toBeLessThan(500);
    }
    expect(await apiLogCleansBodies(a.token)).toBe(true);
  });

  it("keeps secrets out of the log", async () => {
    const a = await p.newAccount();
    await p.call("POST", "update-account", { token: a.token, body: { username: a.username, password: "a secret password" } });
    const logs = await p.deps.db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId));
    const row = logs.find((l) => l.urlPath === "/update-account")!;
    expect(row.requestBody).toEqual({ username: a.username, password: "***" });
    expect(JSON.stringify(logs)).not.toContain("a secret password");
  });
});

describe("OpenAPI", () => {
  it("publishes every auth, account and IAM call", async () => {
    const doc = await p.call("GET", "openapi.json");
    const paths = Object.keys(doc.body.paths);
    for (const call of [
      "token", "logout", "register", "forgot-password", "reset-password", "iam-user-set-password",
      "list-account", "update-account", "update-iam-user", "remove-account",
      "account-enable-mfa", "iam-user-enable-mfa", "account-disable-mfa", "iam-user-disable-mfa",
      "get-account-idp", "update-account-idp",
      "create-iam-user", "list-iam-user", "remove-iam-user", "iam-user-assign-entity", "iam-user-update-role",
    ]) {
      expect(paths, call).toContain(`/api/v1/${call}`);
    }
    // 413/415: every JSON body (too large, not JSON); 500: any call. A public call says so: `security: []`.
    expect(Object.keys(doc.body.paths["/api/v1/token"].post.responses).sort()).toEqual(["200", "300", "400", "401", "413", "415", "422", "429", "500"]);
    expect(doc.body.paths["/api/v1/token"].post.security).toEqual([]);
    expect(doc.body.paths["/api/v1/create-iam-user"].post.security).toEqual([{ bearer: [] }]);
  });
});
