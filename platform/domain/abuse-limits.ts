import net from "node:net";
import { sql } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { DbOrTx } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { defaultLimits, type LimitKind, type LimitName } from "../lib/abuse-limit-sizes.ts";
import { ApiError } from "../lib/errors.ts";

export { defaultLimits, limitKinds, parseAbuseLimits, type LimitKind, type LimitName, type LimitSize } from "../lib/abuse-limit-sizes.ts";

/*
 * Abuse limits (docs/decisions/2026-12-03-abuse-limits.md): per client address, and per address
 * and account, on sign-in failures (wrong passwords and wrong login codes), login codes e-mailed,
 * password-reset e-mails asked for, registrations and IAM invitations. The counters are
 * rate-limiter-flexible's RateLimiterDrizzle in the table rate_limits, so every platform instance
 * on the database counts together, and one atomic upsert per count keeps concurrent requests
 * within the limit. Keyed by address, one address cannot lock anybody out from another.
 */

const minutes = (seconds: number) => {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return m === 1 ? "1 minute" : `${m} minutes`;
};

/** The 429 answers (the specs have none of their own; the login's keeps the wording it had). */
export const limitMessages: Record<LimitKind, (seconds: number) => string> = {
  login: (s) => `Too many failed login attempts. Try again in ${minutes(s)}.`,
  code: (s) => `Too many login codes requested. Try again in ${minutes(s)}.`,
  reset: (s) => `Too many password reset requests. Try again in ${minutes(s)}.`,
  register: (s) => `Too many registrations. Try again in ${minutes(s)}.`,
  invite: (s) => `Too many IAM user invitations. Try again in ${minutes(s)}.`,
};

/** 429 with Retry-After (whole seconds, at least 1). */
export class LimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(kind: LimitKind, ms: number) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    super(429, limitMessages[kind](seconds));
    this.retryAfterSeconds = seconds;
    this.headers = { "Retry-After": String(seconds) };
  }
}

/**
 * The part of an address that counts: IPv4 whole, IPv6 by its /64 (one subscriber's network: a
 * client has the whole /64 to choose from). No address (a call inside the platform's own process
 * without one) counts as "unknown".
 */
export function addressKey(address: string | null): string {
  if (!address || !net.isIP(address)) return "unknown";
  if (net.isIPv4(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  let a = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) as two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number) as [number, number, number, number];
    a = a.slice(0, v4.index) + `${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const [head = "", tail] = a.split("::");
  const h = head ? head.split(":") : [];
  const t = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}

type Limiters = Record<LimitName, RateLimiterDrizzle>;
const byDeps = new WeakMap<PlatformDeps, Limiters>();

function limiters(deps: PlatformDeps): Limiters {
  let found = byDeps.get(deps);
  if (!found) {
    const sizes = { ...defaultLimits, ...deps.config.abuseLimits };
    const entries = (Object.keys(defaultLimits) as LimitName[]).map((name, i) => {
      const limiter = new RateLimiterDrizzle({
        storeClient: deps.db,
        schema: rateLimits,
        keyPrefix: name,
        points: sizes[name].points,
        duration: sizes[name].seconds,
        // One sweep of expired rows per instance is enough: they share the table.
        clearExpiredByTimeout: i === 0,
      });
      return [name, limiter] as const;
    });
    found = Object.fromEntries(entries) as Limiters;
    byDeps.set(deps, found);
  }
  return found;
}

/** What a taken count allows afterwards. */
export interface Taken {
  /** It did not count after all (nothing was sent, the attempt did not fail): both counts given back. */
  giveBack(): Promise<void>;
  /** Signed in: this address's failures for this account are forgotten; the attempt does not count. */
  succeeded(): Promise<void>;
}

async function consume(limiter: RateLimiterDrizzle, key: string, kind: LimitKind): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new LimitedError(kind, error.msBeforeNext);
    throw error;
  }
}

/**
 * Counts one action of `kind` from `client` for `account` against both of its limits, before the
 * action is done (so concurrent requests cannot all pass a check that none has counted yet).
 * Throws LimitedError (429, Retry-After) when either is used up.
 */
export async function takeLimit(deps: PlatformDeps, kind: LimitKind, client: string | null, account: string): Promise<Taken> {
  const all = limiters(deps);
  const perAccount = all[`${kind}.account`];
  const perAddress = all[`${kind}.address`];
  const address = addressKey(client);
  const accountKey = `${address} ${account}`;
  await consume(perAccount, accountKey, kind);
  try {
    await consume(perAddress, address, kind);
  } catch (error) {
    await perAccount.reward(accountKey);
    throw error;
  }
  return {
    giveBack: async () => {
      await Promise.all([perAccount.reward(accountKey), perAddress.reward(address)]);
    },
    succeeded: async () => {
      await Promise.all([perAccount.delete(accountKey), perAddress.reward(address)]);
    },
  };
}

/**
 * A new password (reset link, IAM set-up): every address's failed sign-ins for this username are
 * forgotten, so its owner is not kept out by the failures that made them reset it.
 */
export async function forgetLoginFailures(db: DbOrTx, username: string): Promise<void> {
  // Keys are `login.account:<address> <username>`; an address has no space.
  await db
    .delete(rateLimits)
    .where(sql`starts_with(${rateLimits.key}, 'login.account:') and substr(${rateLimits.key}, position(' ' in ${rateLimits.key}) + 1) = ${username}`);
}
