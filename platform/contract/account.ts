/*
 * The account and profile (spec 1 §3 Account, §7 Account): shapes shared by the platform
 * (platform/routes/account.ts, platform/domain/account.ts) and the console. Plain TypeScript.
 */
export type { Account, AccountIamUser, AccountIdp } from "./account.shapes.ts";

export const accountLimits = { name: 200, email: 254, phone: 50, address: 500 } as const;
