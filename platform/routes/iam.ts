import type { IamUser } from "../contract/iam.ts";
import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  assignIamUserEntity,
  createIamUser,
  iamMessages,
  exportIamUsers,
  iamRoles,
  iamUserDetail,
  listIamUsers,
  queryIamUsers,
  removeIamUser,
  updateIamUserRole,
} from "../domain/iam.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { bearer, DetailSchema, errors, jsonBody, ok } from "../lib/openapi.ts";
import { body, email, idField, objectId, text } from "../lib/fields.ts";
import { cachedJson } from "../lib/auth.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, ndjsonResponse, pageSchema, wantsPage } from "../lib/list.ts";
import { iamSortable } from "../contract/iam.ts";

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
  middleware: [writerOnly],
  request: jsonBody(CreateIamUserBody),
  responses: { ...ok(CreatedSchema), ...errors(400, 401, 403, 404, 409, 422) },
});

const IamUserPageSchema = pageSchema(IamUserSchema, "IamUserPage");

const listRoute = createRoute({
  method: "get",
  path: "/list-iam-user",
  tags: ["IAM"],
  summary: "IAM users of the caller's account",
  description:
    "Without list parameters: every IAM user, oldest first (the spec's array). With any of q, sort, page, size, ids: one page `{items, total}`, searched (username, name, e-mail, role, entity), sorted and paged in SQL.",
  security: bearer,
  request: { query: z.object({ ...listQuery(iamSortable), ids: idsFilter }) },
  responses: {
    ...ok(z.union([z.array(IamUserSchema), IamUserPageSchema]), "The spec's array, or a page when list parameters are given"),
    ...errors(401, 422),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/get-iam-user-detail",
  tags: ["IAM"],
  summary: "One IAM user of the caller's account",
  description: "The IAM user as list-iam-user lists it. Unknown id, or another account's: 404 'IAM user not found.'",
  security: bearer,
  request: { query: z.object({ iam_user_id: idField("IAM user id") }) },
  responses: { ...ok(IamUserSchema), ...errors(401, 404, 422) },
});

const exportRoute = createRoute({
  method: "get",
  path: "/export-iam-users",
  tags: ["IAM"],
  summary: "Every IAM user the search selects, streamed",
  description: "The rows of list-iam-user with the same q and sort, all of them, as NDJSON (one IamUser per line). Readonly users may export.",
  security: bearer,
  request: { query: z.object(exportQuery(iamSortable)) },
  responses: { ...ndjsonOk(IamUserSchema, "One IamUser (JSON) per line"), ...errors(401, 422) },
});

const mutation = <S extends z.ZodType>(path: string, summary: string, schema: S) =>
  createRoute({
    method: "post",
    path,
    tags: ["IAM"],
    summary,
    security: bearer,
    middleware: [writerOnly],
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
    const who = caller(c);
    const query = c.req.valid("query");
    const deps = c.get("deps");
    if (wantsPage(query)) return c.json(await queryIamUsers(deps.db, who.accountId, query), 200);
    return cachedJson(c, () => listIamUsers(deps, who));
  });

  app.openapi(detailRoute, async (c) => {
    const who = caller(c);
    return c.json(await iamUserDetail(c.get("deps").db, who.accountId, c.req.valid("query").iam_user_id), 200);
  });

  app.openapi(exportRoute, async (c) => {
    const who = caller(c);
    const rows = exportIamUsers(c.get("deps").db, who.accountId, c.req.valid("query"));
    return (await ndjsonResponse(rows, c.req.raw.signal)) as never;
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
