/*
 * Sign-in (spec 1 §3, §7 Authentication): shapes and limits shared by the platform
 * (platform/routes/auth.ts) and the console (app/lib/auth.server.ts). Plain TypeScript.
 */
export type { Token, AccountChoice } from "./auth.shapes.ts";

export type SessionType = "account" | "iam_user";

export const passwordLimits = { min: 8, max: 128 } as const;
