import { and, eq, gt, isNull } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
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
]);

type Deps = Env["Variables"]["deps"];

export async function callerFromToken(deps: Deps, token: string): Promise<Caller | null> {
  return (await resolveToken(deps, sha256(token)))?.caller ?? null;
}

async function resolveToken(deps: Deps, tokenHash: string): Promise<{ caller: Caller; expiresAt: Date } | null> {
  const rows = await deps.db
    .select({
      accountId: accounts.accountId,
      accountUsername: accounts.username,
      iamUserId: iamUsers.iamUserId,
      iamUsername: iamUsers.username,
      role: iamUsers.role,
      expiresAt: accessTokens.expiresAt,
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
  return { caller, expiresAt: row.expiresAt };
}

/*
 * Resolved tokens, remembered between calls (config.cacheCallers: PGlite, where this process is
 * the database's only writer). Every page view makes two or three calls with the same token, and
 * the lookup was a third of a simple call's cost. Correctness does not rest on a timeout:
 * - every call that can change anything (any method but GET/HEAD) empties the cache when it
 *   ends, whatever it did (logout, password change, IAM role change or removal, account removal);
 * - an entry resolved while such a call was running is not kept (the generation moved on);
 * - an entry ends with its token's expiry, and after CALLER_CACHE_MS at most in any case.
 */
const CALLER_CACHE_MS = 30_000;
const CALLER_CACHE_MAX = 10_000;

interface CallerCache {
  generation: number;
  writing: number;
  entries: Map<string, { caller: Caller; until: number }>;
}
const caches = new WeakMap<Deps, CallerCache>();

function cacheOf(deps: Deps): CallerCache | null {
  if (!deps.config.cacheCallers) return null;
  let cache = caches.get(deps);
  if (!cache) {
    cache = { generation: 0, writing: 0, entries: new Map() };
    caches.set(deps, cache);
  }
  return cache;
}

async function cachedCaller(deps: Deps, token: string): Promise<Caller | null> {
  const tokenHash = sha256(token);
  const cache = cacheOf(deps);
  if (!cache) return (await resolveToken(deps, tokenHash))?.caller ?? null;
  const now = Date.now();
  const hit = cache.entries.get(tokenHash);
  if (hit && hit.until > now) return hit.caller;
  if (hit) cache.entries.delete(tokenHash);
  const generation = cache.generation;
  const resolved = await resolveToken(deps, tokenHash);
  if (resolved && cache.writing === 0 && cache.generation === generation) {
    if (cache.entries.size >= CALLER_CACHE_MAX) cache.entries.clear();
    cache.entries.set(tokenHash, { caller: resolved.caller, until: Math.min(now + CALLER_CACHE_MS, resolved.expiresAt.getTime()) });
  }
  return resolved?.caller ?? null;
}

/** Marks a call that may change tokens, accounts or IAM users: the cache is emptied before and after it. */
async function whileWriting<T>(deps: Deps, run: () => Promise<T>): Promise<T> {
  const cache = cacheOf(deps);
  if (!cache) return run();
  cache.writing++;
  cache.generation++;
  cache.entries.clear();
  try {
    return await run();
  } finally {
    cache.writing--;
    cache.generation++;
    cache.entries.clear();
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
    if (who) c.set("caller", who);
    else if (!publicCalls.has(sub)) throw new ApiError(401, "Could not validate credentials");
  } else if (!publicCalls.has(sub) && !sub.startsWith("/download-") && !sub.startsWith("/upload-pcap/")) {
    throw new ApiError(401, "Not authenticated");
  }
  await next();
}
