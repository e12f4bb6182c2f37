// The abuse limits' names and sizes, and ABUSE_LIMITS read (domain/abuse-limits.ts counts them;
// docs/decisions/2026-12-03-abuse-limits.md). No imports: the configuration reads this at start.

export const limitKinds = ["login", "code", "reset", "register", "invite"] as const;
export type LimitKind = (typeof limitKinds)[number];
export type LimitName = `${LimitKind}.${"account" | "address"}`;

export interface LimitSize {
  points: number;
  seconds: number;
}

/** The sizes (ABUSE_LIMITS overrides any of them). */
export const defaultLimits: Record<LimitName, LimitSize> = {
  /** Wrong passwords or login codes from one address for one username. */
  "login.account": { points: 5, seconds: 15 * 60 },
  /** Wrong passwords or login codes from one address, for any usernames. */
  "login.address": { points: 50, seconds: 15 * 60 },
  /** Login codes e-mailed to one user at the request of one address. */
  "code.account": { points: 5, seconds: 15 * 60 },
  "code.address": { points: 20, seconds: 60 * 60 },
  /** Password-reset e-mails asked for one e-mail address from one address (known or not). */
  "reset.account": { points: 5, seconds: 60 * 60 },
  "reset.address": { points: 20, seconds: 60 * 60 },
  /** Registrations of one e-mail address from one address (taken or not). */
  "register.account": { points: 5, seconds: 60 * 60 },
  "register.address": { points: 20, seconds: 60 * 60 },
  /** IAM users invited (set-up e-mails sent) into one account from one address. */
  "invite.account": { points: 50, seconds: 60 * 60 },
  "invite.address": { points: 100, seconds: 60 * 60 },
};

/**
 * ABUSE_LIMITS: `name=points/duration` pairs, comma-separated (`register.address=200/1h,
 * login.address=100/15m`); a duration is seconds, or a number with s, m or h. Throws, naming the
 * variable, on anything else.
 */
export function parseAbuseLimits(value: string | undefined, name = "ABUSE_LIMITS"): Partial<Record<LimitName, LimitSize>> {
  const sizes: Partial<Record<LimitName, LimitSize>> = {};
  const units = { s: 1, m: 60, h: 3600 } as const;
  for (const part of (value ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z]+\.(?:account|address))=(\d+)\/(\d+)([smh]?)$/.exec(part);
    const limit = m?.[1] as LimitName | undefined;
    const points = Number(m?.[2]);
    const seconds = Number(m?.[3]) * units[(m?.[4] || "s") as keyof typeof units];
    if (!m || !limit || !(limit in defaultLimits) || points < 1 || seconds < 1) {
      throw new Error(
        `${name} must be comma-separated name=points/duration pairs (e.g. register.address=200/1h) with a name of ${Object.keys(defaultLimits).join(", ")}: "${part}" is not`,
      );
    }
    sizes[limit] = { points, seconds };
  }
  return sizes;
}
