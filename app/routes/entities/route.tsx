import { data } from "react-router";
import type { ListPage } from "../../../platform/contract/list.ts";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase.tsx";
import { createHint, DataTable, SelectionStatus } from "../../components/data-table.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { TableToolbar } from "../../components/table-toolbar.tsx";
import { intentAction, removeIntent, submitForm } from "../../lib/action.server.ts";
import { apiGet, apiGetOrThrow } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { detailMessages } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { Screen, useScreen } from "../../components/screen.tsx";
import { fetchTablePage, parseTableQuery } from "../../lib/table.server.ts";
import { columns, sortable } from "./columns.ts";
import { AddEntityDialog, AssignParentDialog, EditEntityDialog } from "./dialogs.tsx";
import { toastText, type EntityContact } from "./schemas.ts";
import { AssignParentSchema, constraints, CreateEntitySchema, deleteSchema, EditEntitySchema } from "./schemas.server.ts";
import { EntityTabs } from "./tabs.tsx";
import type { Route } from "./+types/route";

/** The create button's label (spec), also named by the empty table's hint. */
const CREATE = "Add Entity";

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
  const table = await fetchTablePage(request, "get_entity", state, { getRowId: (e) => e.entity_id });
  const detail = (id: string) => apiGetOrThrow(request, "get-entity-detail", { entity_id: id });

  // The dialog the URL asks for, and the entity it is about.
  const dialogParam = url.searchParams.get("dialog");
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? "") ? (dialogParam as (typeof DIALOGS)[number]) : null;
  const idParam = url.searchParams.get("id");
  // The entity a dialog is about, fetched by id (null when it no longer exists).
  const target = idParam && dialog && dialog !== "add" ? await detail(idParam).catch(() => null) : null;

  // Parent choices: any entity for a new one; for Assign Parent Entity, all but the entity and those below it.
  let parentChoices: string[] = [];
  if (dialog === "add") {
    parentChoices = await apiGetOrThrow(request, "get_entity_names", { parent: "true" });
  } else if (dialog === "assign-parent" && target) {
    parentChoices = await apiGetOrThrow(request, "get_entity_names", { parent: "true", entity_id: target.entity_id });
  }

  // The selected entity's contacts (the Contacts tab).
  // At most CONTACTS_SHOWN of them; the tab's CSV export has them all.
  const selected = table.selected.length === 1 ? await detail(table.selected[0]!).catch(() => null) : null;
  let contacts: ListPage<EntityContact> = { items: [], total: 0 };
  let contactsError: string | null = null;
  if (selected) {
    const result = await apiGet(request, "get_contact", { entity_id: selected.entity_id, page: 1, size: CONTACTS_SHOWN });
    // Asked for a page (page, size): the page member of the list's answer.
    if (!result.ok) contactsError = detailMessages(result.detail).join(" ");
    else if (!Array.isArray(result.data)) contacts = result.data;
  }

  return data(
    {
      table,
      target,
      parentChoices,
      selected,
      contacts,
      contactsError,
      exportLink: exportHref("/entities/export.csv", state),
      constraints,
    },
    { headers },
  );
}

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: CreateEntitySchema,
    call: "create_entity",
    body: (v) => ({ entity_name: v.entity_name, description: v.description ?? "", parent_entity_name: v.parent_entity_name ?? "" }),
    fields: ["entity_name", "description", "parent_entity_name"],
    toast: toastText.created,
  });

const edit = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: EditEntitySchema, call: "edit_entity_description", fields: ["description", "email"], toast: toastText.updated });

const assignParent = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: AssignParentSchema,
    call: "assign_entity_parent",
    body: (v) => ({ entity_id: v.entity_id, parent_entity_name: v.parent_entity_name ?? "" }),
    fields: ["parent_entity_name"],
    toast: (_, v) => (v.parent_entity_name ? toastText.parentAssigned : toastText.parentCleared),
  });

// Spec 2 §8 / spec 3 §8: a refused delete is a persistent toast per detail item.
const remove = removeIntent({ idField: "entity_id", schema: deleteSchema, call: "remove_entity", errors: "toast", toast: toastText.removed });

export const action = intentAction({ create, edit, "assign-parent": assignParent, delete: remove });

// ---------------------------------------------------------------------------------------------
// Page

const menuItems: MenuItem[] = [
  { label: "Edit Entity", dialog: "edit" },
  { label: "Assign Parent Entity", dialog: "assign-parent" },
  { label: "Delete Entity", dialog: "delete", danger: true },
];

export default function EntitiesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, parentChoices, selected, contacts, contactsError, exportLink } = loaderData;
  const { canWrite, dialog, result: lastResult } = useScreen(actionData);
  const hasError = Boolean(lastResult?.error && Object.values(lastResult.error).some((e) => e && e.length > 0));
  const ownTitle = dialog === "add" || ((dialog === "edit" || dialog === "assign-parent") && target !== null);

  return (
    // An open form dialog sets the title itself (with "Error:" while its form has errors).
    <Screen title="Entities" documentTitle={ownTitle ? null : dialog === "delete" && target ? "Delete Entity - Entities" : "Entities"} error={hasError}>

      <DataTable
        caption="Entities"
        columns={columns}
        page={table}
        getRowId={(e) => e.entity_id}
        rowLabel={(e) => e.entity_name}
        selection="single"
        linkColumn="entity_name"
        toolbar={<TableToolbar createLabel={CREATE} createDialog="add" exportLink={exportLink} />}
        emptyHint={createHint(CREATE, canWrite)}
        rowMenu={
          canWrite
            ? (e, index) => ({
                label: `Actions for ${e.entity_name}`,
                // The kit opens the last two rows upward only from 4 rows on; with exactly 3, the last
                // row's menu would be cut off by the scroll box when a row is tall (several e-mails).
                up: table.rowCount === 3 && index === 2,
                items: menuItems,
              })
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
    </Screen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
