/*
 * The account and profile (spec 1 §3 Account, §7 Account): shapes shared by the platform
 * (platform/routes/account.ts, platform/domain/account.ts) and the console. Plain TypeScript.
 */
import type { IamUser } from "./iam.ts";

/** The signed-in IAM user as list-account shows it. */
export type AccountIamUser = Omit<IamUser, "account_id" | "created_at">;

/** GET list-account. */
export interface Account {
  username: string;
  account_id: string;
  account_domain: string;
  logo: string | null;
  mfa_enabled: boolean;
  name: string;
  email: string;
  phone: string;
  address: string;
  session_type: "account" | "iam_user";
  iam_user: AccountIamUser | null;
}

export const accountLimits = { name: 200, email: 254, phone: 50, address: 500 } as const;
