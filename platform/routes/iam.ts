import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  assignIamUserEntity,
  createIamUser,
  exportIamUsers,
  iamList,
  iamMessages,
  iamRoles,
  iamUserDetail,
  removeIamUser,
  updateIamUserRole,
} from "../domain/iam.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { defineCall, defineDetailCall, defineExportCall, defineListCall, DetailSchema } from "../lib/openapi.ts";
import { body, email, idField, objectId, text } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { iamSortable } from "../contract/iam.ts";
import { IamUser, IamUserCreated, IamUserPage } from "../contract/iam.shapes.ts";

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

const tags = ["IAM"];

const createRoute_ = defineCall({
  method: "post",
  path: "/create-iam-user",
  tags,
  summary: "Create an IAM user and e-mail the first-password link",
  description:
    "`entity_name` must be an entity of the caller's account (else 404). The e-mail links to `/new-iam-user-setup-template?iam_user_token=…` (single use, 7 days).",
  only: "writer",
  body: CreateIamUserBody,
  response: IamUserCreated,
  errors: [404, 409],
});

const listRoute = defineListCall({
  path: "/list-iam-user",
  tags,
  summary: "IAM users of the caller's account (search: username, name, e-mail, role, entity)",
  rows: ["IAM user", "oldest first"],
  query: z.object({ ...listQuery(iamSortable), ids: idsFilter }),
  item: IamUser,
  page: IamUserPage,
});

const detailRoute = defineDetailCall({
  path: "/get-iam-user-detail",
  tags,
  summary: "One IAM user of the caller's account",
  description: "The IAM user as list-iam-user lists it. Unknown id, or another account's: 404 'IAM user not found.'",
  query: z.object({ iam_user_id: idField("IAM user id") }),
  response: IamUser,
});

const exportRoute = defineExportCall({
  path: "/export-iam-users",
  tags,
  summary: "Every IAM user the search selects, streamed",
  description: "The rows of list-iam-user with the same q and sort, all of them, as NDJSON (one IamUser per line). Readonly users may export.",
  query: z.object(exportQuery(iamSortable)),
  item: IamUser,
  itemName: "IamUser",
});

const mutation = <S extends z.ZodType>(path: `/${string}`, summary: string, body: S) =>
  defineCall({ method: "post", path, tags, summary, only: "writer", body, response: DetailSchema, errors: [404] });

const removeRoute = mutation("/remove-iam-user", "Delete an IAM user", IamUserIdBody);
const assignRoute = mutation("/iam-user-assign-entity", "Tie an IAM user to another entity", AssignEntityBody);
const roleRoute = mutation("/iam-user-update-role", "Change an IAM user's role", UpdateRoleBody);

export function registerIamCalls(app: PlatformApp) {
  app.openapi(
    createRoute_,
    answerChange(createRoute_, (deps, who, b) => createIamUser(deps, who, b), (created) => ({ iam_user_id: created.iamUserId, detail: iamMessages.created(created.username) })),
  );

  app.openapi(listRoute, async (c) => {
    return iamList.answer(c, caller(c).accountId, c.req.valid("query"));
  });

  app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q) => iamUserDetail(deps.db, who.accountId, q.iam_user_id)));

  app.openapi(exportRoute, async (c) => {
    const who = caller(c);
    const rows = exportIamUsers(c.get("deps").db, who.accountId, c.req.valid("query"));
    return ndjsonResponse(rows, c.req.raw.signal);
  });

  app.openapi(removeRoute, answerDetail(removeRoute, (deps, who, b) => removeIamUser(deps, who, b.iam_user_id), iamMessages.removed));
  app.openapi(assignRoute, answerDetail(assignRoute, (deps, who, b) => assignIamUserEntity(deps, who, b.iam_user_id, b.new_entity_name), iamMessages.entityAssigned));
  app.openapi(roleRoute, answerDetail(roleRoute, (deps, who, b) => updateIamUserRole(deps, who, b.iam_user_id, b.new_role), iamMessages.roleUpdated));
}
