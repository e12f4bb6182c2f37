import { data } from "react-router";
import { AssignDialog, CreateDialog, RoleDialog } from "./dialogs.tsx";
import { IAM_USER_GONE, REMOVE_PHRASE } from "./model.ts";
import { AssignEntitySchema, constraints, CreateIamUserSchema, RemoveIamUserSchema, UpdateRoleSchema } from "./schemas.server.ts";
import { hideable, roleLabel, screen, sortable } from "./columns.ts";
import { RemoveDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import { detailOr, intentAction, passRetryAfter, removeIntent, submitForm } from "../../lib/action.server.ts";
import { apiGetOrThrow } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import type { Route } from "./+types/route";
import { entityMessages, iamMessages } from "../../../platform/contract/messages.ts";

/* ------------------------------------------------------------------------------------------------
 * IAM (spec 1 §2 IAM screen, §3 IAM user, §5, §6, §7 IAM, §8): the account's IAM users. Every
 * change needs a writer (app/lib/roles.ts): a readonly user sees the table and no control.
 * ---------------------------------------------------------------------------------------------- */

// A 429 (abuse limits) keeps its Retry-After on the page.
export const headers: Route.HeadersFunction = passRetryAfter();

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const needsEntities = dialog === "create" || dialog === "assign";
  const [table, entityNames, dialogUser] = await Promise.all([
    fetchTablePage(request, "list-iam-user", state, screen),
    needsEntities ? apiGetOrThrow(request, "get-entity-names") : null,
    dialogId ? apiGetOrThrow(request, "get-iam-user-detail", { iam_user_id: dialogId }).catch(() => null) : null,
  ]);
  return data({ table, entityNames, dialogUser, exportLink: exportHref("/iam/export.csv", state), constraints }, { headers });
}

/* Action: one function per intent -------------------------------------------------------------- */

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: CreateIamUserSchema,
    call: "create-iam-user",
    fields: ["username", "role", "entity_name", "name"],
    toast: detailOr((v) => `Created IAM user ${v.username} successfully.`),
  });

const assign = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: AssignEntitySchema,
    call: "iam-user-assign-entity",
    fields: ["new_entity_name"],
    toast: detailOr(entityMessages.assigned),
  });

const role = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: UpdateRoleSchema, call: "iam-user-update-role", fields: ["new_role"], toast: iamMessages.roleUpdated });

const remove = removeIntent({ idField: "iam_user_id", schema: RemoveIamUserSchema, call: "remove-iam-user", toast: iamMessages.removed });

export const action = intentAction({ create, assign, role, remove });

/* Component ------------------------------------------------------------------------------------ */

export default function Iam({ loaderData, actionData }: Route.ComponentProps) {
  const { table, entityNames, dialogUser, exportLink } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);

  return (
    <ListScreen screen={screen} page={table} error={error} toolbar={{ exportLink }}>
      {dialog === "create" ? <CreateDialog entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "assign" ? <AssignDialog user={dialogUser} entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "role" ? <RoleDialog user={dialogUser} lastResult={result} /> : null}
      {dialog === "remove" ? (
        <RemoveDialog title="Delete IAM User" phrase={REMOVE_PHRASE} fields={{ iam_user_id: dialogId ?? "" }} lastResult={result} gone={IAM_USER_GONE}>
          {dialogUser ? (
            <>
              Delete the IAM user <strong>{dialogUser.username}</strong> ({roleLabel(dialogUser.role)})? Their open sessions end at once.
            </>
          ) : null}
        </RemoveDialog>
      ) : null}
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
