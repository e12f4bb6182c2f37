import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { accessTokens, accounts, iamUsers } from "../db/schema.ts";
import type { Caller, Env } from "./context.ts";
import { sha256 } from "./crypto.ts";
import { ApiError } from "./errors.ts";

/** Calls that need no bearer token (paths below /api/v1). */
export const publicCalls = new Set([
  "/token",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/iam-user-set-password",
  "/openapi.json",
  "/docs",
  "/health",
  // Stripe calls it; the signature (STRIPE_WEBHOOK_SECRET) is its authentication.
  "/stripe-webhook",
  // A node registering itself: its single-use registration token is its authentication (issue #28).
  "/register-node",
  // An Internet or Metro Ethernet NID registering itself with its registration token (issue #25).
  "/register_node",
]);

type Deps = Env["Variables"]["deps"];

export async function callerFromToken(deps: Deps, token: string): Promise<Caller | null> {
  return (await resolveToken(deps, sha256(token)))?.caller ?? null;
}

/**
 * The shared cache's epoch, read in the token's statement (no extra round trip). With is_called:
 * a new sequence's first nextval leaves last_value as it was (1).
 */
const epochColumn = sql<string>`(select last_value::text || is_called::text from cache_epoch)`;

async function resolveToken(deps: Deps, tokenHash: string, withEpoch = false): Promise<{ caller: Caller; expiresAt: Date; epoch?: string } | null> {
  const rows = await deps.db
    .select({
      accountId: accounts.accountId,
      accountUsername: accounts.username,
      iamUserId: iamUsers.iamUserId,
      iamUsername: iamUsers.username,
      role: iamUsers.role,
      expiresAt: accessTokens.expiresAt,
      ...(withEpoch ? { epoch: epochColumn } : {}),
    })
    .from(accessTokens)
    .innerJoin(accounts, eq(accounts.accountId, accessTokens.accountId))
    .leftJoin(iamUsers, eq(iamUsers.iamUserId, accessTokens.iamUserId))
    .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const isIam = row.iamUserId != null;
  const caller: Caller = {
    accountId: row.accountId,
    accountUsername: row.accountUsername,
    iamUserId: row.iamUserId ?? null,
    iamUsername: row.iamUsername ?? null,
    role: isIam ? (row.role === "admin" ? "admin" : "readonly") : "owner",
    sessionType: isIam ? "iam_user" : "account",
    tokenHash,
  };
  return { caller, expiresAt: row.expiresAt, epoch: "epoch" in row ? String(row.epoch) : undefined };
}

/*
 * Resolved tokens, and the answers of a few account-scoped reads, remembered between calls
 * (config.cacheCallers "local": PGlite, where this process is the database's only writer). Every page view
 * makes two or three calls with the same token, and the lookup was a third of a simple call's
 * cost; the shell's list-account and a screen's list (get-contact, get_entity) are read on every
 * view and change only through this platform's own calls. Correctness does not rest on a timeout:
 * - every call that can change anything (any method but GET/HEAD) empties both when it ends,
 *   whatever it did (logout, password change, IAM role change or removal, any create, update,
 *   assign or remove), for every account;
 * - an entry computed while such a call was running is not kept (the generation moved on);
 * - a caller entry ends with its token's expiry; every entry after CACHE_MS at most in any case.
 * A change made outside an HTTP call (a background job) must call `forgetCachedReads(deps)`.
 *
 * "shared" (PostgreSQL, several instances each writing): the reads are remembered per instance too,
 * but tokens are not, and every remembered answer is stamped with the database's cache epoch (the
 * sequence cache_epoch) read in the same statement as the caller's token. Every write, on any
 * instance, moves the epoch on after it has committed and before it answers; a call reads the
 * epoch with its token and takes only an answer stamped with it. So a change is seen by every
 * instance's next call (a revoked session, a demoted user, a new row) as strictly as a change is
 * in "local" mode, at the cost of one statement per call instead of five or six.
 * Docs: docs/decisions/2026-11-23-read-cache.md.
 */
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;
/** The longest answer text cachedJson keeps (characters). */
const CACHE_TEXT_MAX = 256 * 1024;
/** All kept answers together (characters): past it the reads are dropped and start again. */
const CACHE_TEXT_TOTAL = 64 * 1024 * 1024;

interface CallerCache {
  generation: number;
  writing: number;
  entries: Map<string, { caller: Caller; until: number }>;
  /** JSON answers by caller identity and call (see cachedJson); `epoch` in "shared" mode. */
  reads: Map<string, { text: string; until: number; epoch?: string }>;
  /** The characters held in `reads`. */
  readChars: number;
}
const caches = new WeakMap<Deps, CallerCache>();

function cacheOf(deps: Deps): CallerCache | null {
  if (deps.config.cacheCallers === "off") return null;
  let cache = caches.get(deps);
  if (!cache) {
    cache = { generation: 0, writing: 0, entries: new Map(), reads: new Map(), readChars: 0 };
    caches.set(deps, cache);
  }
  return cache;
}

function forget(cache: CallerCache) {
  cache.generation++;
  cache.entries.clear();
  cache.reads.clear();
  cache.readChars = 0;
}

/** "shared" mode: every instance's remembered reads end (after a write has committed). */
async function moveEpoch(deps: Deps): Promise<void> {
  try {
    await deps.db.execute(sql`select nextval('cache_epoch')`);
  } catch (err) {
    // Once more: the write has committed, and other instances would answer from before it until
    // their entries expire (CACHE_MS). Failing twice, the database is most likely unreachable for
    // them too (and a call that cannot read the epoch is refused, not answered from memory).
    try {
      await deps.db.execute(sql`select nextval('cache_epoch')`);
    } catch {
      console.error("[platform] could not move the cache epoch after a write:", (err as Error).message);
    }
  }
}

/**
 * For changes made outside an HTTP call (seed, background jobs): no cached read may outlive them.
 * In "shared" mode the epoch moves on too (await it where the change must be seen at once).
 */
export function forgetCachedReads(deps: Deps): Promise<void> {
  const cache = caches.get(deps);
  if (cache) forget(cache);
  return deps.config.cacheCallers === "shared" ? moveEpoch(deps) : Promise.resolve();
}

async function cachedCaller(deps: Deps, token: string): Promise<{ caller: Caller; epoch?: string } | null> {
  const tokenHash = sha256(token);
  const cache = cacheOf(deps);
  if (!cache) return resolveToken(deps, tokenHash);
  if (deps.config.cacheCallers === "shared") return resolveToken(deps, tokenHash, true);
  const now = Date.now();
  const hit = cache.entries.get(tokenHash);
  if (hit && hit.until > now) return hit;
  if (hit) cache.entries.delete(tokenHash);
  const generation = cache.generation;
  const resolved = await resolveToken(deps, tokenHash);
  if (resolved && cache.writing === 0 && cache.generation === generation) {
    if (cache.entries.size >= CACHE_MAX) cache.entries.clear();
    cache.entries.set(tokenHash, { caller: resolved.caller, until: Math.min(now + CACHE_MS, resolved.expiresAt.getTime()) });
  }
  return resolved;
}

/**
 * A GET call's 200 answer as JSON, remembered per caller identity (account, IAM user) and URL
 * until the next write (rules above). Only for answers that depend on nothing but the database
 * rows this platform writes and the caller: never for live device data; a figure computed from the
 * time only with `freshUntil`, the time it changes. A thrown error (404, 422) is not remembered.
 */
export async function cachedJson<T>(c: Context<Env>, compute: () => Promise<T>, freshUntil?: FreshUntil<T>): Promise<TypedResponse<JSONParsed<T>, 200, "json">> {
  // The answer is the JSON of T, whether computed now or remembered: typed as c.json's would be.
  const typed = (r: Response) => r as unknown as TypedResponse<JSONParsed<T>, 200, "json">;
  return typed(c.body(await rememberedText(c, compute, freshUntil), 200, { "content-type": "application/json" }));
}

/**
 * The stored half of a GET call's answer, remembered as cachedJson's answers are (same key, rules
 * and limits), for a call that adds live figures to stored rows after it (user agents: the fleet's
 * state at the time of the read), so the SQL is saved and the live part is still computed each time.
 */
export async function cachedValue<T>(c: Context<Env>, compute: () => Promise<T>): Promise<T> {
  return JSON.parse(await rememberedText(c, compute)) as T;
}

/**
 * How a read hands the stored half of its answer to the read cache: `remember(() => read rows)`.
 * At most one per call (the key is the call's URL and caller). A domain function takes one where
 * its answer adds live figures (the fleet's, at the time of the call) to stored rows, and reads
 * the rows through it; outside a GET call (a test, a POST, another domain function) it is
 * `computeNow`. What it returns must be plain JSON data (no Date, no undefined fields): a
 * remembered value comes back through JSON.parse.
 */
export type Remember = <T>(compute: () => Promise<T>) => Promise<T>;
export const computeNow: Remember = (compute) => compute();
export const rememberIn =
  (c: Context<Env>): Remember =>
  (compute) =>
    cachedValue(c, compute);

/**
 * For an answer that holds a figure computed from the time (a certificate's "expires within 30
 * days"): the time (ms) at which that figure changes; the answer is remembered until then at most.
 */
export type FreshUntil<T> = (value: T, now: number) => number;

async function rememberedText<T>(c: Context<Env>, compute: () => Promise<T>, freshUntil?: FreshUntil<T>): Promise<string> {
  const deps = c.get("deps");
  const who = c.get("caller");
  const cache = cacheOf(deps);
  const epoch = c.get("cacheEpoch");
  if (!cache || !who || (c.req.method !== "GET" && c.req.method !== "HEAD")) return JSON.stringify(await compute());
  // Shared mode without the epoch read with this call's token: nothing to check an answer against.
  if (deps.config.cacheCallers === "shared" && epoch === undefined) return JSON.stringify(await compute());
  const url = c.req.url;
  const key = `${who.accountId}\n${who.iamUserId ?? ""}\n${url.slice(url.indexOf("/", url.indexOf("//") + 2))}`;
  const now = Date.now();
  const hit = cache.reads.get(key);
  if (hit && hit.until > now && hit.epoch === epoch) return hit.text;
  const generation = cache.generation;
  const value = await compute();
  const text = JSON.stringify(value);
  const until = Math.min(now + CACHE_MS, freshUntil ? freshUntil(value, now) : Infinity);
  // A huge answer (a whole list of 100,000 rows is ~32 MB) is not kept: one copy per URL and caller
  // would grow without bound. Pages of a paged list call (?page=&size=) are small and kept like
  // any other read: the view a user reloads or comes back to costs no SQL until the next write.
  if (until > now && text.length <= CACHE_TEXT_MAX && cache.writing === 0 && cache.generation === generation) {
    if (cache.reads.size >= CACHE_MAX || cache.readChars + text.length > CACHE_TEXT_TOTAL) {
      cache.reads.clear();
      cache.readChars = 0;
    }
    const old = cache.reads.get(key);
    if (old) cache.readChars -= old.text.length;
    cache.reads.set(key, { text, until, epoch });
    cache.readChars += text.length;
  }
  return text;
}

/**
 * Marks a call that may change anything: this instance's caches are emptied before and after it,
 * and in "shared" mode the epoch moves on after it (its transactions have committed by then) and
 * before it answers, so whoever made the change sees it on any instance afterwards.
 */
async function whileWriting<T>(deps: Deps, run: () => Promise<T>): Promise<T> {
  const cache = cacheOf(deps);
  if (!cache) return run();
  cache.writing++;
  forget(cache);
  try {
    return await run();
  } finally {
    if (deps.config.cacheCallers === "shared") await moveEpoch(deps);
    cache.writing--;
    forget(cache);
  }
}

/** Resolves the bearer token into `c.var.caller`; 401 for anything but a public call. */
export const authMiddleware = (basePath: string): MiddlewareHandler<Env> => async (c, next) => {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") return whileWriting(c.get("deps"), () => authenticate(c, next, basePath));
  return authenticate(c, next, basePath);
};

async function authenticate(c: Parameters<MiddlewareHandler<Env>>[0], next: () => Promise<void>, basePath: string) {
  const sub = c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match) {
    const who = await cachedCaller(c.get("deps"), match[1]!);
    if (who) {
      c.set("caller", who.caller);
      if (who.epoch !== undefined) c.set("cacheEpoch", who.epoch);
    }
    else if (!publicCalls.has(sub)) throw new ApiError(401, "Could not validate credentials");
  } else if (!publicCalls.has(sub) && !sub.startsWith("/download-") && !sub.startsWith("/upload-pcap/")) {
    throw new ApiError(401, "Not authenticated");
  }
  await next();
}
