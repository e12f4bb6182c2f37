import { z } from "@hono/zod-openapi";

/** POST token's answer when signed in. */
export const Token = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    session_type: z.enum(["account", "iam_user"]),
    username: z.string(),
    account_id: z.string(),
  })
  .openapi("Token");
export type Token = z.infer<typeof Token>;

/** One account of a 300 answer (several accounts share the e-mail). */
export const AccountChoice = z.object({ account_id: z.string(), account_domain: z.string() }).openapi("AccountChoice");
export type AccountChoice = z.infer<typeof AccountChoice>;

/** POST token's 300: the accounts to choose from. */
export const AccountChoices = z.object({ detail: z.array(AccountChoice) }).openapi("AccountChoices");
