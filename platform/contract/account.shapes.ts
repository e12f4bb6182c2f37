import { z } from "@hono/zod-openapi";
import { personFields } from "./common.shapes.ts";
import { IamUser } from "./iam.shapes.ts";

/** The signed-in IAM user as list-account shows it. */
export const AccountIamUser = IamUser.omit({ account_id: true, created_at: true }).openapi("IamUserSelf");
export type AccountIamUser = z.infer<typeof AccountIamUser>;

/** GET list-account. */
export const Account = z
  .object({
    username: z.string(),
    account_id: z.string(),
    account_domain: z.string(),
    logo: z.string().nullable(),
    mfa_enabled: z.boolean(),
    ...personFields,
    session_type: z.enum(["account", "iam_user"]),
    iam_user: AccountIamUser.nullable(),
  })
  .openapi("Account");
export type Account = z.infer<typeof Account>;

/** GET get-account-idp. */
export const AccountIdp = z.object({ metalink: z.string() }).openapi("AccountIdp");
export type AccountIdp = z.infer<typeof AccountIdp>;
