import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { PlatformConfig } from "./config.ts";
import type { FleetRuntime } from "../fleet/runtime.ts";
import { ApiError } from "./errors.ts";

export interface PlatformDeps {
  db: Db;
  dbKind: "pglite" | "postgres";
  mailer: Mailer;
  config: PlatformConfig;
  /** The simulated provider network with its clock and event bus (absent in unit tests: use fleetOf(deps)). */
  fleet?: FleetRuntime;
}

/** Who is calling: resolved from the bearer token by the auth middleware. */
export interface Caller {
  accountId: string;
  accountUsername: string;
  iamUserId: string | null;
  iamUsername: string | null;
  /** "owner" for the account itself; the IAM role otherwise. */
  role: "owner" | "admin" | "readonly";
  sessionType: "account" | "iam_user";
  tokenHash: string;
}

/** `cacheEpoch`: the database's cache epoch read with the caller's token (shared read cache, lib/auth.ts). */
export type Env = { Variables: { deps: PlatformDeps; caller: Caller; cacheEpoch?: string } };
export type Ctx = Context<Env>;

export function caller(c: Ctx): Caller {
  const who = c.get("caller");
  if (!who) throw new ApiError(401, "Not authenticated");
  return who;
}

/** Readonly IAM users may read everything and change nothing. */
export function requireWriter(c: Ctx): Caller {
  const who = caller(c);
  if (who.role === "readonly") throw new ApiError(403, "Your IAM role is readonly: you cannot make changes.");
  return who;
}

/** Billing and account deletion belong to the account owner. */
export function requireOwner(c: Ctx): Caller {
  const who = caller(c);
  if (who.sessionType !== "account") throw new ApiError(403, "Only the account owner can do this.");
  return who;
}

/** Readonly IAM users get 403 on mutating calls, before their body is even validated. */
export const writerOnly: import("hono").MiddlewareHandler<Env> = async (c, next) => {
  requireWriter(c);
  await next();
};

/** Calls of the account owner's own session (billing, account deletion, the owner's profile): 403 for IAM users, before validation. */
export const ownerOnly: import("hono").MiddlewareHandler<Env> = async (c, next) => {
  requireOwner(c);
  await next();
};
