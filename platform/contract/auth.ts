/*
 * Sign-in (spec 1 §3, §7 Authentication): shapes and limits shared by the platform
 * (platform/routes/auth.ts) and the console (app/lib/auth.server.ts). Plain TypeScript.
 */

export type SessionType = "account" | "iam_user";

/** POST token's answer when signed in. */
export interface Token {
  access_token: string;
  token_type: "bearer";
  session_type: SessionType;
  username: string;
  account_id: string;
}

/** One account of a 300 answer (several accounts share the e-mail). */
export interface AccountChoice {
  account_id: string;
  account_domain: string;
}

export const passwordLimits = { min: 8, max: 128 } as const;
