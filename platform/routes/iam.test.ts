import fs from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { entities, iamUsers, oneTimeSecrets } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { malformedPayloads, type MalformedPayload } from "../test/malformed.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const uniqueEmail = (tag: string) => `${tag}-${newId("t")}@example.test`;
const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const list = async (token: string) => (await p.call("GET", "list-iam-user", { token })).body as Array<Record<string, any>>;

async function addEntity(a: TestAccount, name = `Site ${newId("e")}`) {
  await p.deps.db.insert(entities).values({ entityId: newId("ent"), accountId: a.accountId, entityName: name });
  return name;
}

/** The decoded text of the newest .eml to an address (nodemailer writes quoted-printable). */
function mailText(to: string): string {
  const raw = p.latestMail(to);
  if (!raw) return "";
  return Buffer.from(
    raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  ).toString("utf8");
}

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


describe("POST create-iam-user", () => {
  it("creates a readonly user by default, lists it, and e-mails the setup link", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a, "Headquarters");
    const username = uniqueEmail("Invitee").toUpperCase();
    const r = await post(a.token, "create-iam-user", { username, entity_name: entity, name: "Ivy Invitee" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ iam_user_id: expect.stringMatching(/^iam-/), detail: `Created IAM user ${username.toLowerCase()} successfully.` });
    const rows = await list(a.token);
    expect(rows).toEqual([
      {
        iam_user_id: r.body.iam_user_id,
        username: username.toLowerCase(),
        role: "readonly",
        entity_name: "Headquarters",
        name: "Ivy Invitee",
        email: username.toLowerCase(),
        phone: "",
        address: "",
        mfa_enabled: false,
        mfa_type: null,
        account_id: a.accountId,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    const mail = mailText(username.toLowerCase());
    expect(mail).toContain("Subject: Linkwise: set up your IAM user");
    expect(mail).toMatch(/http:\/\/console\.test\/new-iam-user-setup-template\?iam_user_token=[A-Za-z0-9_-]{40,}/);
    expect(mail).toContain(a.username);
    // The link token is stored hashed, for 7 days.
    const [secret] = await p.deps.db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.iamUserId, r.body.iam_user_id));
    expect(secret!.purpose).toBe("iam_setup");
    const days = (secret!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(mail).not.toContain(secret!.secretHash);
  });

  it("lets an admin IAM user create an admin", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const r = await post(admin.token, "create-iam-user", { username: uniqueEmail("adm"), role: "admin", entity_name: admin.entityName, name: "" });
    expect(r.status).toBe(200);
    expect((await list(a.token)).find((u) => u.iam_user_id === r.body.iam_user_id)?.role).toBe("admin");
  });

  it("validates the username, role and entity", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a);
    const bad = await post(a.token, "create-iam-user", { username: "not-an-email", entity_name: entity });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ loc: ["body", "username"], msg: "Invalid format. Username should be an email.", type: "invalid_format" }]);
    expect((await post(a.token, "create-iam-user", { username: uniqueEmail("r"), role: "superuser", entity_name: entity })).status).toBe(422);
    expect((await post(a.token, "create-iam-user", { username: uniqueEmail("r"), entity_name: "" })).body.detail[0].msg).toBe("Please select an entity.");
    expect(await post(a.token, "create-iam-user", { username: uniqueEmail("r"), entity_name: "No such entity" })).toEqual({
      status: 404,
      body: { detail: "Entity not found." },
    });
    // Another account's entity is not found either.
    const b = await p.newAccount();
    const bEntity = await addEntity(b, `B only ${newId("x")}`);
    expect((await post(a.token, "create-iam-user", { username: uniqueEmail("r"), entity_name: bEntity })).status).toBe(404);
    expect(await list(a.token)).toEqual([]);
  });

  it("answers 409 for a duplicate username or the owner's own", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a);
    const username = uniqueEmail("dup");
    expect((await post(a.token, "create-iam-user", { username, entity_name: entity })).status).toBe(200);
    expect(await post(a.token, "create-iam-user", { username, entity_name: entity })).toEqual({
      status: 409,
      body: { detail: "An IAM user with this username already exists." },
    });
    expect((await post(a.token, "create-iam-user", { username: a.username, entity_name: entity })).status).toBe(409);
    // The same username in another account is fine.
    const b = await p.newAccount();
    expect((await post(b.token, "create-iam-user", { username, entity_name: await addEntity(b) })).status).toBe(200);
  });
});

describe("IAM user management", () => {
  it("removes an IAM user and ends its sessions", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "admin");
    expect(await post(a.token, "remove-iam-user", { iam_user_id: u.iamUserId })).toEqual({ status: 200, body: { detail: "IAM User removed." } });
    expect(await list(a.token)).toEqual([]);
    expect((await p.call("GET", "list-account", { token: u.token })).status).toBe(401);
    expect((await post(a.token, "remove-iam-user", { iam_user_id: u.iamUserId })).status).toBe(404);
  });

  it("assigns another entity of the account", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const branch = await addEntity(a, "Branch East");
    expect(await post(a.token, "iam-user-assign-entity", { iam_user_id: u.iamUserId, new_entity_name: branch })).toEqual({
      status: 200,
      body: { detail: "Assigned entity successfully." },
    });
    expect((await list(a.token))[0]!.entity_name).toBe("Branch East");
    expect((await post(a.token, "iam-user-assign-entity", { iam_user_id: u.iamUserId, new_entity_name: "Nowhere" })).status).toBe(404);
    expect((await post(a.token, "iam-user-assign-entity", { iam_user_id: u.iamUserId, new_entity_name: "" })).body.detail[0].msg).toBe(
      "Please select an entity.",
    );
    // An entity that disappears leaves the user without one.
    await p.deps.db.delete(entities).where(eq(entities.entityName, "Branch East"));
    expect((await list(a.token))[0]!.entity_name).toBeNull();
  });

  it("updates the role, and the new role takes effect", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    expect((await post(u.token, "create_entity", { entity_name: `Role check ${u.iamUserId}`, description: "", parent_entity_name: "" })).status).toBe(403);
    expect(await post(a.token, "iam-user-update-role", { iam_user_id: u.iamUserId, new_role: "admin" })).toEqual({
      status: 200,
      body: { detail: "Updated IAM role successfully." },
    });
    expect((await list(a.token))[0]!.role).toBe("admin");
    expect((await post(u.token, "create_entity", { entity_name: `Role check ${u.iamUserId}`, description: "", parent_entity_name: "" })).status).toBe(200);
    expect((await post(a.token, "iam-user-update-role", { iam_user_id: u.iamUserId, new_role: "owner" })).status).toBe(422);
  });
});

describe("tenancy", () => {
  it("keeps account A away from account B's IAM users (404)", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const bUser = await p.newIamUser(b, "readonly");
    const aEntity = await addEntity(a);
    expect(await list(a.token)).toEqual([]);
    expect((await list(b.token)).map((u) => u.iam_user_id)).toEqual([bUser.iamUserId]);
    const attempts = [
      ["remove-iam-user", { iam_user_id: bUser.iamUserId }],
      ["iam-user-assign-entity", { iam_user_id: bUser.iamUserId, new_entity_name: aEntity }],
      ["iam-user-update-role", { iam_user_id: bUser.iamUserId, new_role: "admin" }],
    ] as const;
    for (const [call, body] of attempts) {
      expect(await post(a.token, call, body), call).toEqual({ status: 404, body: { detail: "IAM user not found." } });
    }
    // An admin of A cannot reach B either.
    const aAdmin = await p.newIamUser(a, "admin");
    for (const [call, body] of attempts) expect((await post(aAdmin.token, call, body)).status, call).toBe(404);
    const [row] = await p.deps.db.select().from(iamUsers).where(eq(iamUsers.iamUserId, bUser.iamUserId));
    expect(row).toMatchObject({ role: "readonly", accountId: b.accountId });
    expect((await p.call("GET", "list-account", { token: bUser.token })).status).toBe(200);
  });
});

describe("readonly IAM users", () => {
  it("get 403 on every mutating call that is not their own profile", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const other = await p.newIamUser(a, "admin");
    const forbidden: Array<[string, Record<string, unknown>]> = [
      ["update-account", { username: a.username, name: "Nope" }],
      ["remove-account", { username: a.username }],
      ["account-enable-mfa", { type: "email" }],
      ["account-disable-mfa", {}],
      ["update-account-idp", { metalink: "https://idp.example.com/m" }],
      ["create-iam-user", { username: uniqueEmail("ro"), entity_name: ro.entityName }],
      ["remove-iam-user", { iam_user_id: other.iamUserId }],
      ["iam-user-assign-entity", { iam_user_id: other.iamUserId, new_entity_name: ro.entityName }],
      ["iam-user-update-role", { iam_user_id: other.iamUserId, new_role: "readonly" }],
      ["iam-user-update-role", { iam_user_id: ro.iamUserId, new_role: "admin" }],
    ];
    for (const [call, body] of forbidden) expect((await post(ro.token, call, body)).status, call).toBe(403);
    // Nothing changed.
    expect((await list(a.token)).map((u) => [u.iam_user_id, u.role]).sort()).toEqual(
      [
        [ro.iamUserId, "readonly"],
        [other.iamUserId, "admin"],
      ].sort(),
    );
    expect((await p.call("GET", "get-account-idp", { token: a.token })).body.metalink).toBe("");
    // Reading is fine.
    expect((await p.call("GET", "list-iam-user", { token: ro.token })).status).toBe(200);
    expect((await p.call("GET", "list-account", { token: ro.token })).status).toBe(200);
    expect((await p.call("GET", "get-account-idp", { token: ro.token })).status).toBe(200);
    // Their own profile, password and MFA are theirs to change, and so is logging out.
    expect((await post(ro.token, "update-iam-user", { name: "Still me" })).status).toBe(200);
    expect((await post(ro.token, "update-iam-user", { password: "my own new password" })).status).toBe(200);
    expect((await post(ro.token, "iam-user-enable-mfa", { type: "email" })).status).toBe(200);
    expect((await post(ro.token, "iam-user-disable-mfa", {})).status).toBe(200);
    expect((await post(ro.token, "logout", {})).status).toBe(200);
  });

  it("admins may manage IAM users but not delete the account", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(admin.token, "iam-user-update-role", { iam_user_id: ro.iamUserId, new_role: "admin" })).status).toBe(200);
    expect((await post(admin.token, "iam-user-assign-entity", { iam_user_id: ro.iamUserId, new_entity_name: admin.entityName })).status).toBe(200);
    expect((await post(admin.token, "remove-iam-user", { iam_user_id: ro.iamUserId })).status).toBe(200);
    expect((await post(admin.token, "remove-account", { username: a.username })).status).toBe(403);
  });
});

describe("malformed payloads get a 4xx", () => {
  it("create-iam-user", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a);
    const example = { username: uniqueEmail("mal"), role: "admin", entity_name: entity, name: "Mal Formed" };
    // role has a default (readonly) and name may be empty: leaving them out is valid.
    await expectRefused("create-iam-user", example, a.token, (m) =>
      /^field "(role": missing|name": (missing|empty string|whitespace only))$/.test(m.name),
    );
    expect(await list(a.token)).toEqual([]);
    expect(fs.existsSync(p.outboxDir) ? p.latestMail(example.username) : null).toBeNull();
    expect((await post(a.token, "create-iam-user", example)).status).toBe(200);
  });

  it("remove-iam-user", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    await expectRefused("remove-iam-user", { iam_user_id: u.iamUserId }, a.token);
    expect((await list(a.token)).length).toBe(1);
    expect((await post(a.token, "remove-iam-user", { iam_user_id: u.iamUserId })).status).toBe(200);
  });

  it("iam-user-assign-entity", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const target = await addEntity(a);
    await expectRefused("iam-user-assign-entity", { iam_user_id: u.iamUserId, new_entity_name: target }, a.token);
    expect((await list(a.token))[0]!.entity_name).toBe(u.entityName);
    expect((await post(a.token, "iam-user-assign-entity", { iam_user_id: u.iamUserId, new_entity_name: target })).status).toBe(200);
  });

  it("iam-user-update-role", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    await expectRefused("iam-user-update-role", { iam_user_id: u.iamUserId, new_role: "admin" }, a.token);
    expect((await list(a.token))[0]!.role).toBe("readonly");
    expect((await post(a.token, "iam-user-update-role", { iam_user_id: u.iamUserId, new_role: "admin" })).status).toBe(200);
  });
});

describe("list-iam-user as a page", () => {
  it("searches, sorts and pages in SQL; without parameters keeps the spec's array", async () => {
    const a = await p.newAccount();
    const hq = await addEntity(a, "Alpha HQ");
    const branch = await addEntity(a, "Zulu Branch");
    const made: Record<string, string> = {};
    for (const [who, entity, role, name] of [
      ["carol", hq, "admin", "Carol C"],
      ["alice", branch, "readonly", "Alice A"],
      ["bob", hq, "readonly", ""],
    ] as const) {
      const r = await post(a.token, "create-iam-user", { username: `${who}-${newId("x")}@example.test`, entity_name: entity, role, name });
      expect(r.status).toBe(200);
      made[who] = r.body.iam_user_id;
    }
    const page = async (query: Record<string, string>) => (await p.call("GET", "list-iam-user", { token: a.token, query })).body;
    // No parameters: the array, oldest first.
    expect((await list(a.token)).map((u) => u.iam_user_id)).toEqual([made.carol, made.alice, made.bob]);
    // Sorted by username, both ways; paged.
    const byName = await page({ sort: "username", size: "2" });
    expect(byName.total).toBe(3);
    expect(byName.items.map((u: any) => u.iam_user_id)).toEqual([made.alice, made.bob]);
    expect((await page({ sort: "username", size: "2", page: "2" })).items.map((u: any) => u.iam_user_id)).toEqual([made.carol]);
    expect((await page({ sort: "-username" })).items.map((u: any) => u.iam_user_id)).toEqual([made.carol, made.bob, made.alice]);
    // Blanks last: bob has no name.
    expect((await page({ sort: "name" })).items.map((u: any) => u.iam_user_id)).toEqual([made.alice, made.carol, made.bob]);
    expect((await page({ sort: "entity_name" })).items.map((u: any) => u.entity_name)).toEqual(["Alpha HQ", "Alpha HQ", "Zulu Branch"]);
    // Search: username, name, role, entity name; every word must match.
    expect((await page({ q: "zulu" })).items.map((u: any) => u.iam_user_id)).toEqual([made.alice]);
    expect((await page({ q: "ADMIN" })).items.map((u: any) => u.iam_user_id)).toEqual([made.carol]);
    expect((await page({ q: "alpha readonly" })).items.map((u: any) => u.iam_user_id)).toEqual([made.bob]);
    expect(await page({ q: "nobody" })).toEqual({ items: [], total: 0 });
    // ids: which of these the account holds.
    expect((await page({ ids: `${made.bob},iam-nope` })).items.map((u: any) => u.iam_user_id)).toEqual([made.bob]);
    // Bad parameters: 422.
    expect((await p.call("GET", "list-iam-user", { token: a.token, query: { sort: "password" } })).status).toBe(422);
    expect((await p.call("GET", "list-iam-user", { token: a.token, query: { size: "1000" } })).status).toBe(422);
    // Another account sees none of them.
    const b = await p.newAccount();
    expect((await p.call("GET", "list-iam-user", { token: b.token, query: { q: "example" } })).body).toEqual({ items: [], total: 0 });
  });

  it("get-iam-user-detail and export-iam-users", async () => {
    const a = await p.newAccount();
    const u = await p.newIamUser(a, "readonly");
    const detail = await p.call("GET", "get-iam-user-detail", { token: a.token, query: { iam_user_id: u.iamUserId } });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual((await list(a.token))[0]);
    const b = await p.newAccount();
    expect(await p.call("GET", "get-iam-user-detail", { token: b.token, query: { iam_user_id: u.iamUserId } })).toEqual({
      status: 404,
      body: { detail: "IAM user not found." },
    });
    const res = await p.app.request("/api/v1/export-iam-users?sort=username", { headers: { authorization: `Bearer ${u.token}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.iam_user_id)).toEqual([u.iamUserId]);
    const other = await p.app.request("/api/v1/export-iam-users", { headers: { authorization: `Bearer ${b.token}` } });
    expect((await other.text()).trim()).toBe("");
  });
});

describe("open sessions follow the role at once", () => {
  it("a demoted admin's open token is refused its next change; a removed user's token ends", async () => {
    const a = await p.newAccount();
    const admin = await p.newIamUser(a, "admin");
    const other = await p.newIamUser(a, "readonly");
    // The admin's token works for a change now …
    expect((await post(admin.token, "iam-user-assign-entity", { iam_user_id: other.iamUserId, new_entity_name: admin.entityName })).status).toBe(200);
    expect((await post(a.token, "iam-user-update-role", { iam_user_id: admin.iamUserId, new_role: "readonly" })).status).toBe(200);
    // … and the same open token is readonly from the next call on, while reading still works.
    expect((await post(admin.token, "iam-user-update-role", { iam_user_id: other.iamUserId, new_role: "admin" })).status).toBe(403);
    expect((await p.call("GET", "list-account", { token: admin.token })).body.iam_user.role).toBe("readonly");
    expect((await p.call("GET", "list-iam-user", { token: admin.token })).status).toBe(200);
    // Removed: the token is gone altogether.
    expect((await post(a.token, "remove-iam-user", { iam_user_id: admin.iamUserId })).status).toBe(200);
    expect((await p.call("GET", "list-iam-user", { token: admin.token })).status).toBe(401);
    expect((await post(admin.token, "iam-user-update-role", { iam_user_id: other.iamUserId, new_role: "admin" })).status).toBe(401);
  });
});

describe("the setup link under concurrency", () => {
  it("sets the first password exactly once when 10 requests use the link at the same time", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a);
    const username = uniqueEmail("race");
    expect((await post(a.token, "create-iam-user", { username, entity_name: entity })).status).toBe(200);
    const token = decodeURIComponent(mailText(username).match(/iam_user_token=([A-Za-z0-9_%-]+)/)![1]!);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => p.call("POST", "iam-user-set-password", { body: { iam_user_token: token, password: `racing password ${i}` } })),
    );
    const winners = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expect(r).toEqual({ status: 400, body: { detail: "Invalid or expired link." } });
    // The winner's password is the one that signs in; the others' do not.
    const winner = winners[0]!;
    expect((await p.call("POST", "token", { body: { username, password: `racing password ${winner}` } })).status).toBe(200);
    const loser = (winner + 1) % 10;
    expect((await p.call("POST", "token", { body: { username, password: `racing password ${loser}` } })).status).toBe(401);
  });

  it("refuses an expired link", async () => {
    const a = await p.newAccount();
    const entity = await addEntity(a);
    const username = uniqueEmail("late");
    const r = await post(a.token, "create-iam-user", { username, entity_name: entity });
    const token = decodeURIComponent(mailText(username).match(/iam_user_token=([A-Za-z0-9_%-]+)/)![1]!);
    await p.deps.db.update(oneTimeSecrets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeSecrets.iamUserId, r.body.iam_user_id));
    expect((await p.call("POST", "iam-user-set-password", { body: { iam_user_token: token, password: "too late password" } })).status).toBe(400);
  });
});
