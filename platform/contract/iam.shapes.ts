import { z } from "@hono/zod-openapi";
import { body, email, objectId, text } from "../lib/fields.ts";
import { iamUsers } from "../db/schema.ts";
import { tableAnswer } from "../lib/table-answer.ts";
import { createdOf, pageOf } from "./common.shapes.ts";
import { iamLimits, iamRoles } from "./iam.ts";
import { iamMessages } from "./messages.ts";

/** The IAM user's own columns under the answer's names (the password hash is not one of them). */
export const iamUserColumns = tableAnswer(iamUsers, {
  iam_user_id: "iamUserId",
  username: "username",
  role: "role",
  name: "name",
  email: "email",
  phone: "phone",
  address: "address",
  mfa_enabled: "mfaEnabled",
  mfa_type: "mfaType",
  account_id: "accountId",
  created_at: "createdAt",
});
const { iam_user_id, username, role, ...person } = iamUserColumns.shape;

/** An IAM user as list-iam-user answers it: its columns and its entity's name. */
export const IamUser = z
  .object({ iam_user_id, username, role, entity_name: z.string().nullable(), ...person })
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
