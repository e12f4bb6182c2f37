import { z } from "@hono/zod-openapi";
import { createdOf, isoTime, pageOf, personFields } from "./common.shapes.ts";

/** An IAM user as list-iam-user answers it. */
export const IamUser = z
  .object({
    iam_user_id: z.string(),
    username: z.string(),
    role: z.string(),
    entity_name: z.string().nullable(),
    ...personFields,
    mfa_enabled: z.boolean(),
    mfa_type: z.string().nullable(),
    account_id: z.string(),
    created_at: isoTime(),
  })
  .openapi("IamUser");
export type IamUser = z.infer<typeof IamUser>;

export const IamUserPage = pageOf(IamUser, "IamUserPage");
export const IamUserCreated = createdOf("IamUserCreated", "iam_user_id");
