import type { IamUser } from "../contract/iam.ts";
import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  assignIamUserEntity,
  createIamUser,
  iamMessages,
  iamRoles,
  listIamUsers,
  removeIamUser,
  updateIamUserRole,
} from "../domain/iam.ts";
import { caller, requireWriter } from "../lib/context.ts";
import { bearer, DetailSchema, errors, jsonBody, ok } from "../lib/openapi.ts";
import { body, email, objectId, text } from "../lib/fields.ts";

// IAM users of the caller's account (the /iam screen). Readonly IAM users may list; every change
// needs the owner or an admin IAM user.

const roleEnum = (required: boolean) =>
  z.enum(iamRoles, {
    error: (iss) => (iss.input === undefined && required ? "Field required" : "Input should be 'readonly' or 'admin'"),
  });

const entityName = () => text(200, { min: 1, minMessage: "Please select an entity." });

const CreateIamUserBody = body({
  username: email("Invalid format. Username should be an email."),
  role: roleEnum(false).default("readonly"),
  entity_name: entityName(),
  name: text(200).default(""),
}).openapi("CreateIamUserRequest");

const IamUserIdBody = body({ iam_user_id: objectId() }).openapi("IamUserIdRequest");
const AssignEntityBody = body({ iam_user_id: objectId(), new_entity_name: entityName() }).openapi("IamUserAssignEntityRequest");
const UpdateRoleBody = body({ iam_user_id: objectId(), new_role: roleEnum(true) }).openapi("IamUserUpdateRoleRequest");

const IamUserSchema = z
  .object({
    iam_user_id: z.string(),
    username: z.string(),
    role: z.string(),
    entity_name: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    mfa_enabled: z.boolean(),
    mfa_type: z.string().nullable(),
    account_id: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("IamUser") satisfies z.ZodType<IamUser>;

const CreatedSchema = z.object({ iam_user_id: z.string(), detail: z.string() }).openapi("IamUserCreated");

const createRoute_ = createRoute({
  method: "post",
  path: "/create-iam-user",
  tags: ["IAM"],
  summary: "Create an IAM user and e-mail the first-password link",
  description:
    "`entity_name` must be an entity of the caller's account (else 404). The e-mail links to `/new-iam-user-setup-template?iam_user_token=…` (single use, 7 days).",
  security: bearer,
  request: jsonBody(CreateIamUserBody),
  responses: { ...ok(CreatedSchema), ...errors(400, 401, 403, 404, 409, 422) },
});

const listRoute = createRoute({
  method: "get",
  path: "/list-iam-user",
  tags: ["IAM"],
  summary: "IAM users of the caller's account",
  security: bearer,
  responses: { ...ok(z.array(IamUserSchema)), ...errors(401) },
});

const mutation = <S extends z.ZodType>(path: string, summary: string, schema: S) =>
  createRoute({
    method: "post",
    path,
    tags: ["IAM"],
    summary,
    security: bearer,
    request: jsonBody(schema),
    responses: { ...ok(DetailSchema), ...errors(400, 401, 403, 404, 422) },
  });

const removeRoute = mutation("/remove-iam-user", "Delete an IAM user", IamUserIdBody);
const assignRoute = mutation("/iam-user-assign-entity", "Tie an IAM user to another entity", AssignEntityBody);
const roleRoute = mutation("/iam-user-update-role", "Change an IAM user's role", UpdateRoleBody);

export function registerIamCalls(app: PlatformApp) {
  app.openapi(createRoute_, async (c) => {
    const who = requireWriter(c);
    const created = await createIamUser(c.get("deps"), who, c.req.valid("json"));
    return c.json({ iam_user_id: created.iamUserId, detail: iamMessages.created(created.username) }, 200);
  });

  app.openapi(listRoute, async (c) => {
    return c.json(await listIamUsers(c.get("deps"), caller(c)), 200);
  });

  app.openapi(removeRoute, async (c) => {
    const who = requireWriter(c);
    await removeIamUser(c.get("deps"), who, c.req.valid("json").iam_user_id);
    return c.json({ detail: iamMessages.removed }, 200);
  });

  app.openapi(assignRoute, async (c) => {
    const who = requireWriter(c);
    const input = c.req.valid("json");
    await assignIamUserEntity(c.get("deps"), who, input.iam_user_id, input.new_entity_name);
    return c.json({ detail: iamMessages.entityAssigned }, 200);
  });

  app.openapi(roleRoute, async (c) => {
    const who = requireWriter(c);
    const input = c.req.valid("json");
    await updateIamUserRole(c.get("deps"), who, input.iam_user_id, input.new_role);
    return c.json({ detail: iamMessages.roleUpdated }, 200);
  });
}
