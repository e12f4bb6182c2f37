import { parseWithZod } from "@conform-to/zod/v4";
import { data, useLocation, useSearchParams } from "react-router";
import { AssignDialog, CreateDialog, RoleDialog } from "./dialogs.tsx";
import { REMOVE_PHRASE, type IamUser } from "./model.ts";
import { AssignEntitySchema, CreateIamUserSchema, RemoveIamUserSchema, UpdateRoleSchema } from "./schemas.server.ts";
import { columns, hideable, roleLabel, sortable } from "./columns.ts";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { useCanWrite } from "../../components/hooks.ts";
import { RowMenu } from "../../components/row-menu.tsx";
import { apiGetOrThrow, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { fetchTablePage, parseTableQuery, platformFailure } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, listParam, returnUrl } from "../../lib/url.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * IAM (spec 1 §2 IAM screen, §3 IAM user, §5, §6, §7 IAM, §8): the account's IAM users. Every
 * change needs a writer (app/lib/roles.ts): a readonly user sees the table and no control.
 * ---------------------------------------------------------------------------------------------- */

const getRowId = (r: IamUser) => r.iam_user_id;

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, { sortable, hideable });
  const dialog = url.searchParams.get("dialog");
  const dialogId = url.searchParams.get("id");
  const needsEntities = dialog === "create" || dialog === "assign";
  const [table, entityNames, dialogUser] = await Promise.all([
    fetchTablePage<IamUser>(request, "list-iam-user", state, { getRowId }),
    needsEntities ? apiGetOrThrow<string[]>(request, "get-entity-names") : null,
    dialogId ? apiGetOrThrow<IamUser>(request, "get-iam-user-detail", { iam_user_id: dialogId }).catch(() => null) : null,
  ]);
  return data({ table, entityNames, dialogUser, exportLink: exportHref("/iam/export.csv", state) }, { headers });
}

/* Action: one function per intent -------------------------------------------------------------- */

async function create(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: CreateIamUserSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const res = await apiPost<{ detail?: string }>(request, "create-iam-user", { username: v.username, role: v.role, entity_name: v.entity_name, name: v.name ?? "" });
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["username", "role", "entity_name", "name"] });
  return redirectWithToast(request, returnUrl(request), { type: "success", message: res.data?.detail ?? `Created IAM user ${v.username} successfully.` });
}

async function assign(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: AssignEntitySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const res = await apiPost<{ detail?: string }>(request, "iam-user-assign-entity", submission.value);
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["new_entity_name"] });
  return redirectWithToast(request, returnUrl(request), { type: "success", message: res.data?.detail ?? "Assigned entity successfully." });
}

async function updateRole(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: UpdateRoleSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const res = await apiPost(request, "iam-user-update-role", submission.value);
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["new_role"] });
  return redirectWithToast(request, returnUrl(request), { type: "success", message: "Updated IAM role successfully." });
}

async function remove(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: RemoveIamUserSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const id = submission.value.iam_user_id;
  const res = await apiPost(request, "remove-iam-user", { iam_user_id: id });
  if (!res.ok) return platformFailure(request, res, { submission });
  const selected = listParam(new URL(request.url).searchParams, "selected").filter((s) => s !== id);
  return redirectWithToast(request, returnUrl(request, { selected }), { type: "success", message: "IAM User removed." });
}

const intents = { create, assign, role: updateRole, remove } as const;

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  if (!Object.hasOwn(intents, intent)) throw data({ message: "Unknown action." }, { status: 400 });
  await requireWriter(request);
  return intents[intent as keyof typeof intents](request, formData);
}

/* Component ------------------------------------------------------------------------------------ */

export default function Iam({ loaderData, actionData }: Route.ComponentProps) {
  const { table, entityNames, dialogUser, exportLink } = loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const canWrite = useCanWrite();
  const dialog = canWrite ? params.get("dialog") : null;
  const dialogId = params.get("id");
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const hasError = result?.status === "error";

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="IAM" error={hasError} />
      <h1 id="page-title" className="text-2xl font-semibold">
        IAM
      </h1>

      <DataTable
        caption="IAM users"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={(r) => r.username}
        toolbar={
          <>
            {canWrite ? (
              <a href={dialogHref(location, "create")} className="btn btn-primary btn-sm">
                Add IAM User
              </a>
            ) : null}
            <a href={exportLink} className="btn btn-outline btn-sm" download>
              Export CSV
            </a>
          </>
        }
        rowMenu={
          canWrite
            ? (r, links, up) => (
                <RowMenu
                  label={`Actions for ${r.username}`}
                  up={up}
                  links={links}
                  id={r.iam_user_id}
                  items={[
                    { label: "Assign Entity", dialog: "assign" },
                    { label: "Update IAM role", dialog: "role" },
                    { label: "Delete IAM User", dialog: "remove", danger: true },
                  ]}
                />
              )
            : undefined
        }
      />

      {dialog === "create" ? <CreateDialog entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "assign" ? <AssignDialog user={dialogUser} entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "role" ? <RoleDialog user={dialogUser} lastResult={result} /> : null}
      {dialog === "remove" ? (
        <ConfirmPhraseDialog
          name="remove"
          title="Delete IAM User"
          phrase={REMOVE_PHRASE}
          intent="remove"
          fields={{ iam_user_id: dialogId ?? "" }}
          lastResult={result}
          submitLabel="Delete IAM User"
        >
          <p className="mb-2">
            {dialogUser ? (
              <>
                Delete the IAM user <strong>{dialogUser.username}</strong> ({roleLabel(dialogUser.role)})? Their open sessions end at once.
              </>
            ) : (
              "This IAM user no longer exists."
            )}
          </p>
        </ConfirmPhraseDialog>
      ) : null}
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
