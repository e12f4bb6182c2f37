/*
 * IAM users (spec 1 §3 IAM user, §7 IAM): shapes and constants shared by the platform
 * (platform/routes/iam.ts, platform/domain/iam.ts) and the console. Plain TypeScript.
 */
export type { IamUser } from "./iam.shapes.ts";

export const iamRoles = ["readonly", "admin"] as const;
export type IamRole = (typeof iamRoles)[number];

export const iamLimits = { name: 200, username: 254, entityName: 200 } as const;

/** The columns list-iam-user sorts by (`?sort=username`, `?sort=-created_at`). */
export const iamSortable = ["username", "name", "role", "entity_name", "created_at"] as const;
export type IamSortColumn = (typeof iamSortable)[number];
