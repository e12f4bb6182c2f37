import { parseWithZod } from "@conform-to/zod/v4";
import { data, useLocation, useSearchParams } from "react-router";
import { ContactDetails, UnassignDialog } from "./details.tsx";
import { AssignDialog, CreateDialog, UpdateDialog } from "./dialogs.tsx";
import { contactName, REMOVE_PHRASE, type AssignedEntity, type Contact } from "./model.tsx";
import { AssignEntitySchema, CreateContactSchema, RemoveContactSchema, UnassignSchema, UpdateContactSchema } from "./schemas.server.tsx";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { DataTable, SelectionStatus } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { RowMenu } from "../../components/row-menu.tsx";
import { apiGetOrThrow, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { useCanWrite } from "../../components/hooks.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, parseTableQuery, platformFailure } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, listParam, returnUrl } from "../../lib/url.ts";
import { columns, hideable, sortable } from "./columns.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Contacts (spec 1 §2 Contacts screen, §3 Contact, §5, §7 Contacts, §8)
 * ---------------------------------------------------------------------------------------------- */

const fieldNames = ["first_name", "last_name", "email", "phone", "address", "company_name", "contact_type", "entity_name"];

/* Table ---------------------------------------------------------------------------------------- */

const getRowId = (r: Contact) => r.contact_id;

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, { sortable, hideable });
  const dialog = url.searchParams.get("dialog");
  const dialogId = url.searchParams.get("id");
  const needsTypes = dialog === "create" || dialog === "update" || dialog === "assign";
  const needsEntities = dialog === "create" || dialog === "assign";
  const detail = (id: string) => apiGetOrThrow<Contact>(request, "get-contact-detail", { contact_id: id }).catch(() => null);
  const [table, contactTypes, entityNames, dialogContact] = await Promise.all([
    fetchTablePage<Contact>(request, "get-contact", state, { getRowId }),
    needsTypes ? apiGetOrThrow<string[]>(request, "contact-types") : null,
    needsEntities ? apiGetOrThrow<string[]>(request, "get-entity-names") : null,
    dialogId && dialog !== "unassign" ? detail(dialogId) : null,
  ]);
  // Details only for one selected contact that the current result holds.
  const selectedContact = table.selected.length === 1 ? await detail(table.selected[0]!) : null;
  const assigned = selectedContact
    ? await apiGetOrThrow<AssignedEntity[]>(request, "get-contact-assigned-entities", { contact_id: selectedContact.contact_id })
    : null;
  const exportLink = exportHref("/contacts/export.csv", state);
  return data({ table, contactTypes, entityNames, selectedContact, assigned, dialogContact, exportLink }, { headers });
}

/* Action --------------------------------------------------------------------------------------- */

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  await requireWriter(request);
  const intent = formData.get("intent");
  switch (intent) {
    case "create": {
      const submission = parseWithZod(formData, { schema: CreateContactSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const res = await apiPost(request, "create-contact", { ...blanks(v), email: v.email, contact_type: v.contact_type, entity_name: v.entity_name });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames });
      return redirectWithToast(request, returnUrl(request), { type: "success", message: "Contact successfully created." });
    }
    case "update": {
      const submission = parseWithZod(formData, { schema: UpdateContactSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const res = await apiPost(request, "update-contact", { contact_id: v.contact_id, ...blanks(v), email: v.email, contact_type: v.contact_type });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames });
      return redirectWithToast(request, returnUrl(request), { type: "success", message: "Contact successfully updated." });
    }
    case "assign": {
      const submission = parseWithZod(formData, { schema: AssignEntitySchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const res = await apiPost<{ detail?: string }>(request, "contact-assign-entity", {
        contact_id: v.contact_id,
        contact_types: (v.contact_types ?? []).join(","),
        new_entity_name: v.new_entity_name,
      });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["new_entity_name", "contact_types"] });
      return redirectWithToast(request, returnUrl(request), { type: "success", message: res.data?.detail ?? "Assigned entity successfully." });
    }
    case "remove": {
      const submission = parseWithZod(formData, { schema: RemoveContactSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const id = submission.value.contact_id;
      const res = await apiPost(request, "remove-contact", { contact_id: id });
      if (!res.ok) return platformFailure(request, res, { submission });
      const selected = listParam(new URL(request.url).searchParams, "selected").filter((s) => s !== id);
      return redirectWithToast(request, returnUrl(request, { selected, tab: selected.length ? undefined : null }), {
        type: "success",
        message: "Contact removed.",
      });
    }
    case "unassign": {
      const submission = parseWithZod(formData, { schema: UnassignSchema });
      if (submission.status !== "success") throw data({ message: "The request was incomplete." }, { status: 400 });
      const res = await apiPost<{ detail?: string }>(request, "contact-unassign-entity", submission.value);
      if (!res.ok) return platformFailure(request, res);
      return redirectWithToast(request, returnUrl(request), { type: "success", message: res.data?.detail ?? "Unassigned entity successfully." });
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

/** Optional text fields: a cleared field is sent as '' so the platform clears it. */
function blanks(v: { first_name?: string; last_name?: string; phone?: string; address?: string; company_name?: string }) {
  return {
    first_name: v.first_name ?? "",
    last_name: v.last_name ?? "",
    phone: v.phone ?? "",
    address: v.address ?? "",
    company_name: v.company_name ?? "",
  };
}

/* Component ------------------------------------------------------------------------------------ */

export default function Contacts({ loaderData, actionData }: Route.ComponentProps) {
  const { table, contactTypes, entityNames, selectedContact, assigned, dialogContact, exportLink } = loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const canWrite = useCanWrite();
  // A readonly user is offered no change: no dialog, even by URL.
  const dialog = canWrite ? params.get("dialog") : null;
  const dialogId = params.get("id");
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const hasError = result?.status === "error";

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="Contacts" error={hasError} />
      <h1 id="page-title" className="text-2xl font-semibold">
        Contacts
      </h1>

      <DataTable
        caption="Contacts"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={contactName}
        selection="multiple"
        linkColumn="first_name"
        toolbar={
          <>
            {canWrite ? (
              <a href={dialogHref(location, "create")} className="btn btn-primary btn-sm">
                Add Contact
              </a>
            ) : null}
            {/* A plain link (a download, with or without JavaScript): what the search selects, as CSV. */}
            <a href={exportLink} className="btn btn-outline btn-sm" download>
              Export CSV
            </a>
          </>
        }
        rowMenu={
          canWrite
            ? (r, links, up) => (
                <RowMenu
                  label={`Actions for ${contactName(r)}`}
                  up={up}
                  links={links}
                  id={r.contact_id}
                  items={[
                    { label: "Update Contact", dialog: "update" },
                    { label: "Assign Entity", dialog: "assign" },
                    { label: "Remove Contact", dialog: "remove", danger: true },
                  ]}
                />
              )
            : undefined
        }
      />

      <SelectionStatus count={table.selected.length} plural="contacts">
        {selectedContact ? <ContactDetails contact={selectedContact} assigned={assigned ?? []} /> : null}
      </SelectionStatus>

      {dialog === "create" ? <CreateDialog contactTypes={contactTypes ?? []} entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "update" ? <UpdateDialog contact={dialogContact} contactTypes={contactTypes ?? []} lastResult={result} /> : null}
      {dialog === "assign" ? (
        <AssignDialog contact={dialogContact} contactTypes={contactTypes ?? []} entityNames={entityNames ?? []} lastResult={result} />
      ) : null}
      {dialog === "remove" ? (
        <ConfirmPhraseDialog
          name="remove"
          title="Remove Contact"
          phrase={REMOVE_PHRASE}
          intent="remove"
          fields={{ contact_id: dialogId ?? "" }}
          lastResult={result}
          submitLabel="Remove Contact"
        >
          <p className="mb-2">
            {dialogContact ? (
              <>
                Remove the contact <strong>{contactName(dialogContact)}</strong> ({dialogContact.email})? Its entity assignments are removed
                too.
              </>
            ) : (
              "This contact no longer exists."
            )}
          </p>
        </ConfirmPhraseDialog>
      ) : null}
      {dialog === "unassign" && selectedContact ? <UnassignDialog contact={selectedContact} entityName={dialogId ?? ""} /> : null}
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
