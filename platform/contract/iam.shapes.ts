import { z } from "@hono/zod-openapi";
import { body, email, objectId, text } from "../lib/fields.ts";
import { createdOf, isoTime, pageOf, personFields } from "./common.shapes.ts";
import { iamLimits, iamRoles } from "./iam.ts";
import { iamMessages } from "./messages.ts";

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

// The calls' requests: the platform validates with them and the console's IAM forms are these
// schemas (app/routes/iam/schemas.server.ts), so both say the same words within the same limits.

const roleEnum = (required: boolean) =>
  z.enum(iamRoles, {
    error: (iss) => (iss.input === undefined && required ? "Field required" : "Input should be 'readonly' or 'admin'"),
  });

const entityName = () => text(iamLimits.entityName, { min: 1, minMessage: iamMessages.selectEntity });

export const CreateIamUserBody = body({
  username: email(iamMessages.invalidUsername),
  role: roleEnum(false).default("readonly"),
  entity_name: entityName(),
  name: text(iamLimits.name).default(""),
}).openapi("CreateIamUserRequest");

export const IamUserIdBody = body({ iam_user_id: objectId() }).openapi("IamUserIdRequest");
export const AssignEntityBody = body({ iam_user_id: objectId(), new_entity_name: entityName() }).openapi("IamUserAssignEntityRequest");
export const UpdateRoleBody = body({ iam_user_id: objectId(), new_role: roleEnum(true) }).openapi("IamUserUpdateRoleRequest");
