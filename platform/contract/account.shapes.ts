import { z } from "@hono/zod-openapi";
import { body, email, expects, password, phone, text } from "../lib/fields.ts";
import { personFields } from "./common.shapes.ts";
import { accountMessages, fieldMessages } from "./messages.ts";
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

// The calls' requests: the platform validates with them and the console's Settings and My Profile
// forms are these schemas (app/routes/account/schemas.server.ts).

export const profileFields = ["password", "name", "email", "phone", "address"] as const;
export const profileShape = {
  password: password().optional(),
  name: text(200, { min: 1, minMessage: fieldMessages.nameRequired }).optional(),
  email: email().optional(),
  // Phone and address are optional in the spec: an empty (or blank) value clears them.
  phone: z.union([z.string().trim().length(0), phone()], { error: fieldMessages.phoneInvalid }).optional(),
  address: text(500, { multiline: true }).optional(),
};

/** Exactly one of password, name, email, phone, address. */
function exactlyOneField(value: Record<string, unknown>, ctx: z.RefinementCtx) {
  const sent = profileFields.filter((k) => value[k] !== undefined);
  if (sent.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message: `Send exactly one of: ${profileFields.join(", ")}.`,
      path: sent.length > 1 ? [sent[1]!] : [],
    });
  }
}

export const UpdateAccountBody = body({ username: text(254, { min: 1 }), ...profileShape })
  .superRefine(exactlyOneField)
  .openapi("UpdateAccountRequest", { description: "`username` (the caller's) and exactly one of password, name, email, phone, address" });

export const UpdateIamUserBody = body(profileShape)
  .superRefine(exactlyOneField)
  .openapi("UpdateIamUserRequest", { description: "Exactly one of password, name, email, phone, address" });

export const RemoveAccountBody = body({ username: text(254, { min: 1 }) }).openapi("RemoveAccountRequest");

export const EnableMfaBody = body({
  type: z.enum(["email"], { error: (iss) => (iss.input === undefined ? "Field required" : "Input should be 'email'") }),
}).openapi("EnableMfaRequest");

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
};

export const IdpBody = body({
  metalink: z
    .string({ error: expects("a valid string") })
    .trim()
    .max(2048, "String should have at most 2048 characters")
    .refine((v) => v === "" || isHttpUrl(v), accountMessages.idpInvalid),
}).openapi("UpdateAccountIdpRequest");
