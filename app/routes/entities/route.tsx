import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useLocation } from "react-router";
import type { ListPage } from "../../../platform/contract/list.ts";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase.tsx";
import { DataTable, SelectionStatus } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { RowMenu } from "../../components/row-menu.tsx";
import { apiGet, apiGetOrThrow, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { detailMessages } from "../../lib/forms.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { useCanWrite } from "../../components/hooks.ts";
import { fetchTablePage, parseTableQuery, platformFailure } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, returnUrl } from "../../lib/url.ts";
import { columns, sortable } from "./columns.ts";
import { AddEntityDialog, AssignParentDialog, EditEntityDialog, type ActionResult } from "./dialogs.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { toastText, type Entity, type EntityContact } from "./schemas.ts";
import { AssignParentSchema, CreateEntitySchema, deleteSchema, EditEntitySchema } from "./schemas.server.ts";
import { EntityTabs } from "./tabs.tsx";
import type { Route } from "./+types/route";

/*
 * /entities (spec 2 §2, §3, §4, §5, §7, §8; spec 3 §5, §8): the organisation tree of the account.
 * A table (Name, Parent Entity Name, Description, Alert Message Emails, Entity ID) with Add Entity
 * and a row menu (Edit Entity, Assign Parent Entity, Delete Entity); the selected row
 * (`?selected=`) shows its contacts in a Contacts tab under the table. Every dialog opens by URL
 * (`?dialog=add|edit|assign-parent|delete&id=…`) and posts to the action below, so it all works
 * without JavaScript.
 */

// ---------------------------------------------------------------------------------------------
// Server

const DIALOGS = ["add", "edit", "assign-parent", "delete"] as const;
/** How many contacts the selected entity's Contacts tab shows. */
const CONTACTS_SHOWN = 100;

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, { sortable });
  const table = await fetchTablePage<Entity>(request, "get_entity", state, { getRowId: (e) => e.entity_id });
  const detail = (id: string) => apiGetOrThrow<Entity>(request, "get-entity-detail", { entity_id: id });

  // The dialog the URL asks for, and the entity it is about.
  const dialogParam = url.searchParams.get("dialog");
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? "") ? (dialogParam as (typeof DIALOGS)[number]) : null;
  const idParam = url.searchParams.get("id");
  // The entity a dialog is about, fetched by id (null when it no longer exists).
  const target = idParam && dialog && dialog !== "add" ? await detail(idParam).catch(() => null) : null;

  // Parent choices: any entity for a new one; for Assign Parent Entity, all but the entity and those below it.
  let parentChoices: string[] = [];
  if (dialog === "add") {
    parentChoices = await apiGetOrThrow<string[]>(request, "get_entity_names", { parent: "true" });
  } else if (dialog === "assign-parent" && target) {
    parentChoices = await apiGetOrThrow<string[]>(request, "get_entity_names", { parent: "true", entity_id: target.entity_id });
  }

  // The selected entity's contacts (the Contacts tab).
  // At most CONTACTS_SHOWN of them; the tab's CSV export has them all.
  const selected = table.selected.length === 1 ? await detail(table.selected[0]!).catch(() => null) : null;
  let contacts: ListPage<EntityContact> = { items: [], total: 0 };
  let contactsError: string | null = null;
  if (selected) {
    const result = await apiGet<ListPage<EntityContact>>(request, "get_contact", { entity_id: selected.entity_id, page: 1, size: CONTACTS_SHOWN });
    if (result.ok) contacts = result.data;
    else contactsError = detailMessages(result.detail).join(" ");
  }

  return data(
    {
      table,
      dialog,
      target,
      parentChoices,
      selected,
      contacts,
      contactsError,
      exportLink: exportHref("/entities/export.csv", state),
      // The dialogs' constraints, from their schemas on the server (zod stays out of the browser).
      constraints: formConstraints({ add: CreateEntitySchema, edit: EditEntitySchema, assign: AssignParentSchema }),
    },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  await requireWriter(request);
  const intent = formData.get("intent");

  switch (intent) {
    case "create": {
      const submission = parseWithZod(formData, { schema: CreateEntitySchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const { entity_name, description, parent_entity_name } = submission.value;
      const result = await apiPost(request, "create_entity", {
        entity_name,
        description: description ?? "",
        parent_entity_name: parent_entity_name ?? "",
      });
      if (!result.ok) return platformFailure(request, result, { submission, fieldNames: ["entity_name", "description", "parent_entity_name"] });
      return redirectWithToast(request, returnUrl(request), { type: "success", message: toastText.created });
    }
    case "edit": {
      const submission = parseWithZod(formData, { schema: EditEntitySchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const result = await apiPost(request, "edit_entity_description", submission.value);
      if (!result.ok) return platformFailure(request, result, { submission, fieldNames: ["description", "email"] });
      return redirectWithToast(request, returnUrl(request), { type: "success", message: toastText.updated });
    }
    case "assign-parent": {
      const submission = parseWithZod(formData, { schema: AssignParentSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const parent = submission.value.parent_entity_name ?? "";
      const result = await apiPost(request, "assign_entity_parent", { entity_id: submission.value.entity_id, parent_entity_name: parent });
      if (!result.ok) return platformFailure(request, result, { submission, fieldNames: ["parent_entity_name"] });
      return redirectWithToast(request, returnUrl(request), {
        type: "success",
        message: parent ? toastText.parentAssigned : toastText.parentCleared,
      });
    }
    case "delete": {
      const entityId = String(formData.get("entity_id") ?? "");
      const submission = parseWithZod(formData, { schema: deleteSchema(entityId) });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const result = await apiPost(request, "remove_entity", { entity_id: submission.value.entity_id });
      // Spec 2 §8 / spec 3 §8: a detail list → each item's message as a persistent toast; otherwise the detail text.
      if (!result.ok) return platformFailure(request, result);
      const url = new URL(request.url);
      const wasSelected = url.searchParams.getAll("selected").some((s) => s.split(",").includes(entityId));
      return redirectWithToast(request, returnUrl(request, wasSelected ? { selected: null, tab: null } : {}), {
        type: "success",
        message: toastText.removed,
      });
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

// ---------------------------------------------------------------------------------------------
// Page

export default function EntitiesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, parentChoices, selected, contacts, contactsError, exportLink } = loaderData;
  const location = useLocation();
  const canWrite = useCanWrite();
  // A readonly user is offered no change: no dialog, even by URL.
  const dialog = canWrite ? loaderData.dialog : null;
  const lastResult = (actionData as { result?: ActionResult } | undefined)?.result;
  const hasError = Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e && e.length > 0));
  const ownTitle = dialog === "add" || ((dialog === "edit" || dialog === "assign-parent") && target !== null);

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      {/* An open form dialog sets the title itself (with "Error:" while its form has errors). */}
      {ownTitle ? null : <PageTitle title={dialog === "delete" && target ? "Delete Entity - Entities" : "Entities"} error={hasError} />}
      <h1 id="page-title" className="text-2xl font-semibold">
        Entities
      </h1>

      <DataTable
        caption="Entities"
        columns={columns}
        page={table}
        getRowId={(e) => e.entity_id}
        rowLabel={(e) => e.entity_name}
        selection="single"
        linkColumn="entity_name"
        toolbar={
          <>
            {canWrite ? (
              <Link to={dialogHref(location, "add")} className="btn btn-primary btn-sm" preventScrollReset>
                Add Entity
              </Link>
            ) : null}
            {/* A plain link (a download, with or without JavaScript): what the search selects, as CSV. */}
            <a href={exportLink} className="btn btn-outline btn-sm" download>
              Export CSV
            </a>
          </>
        }
        rowMenu={
          canWrite
            ? (e, links, up, index) => (
                <RowMenu
                  label={`Actions for ${e.entity_name}`}
                  // The kit opens the last two rows upward only from 4 rows on; with exactly 3, the last
                  // row's menu would be cut off by the scroll box when a row is tall (several e-mails).
                  up={up || (table.rowCount === 3 && index === 2)}
                  links={links}
                  id={e.entity_id}
                  items={[
                    { label: "Edit Entity", dialog: "edit" },
                    { label: "Assign Parent Entity", dialog: "assign-parent" },
                    { label: "Delete Entity", dialog: "delete", danger: true },
                  ]}
                />
              )
            : undefined
        }
      />

      <SelectionStatus count={table.selected.length} plural="entities">
        {selected ? <EntityTabs entity={selected} contacts={contacts} error={contactsError} /> : null}
      </SelectionStatus>

      {dialog === "add" ? <AddEntityDialog parentChoices={parentChoices} lastResult={lastResult} /> : null}
      {dialog === "edit" && target ? <EditEntityDialog key={target.entity_id} entity={target} lastResult={lastResult} /> : null}
      {dialog === "assign-parent" && target ? (
        <AssignParentDialog key={target.entity_id} entity={target} parentChoices={parentChoices} lastResult={lastResult} />
      ) : null}
      {dialog === "delete" && target ? (
        <ConfirmPhraseDialog
          key={target.entity_id}
          name="delete"
          title="Delete Entity"
          phrase={target.entity_id}
          intent="delete"
          fields={{ entity_id: target.entity_id }}
          lastResult={lastResult}
          submitLabel="Delete"
        >
          <p className="mb-2">
            Delete the entity <strong>{target.entity_name}</strong>? This cannot be undone. An entity that still has child entities,
            contacts or IAM users cannot be deleted.
          </p>
        </ConfirmPhraseDialog>
      ) : null}
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
