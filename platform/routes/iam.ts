import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  assignIamUserEntity,
  createIamUser,
  exportIamUsers,
  iamList,
  iamMessages,
  iamUserDetail,
  removeIamUser,
  updateIamUserRole,
} from "../domain/iam.ts";
import { clientAddress } from "../lib/client.ts";
import { answerDetail, answerQuery, caller, requireWriter } from "../lib/context.ts";
import { defineChange, defineListCalls } from "../lib/openapi.ts";
import { idField } from "../lib/fields.ts";
import { ndjsonResponse } from "../lib/list.ts";
import { iamSortable } from "../contract/iam.ts";
import { AssignEntityBody, CreateIamUserBody, IamUser, IamUserCreated, IamUserIdBody, IamUserPage, UpdateRoleBody } from "../contract/iam.shapes.ts";

// IAM users of the caller's account (the /iam screen). Readonly IAM users may list; every change
// needs the owner or an admin IAM user.

const tags = ["IAM"];

export const { list: listRoute, export: exportRoute, detail: detailRoute } = defineListCalls({
  tags, sortable: iamSortable, item: IamUser, itemName: "IamUser", page: IamUserPage,
  list: { path: "/list-iam-user", summary: "IAM users of the caller's account (search: username, name, e-mail, role, entity)", rows: ["IAM user", "oldest first"] },
  export: { path: "/export-iam-users", summary: "Every IAM user the search selects, streamed", description: "The rows of list-iam-user with the same q and sort, all of them, as NDJSON (one IamUser per line). Readonly users may export." },
  detail: { path: "/get-iam-user-detail", summary: "One IAM user of the caller's account", description: "The IAM user as list-iam-user lists it. Unknown id, or another account's: 404 'IAM user not found.'", query: z.object({ iam_user_id: idField("IAM user id", "iam-4h7k2m9p0q3r") }) },
});

export const createRoute_ = defineChange({
  path: "/create-iam-user",
  tags,
  summary: "Create an IAM user and e-mail the first-password link",
  description:
    "`entity_name` must be an entity of the caller's account (else 404). The e-mail links to `/new-iam-user-setup-template?iam_user_token=…` (single use, 7 days). Invitations are counted per client address, and per address and account: past either, 429 with `Retry-After`.",
  body: CreateIamUserBody,
  response: IamUserCreated,
  errors: [404, 409, 429],
});

export const removeRoute = defineChange({ path: "/remove-iam-user", tags, summary: "Delete an IAM user", body: IamUserIdBody });
export const assignRoute = defineChange({ path: "/iam-user-assign-entity", tags, summary: "Tie an IAM user to another entity", body: AssignEntityBody });
export const roleRoute = defineChange({ path: "/iam-user-update-role", tags, summary: "Change an IAM user's role", body: UpdateRoleBody });

export function registerIamCalls(app: PlatformApp) {
  app.openapi(createRoute_, async (c) => {
    const who = requireWriter(c);
    const created = await createIamUser(c.get("deps"), who, c.req.valid("json"), clientAddress(c));
    return c.json({ iam_user_id: created.iamUserId, detail: iamMessages.created(created.username) }, 200);
  });

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
