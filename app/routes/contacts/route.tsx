import { data } from "react-router";
import { ContactDetails, UnassignDialog } from "./details.tsx";
import { AssignDialog, CreateDialog, UpdateDialog } from "./dialogs.tsx";
import { CONTACT_GONE, contactName, REMOVE_PHRASE } from "./model.tsx";
import { AssignEntitySchema, constraints, CreateContactSchema, RemoveContactSchema, UnassignSchema, UpdateContactSchema } from "./schemas.server.tsx";
import { RemoveDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import { detailOr, intentAction, removeIntent, submitForm } from "../../lib/action.server.ts";
import { openDialogConstraints } from "../../components/constraints.server.ts";
import { apiGetOrThrow } from "../../lib/api.server.ts";
import { useScreen } from "../../components/screen.tsx";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { hideable, screen, sortable } from "./columns.ts";
import type { Route } from "./+types/route";
import { contactMessages, entityMessages } from "../../../platform/contract/messages.ts";

/* ------------------------------------------------------------------------------------------------
 * Contacts (spec 1 §2 Contacts screen, §3 Contact, §5, §7 Contacts, §8)
 * ---------------------------------------------------------------------------------------------- */

const fields = ["first_name", "last_name", "email", "phone", "address", "company_name", "contact_type", "entity_name"];

/* Table ---------------------------------------------------------------------------------------- */

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const needsTypes = dialog === "create" || dialog === "update" || dialog === "assign";
  const needsEntities = dialog === "create" || dialog === "assign";
  const detail = (id: string) => apiGetOrThrow(request, "get-contact-detail", { contact_id: id }).catch(() => null);
  const [table, contactTypes, entityNames, dialogContact] = await Promise.all([
    fetchTablePage(request, "get-contact", state, screen),
    needsTypes ? apiGetOrThrow(request, "contact-types") : null,
    needsEntities ? apiGetOrThrow(request, "get-entity-names") : null,
    dialogId && dialog !== "unassign" ? detail(dialogId) : null,
  ]);
  // Details only for one selected contact that the current result holds.
  const selectedContact = table.selected.length === 1 ? await detail(table.selected[0]!) : null;
  const assigned = selectedContact
    ? await apiGetOrThrow(request, "get-contact-assigned-entities", { contact_id: selectedContact.contact_id })
    : null;
  const exportLink = exportHref("/contacts/export.csv", state);
  return data({ table, contactTypes, entityNames, selectedContact, assigned, dialogContact, exportLink, constraints: openDialogConstraints(constraints, dialog) }, { headers });
}

/* Action: one function per intent -------------------------------------------------------------- */

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: CreateContactSchema, call: "create-contact", fields, toast: contactMessages.created });

const update = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: UpdateContactSchema, call: "update-contact", fields, toast: contactMessages.updated });

const assign = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: AssignEntitySchema,
    call: "contact-assign-entity",
    fields: ["new_entity_name", "contact_types"],
    toast: detailOr(entityMessages.assigned),
  });

const remove = removeIntent({ idField: "contact_id", schema: RemoveContactSchema, call: "remove-contact", toast: "Contact removed." });

const unassign = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: UnassignSchema, call: "contact-unassign-entity", errors: "toast", toast: detailOr(entityMessages.unassigned) });

export const action = intentAction({ create, update, assign, remove, unassign });

/* Component ------------------------------------------------------------------------------------ */

export default function Contacts({ loaderData, actionData }: Route.ComponentProps) {
  const { table, contactTypes, entityNames, selectedContact, assigned, dialogContact, exportLink } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);

  return (
    <ListScreen screen={screen} error={error} page={table} toolbar={{ exportLink }} details={selectedContact ? <ContactDetails contact={selectedContact} assigned={assigned ?? []} /> : null}>
      {dialog === "create" ? <CreateDialog contactTypes={contactTypes ?? []} entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "update" ? <UpdateDialog contact={dialogContact} contactTypes={contactTypes ?? []} lastResult={result} /> : null}
      {dialog === "assign" ? (
        <AssignDialog contact={dialogContact} contactTypes={contactTypes ?? []} entityNames={entityNames ?? []} lastResult={result} />
      ) : null}
      {dialog === "remove" ? (
        <RemoveDialog title="Remove Contact" phrase={REMOVE_PHRASE} fields={{ contact_id: dialogId ?? "" }} lastResult={result} gone={CONTACT_GONE}>
          {dialogContact ? (
            <>
              Remove the contact <strong>{contactName(dialogContact)}</strong> ({dialogContact.email})? Its entity assignments are removed too.
            </>
          ) : null}
        </RemoveDialog>
      ) : null}
      {dialog === "unassign" && selectedContact ? <UnassignDialog contact={selectedContact} entityName={dialogId ?? ""} /> : null}
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
