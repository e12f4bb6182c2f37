import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accessTokens, accounts, apiLog, entities, iamUsers, oneTimeSecrets } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { malformedPayloads, validForEmptyBody, validVariants, type MalformedPayload } from "../test/malformed.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const login = (body: Record<string, unknown>) => p.call("POST", "token", { body });
const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const updated = { status: 200, body: { detail: "Account updated." } };

/** Every variant gets a 4xx (never a 2xx, 3xx or 5xx). */
async function expectRefused(call: string, example: Record<string, unknown>, token: string, legit?: (m: MalformedPayload) => boolean) {
  const variants = malformedPayloads(example).filter((m) => !legit?.(m));
  // The call's schema variants (platform/routes/malformed.test.ts sends the parser's once): at least 15
  // for a body with fields, the 4 that are not an object for `{}`.
  expect(variants.length).toBeGreaterThanOrEqual(Object.keys(example).length ? 15 : 4);
  for (const m of variants) {
    const r = await p.call("POST", call, { token, rawBody: m.rawBody, contentType: m.contentType });
    expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(r.status, `${call} ${m.name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
  }
}


describe("GET list-account", () => {
  it("shows the owner's account", async () => {
    const a = await p.newAccount();
    const r = await p.call("GET", "list-account", { token: a.token, query: { username: a.username } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      username: a.username,
      account_id: a.accountId,
      account_domain: expect.any(String),
      logo: null,
      mfa_enabled: false,
      name: "Test Account",
      email: a.username,
      phone: "",
      address: "",
      session_type: "account",
      iam_user: null,
    });
    expect((await p.call("GET", "list-account", { token: a.token })).body.account_id).toBe(a.accountId);
  });

  it("shows an IAM user's account and the IAM user", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const r = await p.call("GET", "list-account", { token: u.token, query: { username: u.username } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ username: a.username, account_id: a.accountId, session_type: "iam_user" });
    expect(r.body.iam_user).toEqual({
      iam_user_id: u.iamUserId,
      username: u.username,
      role: "readonly",
      entity_name: u.entityName,
      name: "Test IAM user",
      email: u.username,
      phone: "",
      address: "",
      mfa_enabled: false,
      mfa_type: null,
    });
  });

  it("answers 404 for any other username, 401 without a token", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    expect(await p.call("GET", "list-account", { token: a.token, query: { username: b.username } })).toEqual({
      status: 404,
      body: { detail: "Account not found." },
    });
    expect((await p.call("GET", "list-account", {})).status).toBe(401);
    expect((await p.call("GET", "list-account", { token: "not-a-token" })).status).toBe(401);
    expect((await p.call("GET", "list-account", { token: a.token, query: { username: "x".repeat(300) } })).status).toBe(422);
  });
});

describe("POST update-account", () => {
  it("updates each profile field on its own", async () => {
    const a = await p.newAccount();
    expect(await post(a.token, "update-account", { username: a.username, name: "  Acme Networks  " })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, email: "Billing@Acme.Example" })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, phone: "+1 (555) 010-0200" })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, address: "1 Main St\nSpringfield" })).toEqual(updated);
    const me = (await p.call("GET", "list-account", { token: a.token })).body;
    expect(me).toMatchObject({ name: "Acme Networks", email: "billing@acme.example", phone: "+1 (555) 010-0200", address: "1 Main St\nSpringfield" });
    // The username itself does not change.
    expect(me.username).toBe(a.username);
  });

  it("clears the optional phone and address with an empty (or blank) value", async () => {
    const a = await p.newAccount();
    expect(await post(a.token, "update-account", { username: a.username, phone: "555 0100" })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, address: "1 Main St" })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, phone: "" })).toEqual(updated);
    expect(await post(a.token, "update-account", { username: a.username, address: "   " })).toEqual(updated);
    expect((await p.call("GET", "list-account", { token: a.token })).body).toMatchObject({ phone: "", address: "" });
    // The IAM user's own profile too.
    const u = await p.newIamUser(a, "readonly");
    expect(await post(u.token, "update-iam-user", { phone: "555 0101" })).toEqual(updated);
    expect(await post(u.token, "update-iam-user", { phone: "" })).toEqual(updated);
    expect(await post(u.token, "update-iam-user", { address: "" })).toEqual(updated);
    expect((await p.call("GET", "list-account", { token: u.token })).body.iam_user).toMatchObject({ phone: "", address: "" });
    // Name and email stay required.
    expect((await post(a.token, "update-account", { username: a.username, name: "" })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, email: "" })).status).toBe(422);
  });

  it("changes the password and ends the owner's other sessions", async () => {
    const a = await p.newAccount();
    const other = (await login({ username: a.username, password: a.password })).body.access_token;
    expect(await post(a.token, "update-account", { username: a.username, password: "the new password" })).toEqual(updated);
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(200);
    expect((await p.call("GET", "list-account", { token: other })).status).toBe(401);
    expect((await login({ username: a.username, password: a.password })).status).toBe(401);
    expect((await login({ username: a.username, password: "the new password" })).status).toBe(200);
  });

  it("wants exactly one field, valid values, and the caller's username", async () => {
    const a = await p.newAccount();
    const none = await post(a.token, "update-account", { username: a.username });
    expect(none.status).toBe(422);
    expect(none.body.detail[0].msg).toBe("Send exactly one of: password, name, email, phone, address.");
    expect((await post(a.token, "update-account", { username: a.username, name: "A", phone: "123" })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, password: "short" })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, email: "nope" })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, name: "x".repeat(201) })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, address: "x".repeat(501) })).status).toBe(422);
    expect((await post(a.token, "update-account", { username: a.username, phone: "call me" })).status).toBe(422);
    const b = await p.newAccount();
    expect(await post(a.token, "update-account", { username: b.username, name: "Hijack" })).toEqual({
      status: 404,
      body: { detail: "Account not found." },
    });
    const [row] = await p.deps.db.select().from(accounts).where(eq(accounts.accountId, b.accountId));
    expect(row!.name).toBe("Test Account");
  });

  it("is refused to IAM users, admin included", async () => {
    const a = await p.newAccount();
    for (const role of ["admin", "readonly"] as const) {
      const u = await p.newIamUser(a, role);
      const r = await post(u.token, "update-account", { username: a.username, name: "By IAM" });
      expect(r).toEqual({ status: 403, body: { detail: "Only the account owner can do this." } });
    }
  });
});

describe("POST update-iam-user", () => {
  it("lets any IAM user update their own profile and password", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const other = (await login({ username: u.username, password: u.password })).body.access_token;
    expect(await post(u.token, "update-iam-user", { name: "Rita Readonly" })).toEqual(updated);
    expect(await post(u.token, "update-iam-user", { email: "rita@example.test" })).toEqual(updated);
    expect(await post(u.token, "update-iam-user", { phone: "555 0101" })).toEqual(updated);
    expect(await post(u.token, "update-iam-user", { address: "2 Side St" })).toEqual(updated);
    expect((await p.call("GET", "list-account", { token: u.token })).body.iam_user).toMatchObject({
      name: "Rita Readonly",
      email: "rita@example.test",
      phone: "555 0101",
      address: "2 Side St",
      username: u.username,
    });
    expect(await post(u.token, "update-iam-user", { password: "rita's new password" })).toEqual(updated);
    expect((await p.call("GET", "list-account", { token: other })).status).toBe(401);
    expect((await login({ username: u.username, password: "rita's new password" })).status).toBe(200);
    // Nobody else changed.
    const owner = (await p.call("GET", "list-account", { token: a.token })).body;
    expect(owner.name).toBe("Test Account");
  });

  it("is refused to account sessions and wants exactly one field", async () => {
    const a = await p.newAccount();
    expect((await post(a.token, "update-iam-user", { name: "Owner" })).status).toBe(403);
    const u = await p.newIamUser(a, "admin");
    expect((await post(u.token, "update-iam-user", {})).status).toBe(422);
    expect((await post(u.token, "update-iam-user", { name: "A", email: "a@example.test" })).status).toBe(422);
  });
});

describe("POST remove-account", () => {
  it("deletes the account and everything in it, and revokes every token", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "admin");
    const b = await p.newAccount();
    const bUser = await p.newIamUser(b, "admin");
    const confirm = { username: a.username };
    expect(await post(a.token, "remove-account", confirm)).toEqual({ status: 200, body: { detail: "Account removed." } });
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(401);
    expect((await p.call("GET", "list-account", { token: u.token })).status).toBe(401);
    expect((await login({ username: a.username, password: a.password })).status).toBe(401);
    const db = p.deps.db;
    expect(await db.select().from(accounts).where(eq(accounts.accountId, a.accountId))).toEqual([]);
    expect(await db.select().from(iamUsers).where(eq(iamUsers.accountId, a.accountId))).toEqual([]);
    expect(await db.select().from(entities).where(eq(entities.accountId, a.accountId))).toEqual([]);
    expect(await db.select().from(accessTokens).where(eq(accessTokens.accountId, a.accountId))).toEqual([]);
    expect(await db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.accountId, a.accountId))).toEqual([]);
    // The call itself is in the log.
    const logs = await db.select().from(apiLog).where(eq(apiLog.accountId, a.accountId));
    expect(logs.map((l) => [l.urlPath, l.status])).toContainEqual(["/remove-account", 200]);
    // Another account is untouched.
    expect((await p.call("GET", "list-account", { token: b.token })).status).toBe(200);
    expect((await p.call("GET", "list-account", { token: bUser.token })).status).toBe(200);
  });

  it("is the owner's alone and needs the owner's username", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    expect(await post(admin.token, "remove-account", { username: a.username })).toEqual({
      status: 403,
      body: { detail: "Only the account owner can do this." },
    });
    const b = await p.newAccount();
    expect((await post(a.token, "remove-account", { username: b.username })).status).toBe(404);
    expect((await post(a.token, "remove-account", {})).status).toBe(422);
    expect((await p.call("GET", "list-account", { token: a.token })).status).toBe(200);
    expect((await p.call("GET", "list-account", { token: b.token })).status).toBe(200);
  });
});

describe("MFA switches", () => {
  it("turns the owner's MFA on and off", async () => {
    const a = await p.newAccount();
    expect(await post(a.token, "account-enable-mfa", { type: "email" })).toEqual({ status: 200, body: { detail: "MFA enabled." } });
    expect((await p.call("GET", "list-account", { token: a.token })).body.mfa_enabled).toBe(true);
    expect(await post(a.token, "account-disable-mfa", {})).toEqual({ status: 200, body: { detail: "MFA disabled." } });
    expect((await p.call("GET", "list-account", { token: a.token })).body.mfa_enabled).toBe(false);
    expect((await post(a.token, "account-enable-mfa", { type: "sms" })).status).toBe(422);
    expect((await post(a.token, "account-enable-mfa", {})).status).toBe(422);
  });

  it("turns an IAM user's own MFA on and off, any role", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    expect(await post(u.token, "iam-user-enable-mfa", { type: "email" })).toEqual({ status: 200, body: { detail: "MFA enabled." } });
    expect((await p.call("GET", "list-account", { token: u.token })).body.iam_user).toMatchObject({ mfa_enabled: true, mfa_type: "email" });
    // The account's own switch is untouched.
    expect((await p.call("GET", "list-account", { token: u.token })).body.mfa_enabled).toBe(false);
    expect(await post(u.token, "iam-user-disable-mfa", {})).toEqual({ status: 200, body: { detail: "MFA disabled." } });
    expect((await p.call("GET", "list-account", { token: u.token })).body.iam_user).toMatchObject({ mfa_enabled: false, mfa_type: null });
  });

  it("keeps each session type to its own calls", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    expect((await post(a.token, "iam-user-enable-mfa", { type: "email" })).status).toBe(403);
    expect((await post(a.token, "iam-user-disable-mfa", {})).status).toBe(403);
    expect((await post(admin.token, "account-enable-mfa", { type: "email" })).status).toBe(403);
    expect((await post(admin.token, "account-disable-mfa", {})).status).toBe(403);
  });
});

describe("SAML metadata URL", () => {
  it("is set by the account owner only: admin IAM users get 403, as with billing (issue 27 item 10)", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const url = "https://idp.example.com/saml/metadata?tenant=owner";
    expect((await post(a.token, "update-account-idp", { metalink: url })).status).toBe(200);
    for (const metalink of ["https://evil.example/saml/metadata", ""]) {
      expect(await post(admin.token, "update-account-idp", { metalink })).toEqual({ status: 403, body: { detail: "Only the account owner can do this." } });
    }
    expect((await p.call("GET", "get-account-idp", { token: admin.token })).body).toEqual({ metalink: url });
  });

  it("is read by anyone in the account and set by the owner", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const readonly = await p.newIamUser(a, "readonly");
    expect(await p.call("GET", "get-account-idp", { token: a.token })).toEqual({ status: 200, body: { metalink: "" } });
    const url = "https://idp.example.com/saml/metadata?tenant=42";
    expect(await post(a.token, "update-account-idp", { metalink: url })).toEqual({ status: 200, body: { detail: "SAML metadata URL updated." } });
    expect((await p.call("GET", "get-account-idp", { token: readonly.token })).body).toEqual({ metalink: url });
    expect((await post(readonly.token, "update-account-idp", { metalink: "https://evil.example" })).status).toBe(403);
    expect((await post(admin.token, "update-account-idp", { metalink: "" })).status).toBe(403);
    expect((await post(a.token, "update-account-idp", { metalink: "" })).status).toBe(200);
    expect((await p.call("GET", "get-account-idp", { token: a.token })).body).toEqual({ metalink: "" });
    // The webhook address rules (issue 63 item 30): no loopback, private, link-local or cloud-metadata
    // address, https only, no credentials; each refusal names the problem.
    for (const [bad, message] of [
      ["https://127.0.0.1/saml/metadata", "The SAML metadata URL resolves to 127.0.0.1, a loopback, private, link-local or reserved address: the metadata can only be read from public addresses."],
      ["https://169.254.169.254/latest/meta-data/", "The SAML metadata URL resolves to 169.254.169.254, a loopback, private, link-local or reserved address: the metadata can only be read from public addresses."],
      ["https://[::1]/metadata", "The SAML metadata URL resolves to ::1, a loopback, private, link-local or reserved address: the metadata can only be read from public addresses."],
      ["https://10.0.0.8/metadata", "The SAML metadata URL resolves to 10.0.0.8, a loopback, private, link-local or reserved address: the metadata can only be read from public addresses."],
      ["http://idp.example.com/metadata", "The SAML metadata URL must start with https://."],
      ["https://user:pw@idp.example.com/metadata", "The SAML metadata URL must not contain a user name or password."],
    ]) {
      const r = await post(a.token, "update-account-idp", { metalink: bad! });
      expect(r.status, bad).toBe(422);
      expect(r.body.detail.map((d: { msg: string }) => d.msg), bad).toEqual([message]);
    }
    const local = await post(a.token, "update-account-idp", { metalink: "https://localhost/metadata" });
    expect(local.body.detail[0].msg).toMatch(/^The SAML metadata URL resolves to (127\.0\.0\.1|::1), a loopback/);
    expect((await p.call("GET", "get-account-idp", { token: a.token })).body).toEqual({ metalink: "" });
    for (const bad of ["ftp://idp.example.com/x", "javascript:alert(1)", "not a url", `https://x.example/${"a".repeat(2100)}`]) {
      expect((await post(a.token, "update-account-idp", { metalink: bad })).status, bad).toBe(422);
    }
    // Another account's URL is its own.
    const b = await p.newAccount();
    expect((await p.call("GET", "get-account-idp", { token: b.token })).body).toEqual({ metalink: "" });
  });
});

describe("malformed payloads get a 4xx", () => {
  const emptyBodyLegit = validForEmptyBody;

  it("update-account", async () => {
    const a = await p.newAccount();
    await expectRefused("update-account", { username: a.username, name: "New name" }, a.token);
    await expectRefused("update-account", { username: a.username, password: "a new password" }, a.token);
    expect((await p.call("GET", "list-account", { token: a.token })).body.name).toBe("Test Account");
    expect((await post(a.token, "update-account", { username: a.username, name: "New name" })).status).toBe(200);
  });

  it("update-iam-user", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    // An empty (or blank) phone is valid: it clears the field.
    await expectRefused("update-iam-user", { phone: "+1 555 0100" }, u.token, validVariants({ emptyAllowed: ["phone"] }));
    await expectRefused("update-iam-user", { password: "a new password" }, u.token);
    expect((await post(u.token, "update-iam-user", { phone: "+1 555 0100" })).status).toBe(200);
  });

  it("remove-account", async () => {
    const a = await p.newAccount();
    await expectRefused("remove-account", { username: a.username }, a.token);
    expect((await post(a.token, "remove-account", { username: a.username })).status).toBe(200);
  });

  it("account-enable-mfa and iam-user-enable-mfa", async () => {
    const a = await p.newAccount();
    await expectRefused("account-enable-mfa", { type: "email" }, a.token);
    const u = await p.newIamUser(a, "readonly");
    await expectRefused("iam-user-enable-mfa", { type: "email" }, u.token);
    expect((await p.call("GET", "list-account", { token: u.token })).body).toMatchObject({ mfa_enabled: false, iam_user: { mfa_enabled: false } });
  });

  it("account-disable-mfa and iam-user-disable-mfa (body {})", async () => {
    const a = await p.newAccount();
    await expectRefused("account-disable-mfa", {}, a.token, emptyBodyLegit);
    const u = await p.newIamUser(a, "readonly");
    await expectRefused("iam-user-disable-mfa", {}, u.token, emptyBodyLegit);
  });

  it("update-account-idp", async () => {
    const a = await p.newAccount();
    // An empty (or blank) metalink is valid: it clears the URL.
    await expectRefused("update-account-idp", { metalink: "https://idp.example.com/metadata" }, a.token, (m) =>
      /^field "metalink": (empty string|whitespace only)$/.test(m.name),
    );
    expect((await p.call("GET", "get-account-idp", { token: a.token })).body).toEqual({ metalink: "" });
  });
});

describe("tenancy", () => {
  it("scopes every profile call by the token's account", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount({ username: `shared-${newId("t")}@example.test` });
    await post(b.token, "update-account", { username: b.username, name: "Bee Corp" });
    await post(a.token, "update-account", { username: a.username, name: "Ay Corp" });
    expect((await p.call("GET", "list-account", { token: a.token })).body.name).toBe("Ay Corp");
    expect((await p.call("GET", "list-account", { token: b.token })).body.name).toBe("Bee Corp");
  });
});
