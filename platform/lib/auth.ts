import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { accessTokens, accountCacheEpochs, accounts, iamUsers } from "../db/schema.ts";
import type { Caller, Env } from "./context.ts";
import { sha256 } from "./crypto.ts";
import { ApiError } from "./errors.ts";
import { observe } from "../../server/observe.mjs";

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
  "/livez",
  "/readyz",
  // Stripe calls it; the signature (STRIPE_WEBHOOK_SECRET) is its authentication.
  "/stripe-webhook",
  // A node registering itself: its single-use registration token is its authentication (issue #28).
  "/register-node",
  // An Internet or Metro Ethernet NID registering itself with its registration token (issue #25).
  "/register_node",
  // A report recipient confirming its address: the e-mailed link's single-use token is its authentication (issue 58).
  "/confirm_report_recipient",
]);

type Deps = Env["Variables"]["deps"];

/** The read cache's lookups by kind (token, read) and result (hit, miss): its hit rate in the metrics. */
const cacheLookups = observe("platform").meter.createCounter("linkwise.read_cache.lookups", { description: "Read-cache lookups, by kind and result" });

export async function callerFromToken(deps: Deps, token: string): Promise<Caller | null> {
  return (await resolveToken(deps, sha256(token)))?.caller ?? null;
}

/**
 * The shared cache's epoch for the token's account, read in the token's statement (no extra round
 * trip): the global part (cache_epoch: writes that name no account, background jobs) and the
 * account's own (account_cache_epochs: its callers' writes, its devices' fleet changes). With
 * is_called: a new sequence's first nextval leaves last_value as it was (1).
 */
const epochColumn = sql<string>`(select last_value::text || is_called::text from cache_epoch) || ':' || coalesce((select ${accountCacheEpochs.epoch}::text from ${accountCacheEpochs} where ${accountCacheEpochs.accountId} = ${accounts.accountId}), '0')`;

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
 * - every call that can change anything (any method but GET/HEAD) empties both before it runs and
 *   when it ends, whatever it did (logout, password change, IAM role change or removal, any
 *   create, update, assign or remove): for its caller's account when it has one (every query is
 *   scoped to the caller's account, so nothing else can have changed), for every account when it
 *   is a public call (a sign-in, a password reset, a webhook, a node registering itself: the
 *   account it changes is not the caller's);
 * - an entry computed while such a call was running for its account, or for every account, is not
 *   kept (a generation moved on);
 * - a caller entry ends with its token's expiry; every entry after CACHE_MS at most in any case.
 * A change made outside an HTTP call (a background job) must call `forgetCachedReads(deps)`, with
 * the accounts it changed when it knows them (the fleet clock does).
 *
 * "shared" (PostgreSQL, several instances each writing): the reads are remembered per instance too,
 * but tokens are not, and every remembered answer is stamped with the database's cache epoch for
 * the caller's account (the sequence cache_epoch and the account's row of account_cache_epochs)
 * read in the same statement as the caller's token. Every write, on any instance, moves its
 * account's epoch on (or the global one, as above) after it has committed and before it answers;
 * a call reads the epoch with its token and takes only an answer stamped with it. So a change is seen by every
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
  /** Moves on when every account's entries are forgotten. */
  generation: number;
  /** Calls under way that may change any account (public calls, see whileWriting). */
  writing: number;
  /** Per account: moves on when the account's entries are forgotten, and its writes under way. */
  accounts: Map<string, { generation: number; writing: number }>;
  /** Moves on whenever anything is forgotten (a token's account is known only once it is read). */
  forgets: number;
  entries: Map<string, { caller: Caller; until: number }>;
  /** JSON answers by caller identity and call (see cachedJson); `epoch` in "shared" mode. */
  reads: Map<string, { text: string; until: number; epoch?: string }>;
  /** The characters held in `reads`. */
  readChars: number;
  /**
   * Each account's keys in `entries` (token hashes) and `reads`, so that forgetting one account
   * touches only its own entries, not every remembered one (up to CACHE_MAX of each) on each write.
   */
  byAccount: Map<string, { tokens: Set<string>; reads: Set<string> }>;
}
const caches = new WeakMap<Deps, CallerCache>();

function cacheOf(deps: Deps): CallerCache | null {
  if (deps.config.cacheCallers === "off") return null;
  let cache = caches.get(deps);
  if (!cache) {
    cache = { generation: 0, writing: 0, accounts: new Map(), forgets: 0, entries: new Map(), reads: new Map(), readChars: 0, byAccount: new Map() };
    caches.set(deps, cache);
  }
  return cache;
}

function forget(cache: CallerCache) {
  cache.generation++;
  cache.forgets++;
  cache.entries.clear();
  cache.reads.clear();
  cache.readChars = 0;
  cache.byAccount.clear();
  // Writes under way keep their count; the rest start again.
  for (const [id, state] of cache.accounts) if (state.writing === 0) cache.accounts.delete(id);
}

function accountState(cache: CallerCache, accountId: string) {
  let state = cache.accounts.get(accountId);
  if (!state) cache.accounts.set(accountId, (state = { generation: 0, writing: 0 }));
  return state;
}

function keysOf(cache: CallerCache, accountId: string) {
  let keys = cache.byAccount.get(accountId);
  if (!keys) cache.byAccount.set(accountId, (keys = { tokens: new Set(), reads: new Set() }));
  return keys;
}

/** Forgets one account's entries: its remembered answers and its tokens (through its index, not a walk of all). */
function forgetAccount(cache: CallerCache, accountId: string) {
  accountState(cache, accountId).generation++;
  cache.forgets++;
  const keys = cache.byAccount.get(accountId);
  if (!keys) return;
  cache.byAccount.delete(accountId);
  for (const hash of keys.tokens) cache.entries.delete(hash);
  for (const key of keys.reads) {
    const hit = cache.reads.get(key);
    if (!hit) continue;
    cache.reads.delete(key);
    cache.readChars -= hit.text.length;
  }
}

/** Every remembered token forgotten (the map is full); the answers stay. */
function clearTokens(cache: CallerCache) {
  cache.entries.clear();
  for (const [id, keys] of cache.byAccount) {
    keys.tokens.clear();
    if (keys.reads.size === 0) cache.byAccount.delete(id);
  }
}

/** Every remembered answer forgotten (the map is full); the tokens stay. */
function clearReads(cache: CallerCache) {
  cache.reads.clear();
  cache.readChars = 0;
  for (const [id, keys] of cache.byAccount) {
    keys.reads.clear();
    if (keys.tokens.size === 0) cache.byAccount.delete(id);
  }
}

/** Whether nothing that could change `accountId`'s answers is under way. */
function quiet(cache: CallerCache, accountId: string) {
  return cache.writing === 0 && (cache.accounts.get(accountId)?.writing ?? 0) === 0;
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
      observe("platform").logger.error({ err }, "could not move the cache epoch after a write");
    }
  }
}

/** "shared" mode: every instance's remembered reads of these accounts end (after a write has committed). */
async function moveAccountEpochs(deps: Deps, accountIds: string[]): Promise<void> {
  const move = () =>
    deps.db.execute(sql`insert into account_cache_epochs (account_id, epoch)
      select id, 1 from unnest(array[${sql.join(
        accountIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]) as id
      on conflict (account_id) do update set epoch = account_cache_epochs.epoch + 1`);
  try {
    await move();
  } catch (err) {
    // As moveEpoch: once more, then say so; failing that, the whole epoch moves on instead.
    try {
      await move();
    } catch {
      observe("platform").logger.error({ err }, "could not move the accounts' cache epochs after a write");
      await moveEpoch(deps);
    }
  }
}

/**
 * For changes made outside an HTTP call (seed, background jobs): no cached read may outlive them.
 * `accountIds`: the accounts the change touched, when it knows them (the fleet clock); without
 * them every account's reads are forgotten. In "shared" mode the epoch moves on too (await it
 * where the change must be seen at once).
 */
export function forgetCachedReads(deps: Deps, accountIds?: Iterable<string>): Promise<void> {
  const ids = accountIds === undefined ? undefined : [...new Set(accountIds)];
  if (ids?.length === 0) return Promise.resolve();
  const cache = caches.get(deps);
  if (cache) {
    if (ids) for (const id of ids) forgetAccount(cache, id);
    else forget(cache);
  }
  if (deps.config.cacheCallers !== "shared") return Promise.resolve();
  return ids ? moveAccountEpochs(deps, ids) : moveEpoch(deps);
}

async function cachedCaller(deps: Deps, token: string): Promise<{ caller: Caller; epoch?: string } | null> {
  const tokenHash = sha256(token);
  const cache = cacheOf(deps);
  if (!cache) return resolveToken(deps, tokenHash);
  if (deps.config.cacheCallers === "shared") return resolveToken(deps, tokenHash, true);
  const now = Date.now();
  const hit = cache.entries.get(tokenHash);
  if (hit && hit.until > now) {
    cacheLookups.add(1, { kind: "token", result: "hit" });
    return hit;
  }
  cacheLookups.add(1, { kind: "token", result: "miss" });
  if (hit) {
    cache.entries.delete(tokenHash);
    cache.byAccount.get(hit.caller.accountId)?.tokens.delete(tokenHash);
  }
  // The token's account is known only once it is read: any forgetting meanwhile, of any account,
  // and the entry is not kept.
  const forgets = cache.forgets;
  const resolved = await resolveToken(deps, tokenHash);
  if (resolved && quiet(cache, resolved.caller.accountId) && cache.forgets === forgets) {
    if (cache.entries.size >= CACHE_MAX) clearTokens(cache);
    cache.entries.set(tokenHash, { caller: resolved.caller, until: Math.min(now + CACHE_MS, resolved.expiresAt.getTime()) });
    keysOf(cache, resolved.caller.accountId).tokens.add(tokenHash);
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
  if (hit && hit.until > now && hit.epoch === epoch) {
    cacheLookups.add(1, { kind: "read", result: "hit" });
    return hit.text;
  }
  cacheLookups.add(1, { kind: "read", result: "miss" });
  const generation = cache.generation;
  // Read without creating the account's state: it exists only for accounts written since the last
  // global forget (which also moves `generation`, so a state dropped meanwhile cannot look unchanged).
  const accountGeneration = cache.accounts.get(who.accountId)?.generation ?? 0;
  const value = await compute();
  const text = JSON.stringify(value);
  const until = Math.min(now + CACHE_MS, freshUntil ? freshUntil(value, now) : Infinity);
  // A huge answer (a whole list of 100,000 rows is ~32 MB) is not kept: one copy per URL and caller
  // would grow without bound. Pages of a paged list call (?page=&size=) are small and kept like
  // any other read: the view a user reloads or comes back to costs no SQL until the next write.
  if (
    until > now &&
    text.length <= CACHE_TEXT_MAX &&
    quiet(cache, who.accountId) &&
    cache.generation === generation &&
    (cache.accounts.get(who.accountId)?.generation ?? 0) === accountGeneration
  ) {
    if (cache.reads.size >= CACHE_MAX || cache.readChars + text.length > CACHE_TEXT_TOTAL) clearReads(cache);
    const old = cache.reads.get(key);
    if (old) cache.readChars -= old.text.length;
    cache.reads.set(key, { text, until, epoch });
    cache.readChars += text.length;
    keysOf(cache, who.accountId).reads.add(key);
  }
  return text;
}

/**
 * Marks a call that may change anything: this instance's caches are emptied before and after it,
 * and in "shared" mode the epoch moves on after it (its transactions have committed by then) and
 * before it answers, so whoever made the change sees it on any instance afterwards. `accountId`:
 * the one account it can change (its caller's), else every account.
 */
async function whileWriting<T>(deps: Deps, accountId: string | null, run: () => Promise<T>): Promise<T> {
  const cache = cacheOf(deps);
  if (!cache) return run();
  const state = accountId === null ? cache : accountState(cache, accountId);
  const forgetIt = () => (accountId === null ? forget(cache) : forgetAccount(cache, accountId));
  state.writing++;
  forgetIt();
  try {
    return await run();
  } finally {
    if (deps.config.cacheCallers === "shared") await (accountId === null ? moveEpoch(deps) : moveAccountEpochs(deps, [accountId]));
    state.writing--;
    forgetIt();
  }
}

/** Resolves the bearer token into `c.var.caller`; 401 for anything but a public call. */
export const authMiddleware = (basePath: string): MiddlewareHandler<Env> => async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD") return authenticate(c, next, basePath);
  const deps = c.get("deps");
  // A call that needs no token may change an account that is not its caller's (a sign-in, a
  // password reset, a webhook, a node registering itself, an upload to a signed URL): it counts
  // for every account, and so does a call whose caller is not known.
  if (needsNoToken(subPath(c, basePath))) return whileWriting(deps, null, () => authenticate(c, next, basePath));
  return authenticate(c, () => {
    const who = c.get("caller");
    return whileWriting(deps, who ? who.accountId : null, next);
  }, basePath);
};

/** Calls answered without a bearer token: the public ones, and those a signature in the URL authorizes. */
function needsNoToken(sub: string) {
  return publicCalls.has(sub) || sub.startsWith("/download-") || sub.startsWith("/upload-pcap/");
}

function subPath(c: Parameters<MiddlewareHandler<Env>>[0], basePath: string) {
  return c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
}

async function authenticate(c: Parameters<MiddlewareHandler<Env>>[0], next: () => Promise<void>, basePath: string) {
  const sub = subPath(c, basePath);
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match) {
    const who = await cachedCaller(c.get("deps"), match[1]!);
    if (who) {
      c.set("caller", who.caller);
      if (who.epoch !== undefined) c.set("cacheEpoch", who.epoch);
    }
    else if (!publicCalls.has(sub)) throw new ApiError(401, "Could not validate credentials");
  } else if (!needsNoToken(sub)) {
    throw new ApiError(401, "Not authenticated");
  }
  await next();
}
