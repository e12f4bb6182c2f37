import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp, type PlatformApp } from "../app.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { normalizeAddress, parseTrustProxy, resolveClientAddress } from "../lib/client-address.mjs";
import type { PlatformDeps } from "../lib/context.ts";
import { newId } from "../lib/ids.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { addressKey, defaultLimits, parseAbuseLimits, type LimitName, type LimitSize } from "./abuse-limits.ts";

// The abuse limits (docs/decisions/2026-12-03-abuse-limits.md) with their default sizes, on
// platforms of their own beside the harness's (whose per-address limits are lifted): on PGlite,
// and on PostgreSQL with TEST_DATABASE_URL, where the second instance has a pool of its own.

let p: TestPlatform;
let a1: PlatformApp;
let a2: PlatformApp;
let second: Database | undefined;

/** A platform instance on the harness's database (or, on PostgreSQL, on a pool of its own). */
function instance(deps: PlatformDeps, config: Partial<PlatformDeps["config"]> = {}): PlatformApp {
  return createPlatformApp({ ...deps, config: { ...deps.config, abuseLimits: {}, ...config } });
}

beforeAll(async () => {
  p = await testPlatform();
  a1 = instance(p.deps);
  if (process.env.TEST_DATABASE_URL) {
    second = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL });
    a2 = instance({ ...p.deps, db: second.db });
  } else {
    a2 = instance(p.deps);
  }
});
afterAll(async () => {
  await second?.close();
});

/** A fresh address of the benchmarking range for each test: files share the counters' table. */
const anAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;
const uniqueEmail = (tag: string) => `${tag}-${newId("t")}@example.test`;

interface Answer {
  status: number;
  body: { detail?: unknown; access_token?: string; iam_user_id?: string };
  retryAfter: string | null;
}

async function call(app: PlatformApp, path: string, body: unknown, opts: { address?: string; token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.address) headers["x-forwarded-for"] = opts.address;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await app.fetch(new Request(`http://platform.test/api/v1/${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Answer["body"], retryAfter: res.headers.get("retry-after") };
}

const minutesIn = (detail: unknown) => Number(/in (\d+) minutes?\.$/.exec(String(detail))?.[1]);

function expectLimited(answer: Answer, message: RegExp, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(String(answer.body.detail)).toMatch(message);
  const seconds = Number(answer.retryAfter);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  expect(minutesIn(answer.body.detail)).toBe(Math.ceil(seconds / 60));
}

const codeIn = (mail: string | null) => /login code is (\d{6})/.exec((mail ?? "").replace(/=\r?\n/g, ""))?.[1];

describe("sign-in", () => {
  const window = defaultLimits["login.account"].seconds;

  it("20 wrong passwords from one address for someone else's account: that person still signs in from another address; the address gets 429 with Retry-After", async () => {
    const victim = await p.newAccount();
    const [attacker, home] = [anAddress(), anAddress()];
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await call(a1, "token", { username: victim.username, password: `guess ${i}` }, { address: attacker }));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    for (const answer of answers.slice(5)) expectLimited(answer, /^Too many failed login attempts\. Try again in \d+ minutes?\.$/, window);
    // The right password from the attacker's address is refused too: it is the address that waits.
    expectLimited(await call(a1, "token", { username: victim.username, password: victim.password }, { address: attacker }), /^Too many failed login attempts/, window);

    const signedIn = await call(a1, "token", { username: victim.username, password: victim.password }, { address: home });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.access_token).toBeTruthy();
  });

  it("one address trying many accounts is stopped for every account once its own limit is used up", async () => {
    const attacker = anAddress();
    const limit = defaultLimits["login.address"].points;
    const targets = await Promise.all(Array.from({ length: Math.ceil(limit / 5) }, () => p.newAccount()));
    let refused = 0;
    for (const t of targets) {
      for (let i = 0; i < 5; i++) if ((await call(a1, "token", { username: t.username, password: `spray ${i}` }, { address: attacker })).status === 401) refused++;
    }
    expect(refused).toBe(limit);
    const fresh = await p.newAccount();
    expectLimited(await call(a1, "token", { username: fresh.username, password: "one more guess" }, { address: attacker }), /^Too many failed login attempts/, defaultLimits["login.address"].seconds);
    expect((await call(a1, "token", { username: fresh.username, password: fresh.password }, { address: anAddress() })).status).toBe(200);
  });

  it("two platform instances on one database count together", async () => {
    const victim = await p.newAccount();
    const attacker = anAddress();
    for (let i = 0; i < 5; i++) {
      expect((await call(i % 2 ? a2 : a1, "token", { username: victim.username, password: `wrong ${i}` }, { address: attacker })).status).toBe(401);
    }
    expect((await call(a2, "token", { username: victim.username, password: victim.password }, { address: attacker })).status).toBe(429);
    expect((await call(a1, "token", { username: victim.username, password: victim.password }, { address: attacker })).status).toBe(429);
    expect((await call(a2, "token", { username: victim.username, password: victim.password }, { address: anAddress() })).status).toBe(200);
  });

  it("40 simultaneous wrong passwords on two instances: at most 5 are tried", async () => {
    const victim = await p.newAccount();
    const attacker = anAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(i % 2 ? a2 : a1, "token", { username: victim.username, password: `burst ${i}` }, { address: attacker })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(defaultLimits["login.account"].points);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.retryAfter) > 0)).toBe(true);
  });

  it("IPv6 addresses count by their /64", async () => {
    const victim = await p.newAccount();
    const prefix = `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;
    for (let i = 0; i < 5; i++) {
      expect((await call(a1, "token", { username: victim.username, password: `v6 ${i}` }, { address: `${prefix}::${i + 1}` })).status).toBe(401);
    }
    expect((await call(a1, "token", { username: victim.username, password: victim.password }, { address: `${prefix}:1:2:3:4` })).status).toBe(429);
    expect((await call(a1, "token", { username: victim.username, password: victim.password }, { address: `2001:db8:ffff:${randomInt(65536).toString(16)}::1` })).status).toBe(200);
  });
});

describe("login codes", () => {
  async function mfaAccount() {
    const a = await p.newAccount();
    expect((await p.call("POST", "account-enable-mfa", { token: a.token, body: { type: "email" } })).status).toBe(200);
    return a;
  }

  it("one address may have 5 codes e-mailed to one user in 15 minutes; the user gets one from elsewhere", async () => {
    const a = await mfaAccount();
    const from = anAddress();
    for (let i = 0; i < 5; i++) expect((await call(a1, "token", { username: a.username, password: a.password }, { address: from })).status).toBe(200);
    expectLimited(await call(a1, "token", { username: a.username, password: a.password }, { address: from }), /^Too many login codes requested\. Try again in \d+ minutes?\.$/, defaultLimits["code.account"].seconds);
    const elsewhere = anAddress();
    expect((await call(a1, "token", { username: a.username, password: a.password }, { address: elsewhere })).status).toBe(200);
    const code = codeIn(p.latestMail(a.username));
    expect((await call(a1, "token", { username: a.username, password: a.password, otp: code }, { address: elsewhere })).status).toBe(200);
  });

  it("wrong codes count as failed sign-ins of that address", async () => {
    const a = await mfaAccount();
    const from = anAddress();
    expect((await call(a1, "token", { username: a.username, password: a.password }, { address: from })).status).toBe(200);
    const code = codeIn(p.latestMail(a.username))!;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await call(a1, "token", { username: a.username, password: a.password, otp: wrong }, { address: from })).status).toBe(401);
    expectLimited(await call(a1, "token", { username: a.username, password: a.password, otp: code }, { address: from }), /^Too many failed login attempts/, defaultLimits["login.account"].seconds);
  });
});

describe("password reset", () => {
  const window = defaultLimits["reset.account"].seconds;

  it("5 reset e-mails an hour per address and e-mail, known or not (a 429 tells nothing about the e-mail)", async () => {
    const known = await p.newAccount();
    const unknown = uniqueEmail("nobody");
    const from = anAddress();
    for (const username of [known.username, unknown]) {
      for (let i = 0; i < 5; i++) expect((await call(a1, "forgot-password", { username }, { address: from })).status).toBe(200);
      expectLimited(await call(a1, "forgot-password", { username }, { address: from }), /^Too many password reset requests\. Try again in \d+ minutes?\.$/, window);
    }
    expect((await call(a1, "forgot-password", { username: known.username }, { address: anAddress() })).status).toBe(200);
  });

  it("20 reset requests an hour per address, whatever the e-mails", async () => {
    const from = anAddress();
    for (let i = 0; i < defaultLimits["reset.address"].points; i++) {
      expect((await call(a1, "forgot-password", { username: uniqueEmail("spray") }, { address: from })).status).toBe(200);
    }
    expectLimited(await call(a1, "forgot-password", { username: uniqueEmail("spray") }, { address: from }), /^Too many password reset requests/, window);
  });
});

describe("registration", () => {
  it("20 registrations an hour per address; others register meanwhile", async () => {
    const from = anAddress();
    const register = (username: string, address: string) => call(a1, "register", { username, password: "a fine password", terms: true }, { address });
    for (let i = 0; i < defaultLimits["register.address"].points; i++) expect((await register(uniqueEmail("bulk"), from)).status).toBe(200);
    expectLimited(await register(uniqueEmail("bulk"), from), /^Too many registrations\. Try again in \d+ minutes?\.$/, defaultLimits["register.address"].seconds);
    expect((await register(uniqueEmail("someone"), anAddress())).status).toBe(200);
  });

  it("5 attempts an hour per address and e-mail, taken or not", async () => {
    const from = anAddress();
    const username = uniqueEmail("probe");
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await call(a1, "register", { username, password: "a fine password", terms: true }, { address: from })).status);
    expect(answers).toEqual([200, 409, 409, 409, 409, 429]);
  });
});

describe("IAM invitations", () => {
  it("are limited per address and account (here ABUSE_LIMITS=invite.account=3/1h); an invitation that is not sent does not count", async () => {
    const sizes = parseAbuseLimits("invite.account=3/1h");
    const app = instance(p.deps, { abuseLimits: sizes });
    const owner = await p.newAccount();
    const admin = await p.newIamUser(owner, "admin");
    const from = anAddress();
    const invite = (username: string, token = owner.token, address = from) =>
      call(app, "create-iam-user", { username, role: "readonly", entity_name: admin.entityName }, { token, address });
    // Refused (an entity that does not exist): no e-mail, no count.
    expect((await call(app, "create-iam-user", { username: uniqueEmail("iam"), role: "readonly", entity_name: "No such entity" }, { token: owner.token, address: from })).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await invite(uniqueEmail("iam"), i % 2 ? admin.token : owner.token)).status).toBe(200);
    expectLimited(await invite(uniqueEmail("iam")), /^Too many IAM user invitations\. Try again in \d+ minutes?\.$/, 3600);
    expect((await invite(uniqueEmail("iam"), admin.token, anAddress())).status).toBe(200);
  });
});

describe("the client's address", () => {
  const loopback = parseTrustProxy(undefined);

  it("is the peer's unless the peer is a trusted hop; X-Forwarded-For is read from the right", () => {
    expect(resolveClientAddress("203.0.113.5", "198.51.100.1", loopback)).toBe("203.0.113.5");
    expect(resolveClientAddress("::ffff:127.0.0.1", "198.51.100.1", loopback)).toBe("198.51.100.1");
    // A client behind a trusted hop cannot choose its address by sending its own header first.
    expect(resolveClientAddress("127.0.0.1", "1.2.3.4, 198.51.100.1", loopback)).toBe("198.51.100.1");
    const cluster = parseTrustProxy("10.0.0.0/8, 127.0.0.1");
    expect(resolveClientAddress("10.1.2.3", "1.2.3.4, 198.51.100.1, 10.9.9.9", cluster)).toBe("198.51.100.1");
    expect(resolveClientAddress("10.1.2.3", "junk, 10.9.9.9", cluster)).toBe("10.9.9.9");
    expect(resolveClientAddress("10.1.2.3", undefined, cluster)).toBe("10.1.2.3");
    expect(resolveClientAddress("10.1.2.3", "198.51.100.1", parseTrustProxy("none"))).toBe("10.1.2.3");
    // The embedded platform: the caller is this process's console.
    expect(resolveClientAddress(null, "[2001:db8::1]", loopback)).toBe("2001:db8::1");
    expect(resolveClientAddress(null, undefined, loopback)).toBeNull();
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("TRUST_PROXY and ABUSE_LIMITS stop the process on a malformed value, naming the variable", () => {
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(/^TRUST_PROXY must be .*"10\.0\.0\.0\/33" is not$/);
    expect(() => parseTrustProxy("my-balancer")).toThrow(/^TRUST_PROXY must be/);
    expect(parseTrustProxy("private")("192.168.1.1")).toBe(true);
    expect(parseTrustProxy("private")("8.8.8.8")).toBe(false);
    expect(() => parseAbuseLimits("login.account=5")).toThrow(/^ABUSE_LIMITS must be .*"login\.account=5" is not$/);
    expect(() => parseAbuseLimits("signin.address=5/1h")).toThrow(/^ABUSE_LIMITS must be/);
    expect(() => parseAbuseLimits("login.address=0/1h")).toThrow(/^ABUSE_LIMITS must be/);
    const sizes: Partial<Record<LimitName, LimitSize>> = { "login.address": { points: 100, seconds: 900 }, "register.address": { points: 200, seconds: 3600 } };
    expect(parseAbuseLimits(" login.address=100/15m , register.address=200/3600 ")).toEqual(sizes);
    expect(parseAbuseLimits(undefined)).toEqual({});
  });

  it("counts IPv6 by its /64 and IPv4 whole", () => {
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::ffff:1.2.3.4")).toBe("0:0:0:0::/64");
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey(null)).toBe("unknown");
  });

  describe("over HTTP (the standalone platform)", () => {
    let servers: ServerType[] = [];
    afterAll(() => {
      for (const s of servers) s.close();
    });
    async function listen(app: PlatformApp): Promise<string> {
      const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
      servers.push(server);
      await new Promise((resolve) => server.once("listening", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    }
    const post = async (base: string, body: unknown, forwardedFor: string) => {
      const res = await fetch(`${base}/token`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor }, body: JSON.stringify(body) });
      return res.status;
    };

    it("believes X-Forwarded-For from a trusted peer (the console) and ignores it from any other", async () => {
      servers = [];
      const trusting = await listen(instance(p.deps));
      const untrusting = await listen(instance(p.deps, { trustProxy: parseTrustProxy("none") }));
      const victim = await p.newAccount();
      // Trusted: each forwarded address counts alone.
      for (let i = 0; i < 5; i++) expect(await post(trusting, { username: victim.username, password: `x ${i}` }, anAddress())).toBe(401);
      expect(await post(trusting, { username: victim.username, password: victim.password }, anAddress())).toBe(200);
      // Untrusted: the header is the client's own invention; the peer (127.0.0.1) is who counts.
      const other = await p.newAccount();
      for (let i = 0; i < 5; i++) expect(await post(untrusting, { username: other.username, password: `y ${i}` }, anAddress())).toBe(401);
      expect(await post(untrusting, { username: other.username, password: other.password }, anAddress())).toBe(429);
    });
  });
});
