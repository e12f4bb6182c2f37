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

export async function callerFromToken(deps: Env["Variables"]["deps"], token: string): Promise<Caller | null> {
  const tokenHash = sha256(token);
  const rows = await deps.db
    .select({
      accountId: accounts.accountId,
      accountUsername: accounts.username,
      iamUserId: iamUsers.iamUserId,
      iamUsername: iamUsers.username,
      role: iamUsers.role,
    })
    .from(accessTokens)
    .innerJoin(accounts, eq(accounts.accountId, accessTokens.accountId))
    .leftJoin(iamUsers, eq(iamUsers.iamUserId, accessTokens.iamUserId))
    .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const isIam = row.iamUserId != null;
  return {
    accountId: row.accountId,
    accountUsername: row.accountUsername,
    iamUserId: row.iamUserId ?? null,
    iamUsername: row.iamUsername ?? null,
    role: isIam ? (row.role === "admin" ? "admin" : "readonly") : "owner",
    sessionType: isIam ? "iam_user" : "account",
    tokenHash,
  };
}

/** Resolves the bearer token into `c.var.caller`; 401 for anything but a public call. */
export const authMiddleware = (basePath: string): MiddlewareHandler<Env> => async (c, next) => {
  const sub = c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match) {
    const who = await callerFromToken(c.get("deps"), match[1]!);
    if (who) c.set("caller", who);
    else if (!publicCalls.has(sub)) throw new ApiError(401, "Could not validate credentials");
  } else if (!publicCalls.has(sub) && !sub.startsWith("/download-") && !sub.startsWith("/upload-pcap/")) {
    throw new ApiError(401, "Not authenticated");
  }
  await next();
};
