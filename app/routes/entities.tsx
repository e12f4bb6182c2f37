import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, isRouteErrorResponse, Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "react-router";
import { z } from "zod";
import { ConfirmPhraseDialog, confirmPhraseSchema } from "../components/confirm-phrase.tsx";
import { formConstraints } from "../components/constraints.server.ts";
import { DataTable, SelectionStatus, type Column } from "../components/data-table.tsx";
import { DialogActions, UrlDialog } from "../components/dialog.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../components/forms.tsx";
import { RowMenu } from "../components/row-menu.tsx";
import { TabPanel, Tabs } from "../components/tabs.tsx";
import { apiGet, apiGetOrThrow, apiPost } from "../lib/api.server.ts";
import { readForm } from "../lib/csrf.server.ts";
import { detailMessages } from "../lib/forms.server.ts";
import { requireSession } from "../lib/session.server.ts";
import { pageRows, parseTableQuery, platformFailure } from "../lib/table.server.ts";
import { redirectWithToast } from "../lib/toast.server.ts";
import { dialogHref, returnUrl } from "../lib/url.ts";
import type { Route } from "./+types/entities";

/*
 * /entities (spec 2 §2, §3, §4, §5, §7, §8; spec 3 §5, §8): the organisation tree of the account.
 * A table (Name, Parent Entity Name, Description, Alert Message Emails, Entity ID) with Add Entity
 * and a row menu (Edit Entity, Assign Parent Entity, Delete Entity); the selected row
 * (`?selected=`) shows its contacts in a Contacts tab under the table. Every dialog opens by URL
 * (`?dialog=add|edit|assign-parent|delete&id=…`) and posts to the action below, so it all works
 * without JavaScript.
 */

// ---------------------------------------------------------------------------------------------
// Data shapes (spec 2 §3, spec 3 §3)

export interface Entity {
  entity_id: string;
  entity_name: string;
  /** '' for a top-level entity. */
  parent_entity_name: string;
  description: string;
  /** Alert e-mail addresses, comma separated ('' when none). */
  email: string;
  created_at?: string;
}

export interface EntityContact {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  contact_type: string;
  entity_name: string;
  created_at: string;
}

// ---------------------------------------------------------------------------------------------
// One schema per form (spec 2 §5, spec 3 §5). The limits are the platform's.

const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;
const EMAILS_MAX = 2000;

/** The same address rule as the platform (zod's). */
const emailPattern = z.regexes.email;

/** The addresses of a comma separated list: trimmed, without blanks and case-insensitive repeats. */
export function splitEmails(value: string | null | undefined): string[] {
  const seen = new Set<string>();
  return (value ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0 && !seen.has(e.toLowerCase()) && Boolean(seen.add(e.toLowerCase())));
}

export const emailError = (address: string) => `Not a valid e-mail address: ${address}`;

export const CreateEntitySchema = z.object({
  entity_name: z
    .string({ error: "Entity name is required." })
    .trim()
    .min(1, "Entity name is required.")
    .max(NAME_MAX, `Entity name must be at most ${NAME_MAX} characters.`),
  description: z.string().trim().max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`).optional(),
  parent_entity_name: z.string().optional(),
});

export const EditEntitySchema = z.object({
  entity_id: z.string({ error: "The entity is missing." }),
  description: z
    .string({ error: "Description is required." })
    .trim()
    .min(1, "Description is required.")
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`),
  email: z
    .string()
    .max(EMAILS_MAX, `Alert message e-mails must be at most ${EMAILS_MAX} characters.`)
    .optional()
    .superRefine((value, ctx) => {
      for (const address of splitEmails(value)) {
        if (!emailPattern.test(address)) ctx.addIssue({ code: "custom", message: emailError(address) });
      }
    })
    .transform((value) => splitEmails(value).join(",")),
});

export const AssignParentSchema = z.object({
  entity_id: z.string({ error: "The entity is missing." }),
  /** Empty ('None') makes the entity top-level. */
  parent_entity_name: z.string().optional(),
});

/** Delete: the typed phrase must be the entity id (spec 2 §4/§5, spec 3 §5). */
const deleteSchema = (entityId: string) => confirmPhraseSchema(entityId, { entity_id: z.string({ error: "The entity is missing." }) });

/** Success toasts (the spec gives no wording for them). */
export const toastText = {
  created: "Entity created.",
  updated: "Entity updated.",
  parentAssigned: "Parent entity assigned.",
  parentCleared: "Parent entity cleared.",
  removed: "Entity removed.",
} as const;

// ---------------------------------------------------------------------------------------------
// Server

const DIALOGS = ["add", "edit", "assign-parent", "delete"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, {
    sortable: ["entity_name", "parent_entity_name", "description", "email", "entity_id"],
  });
  const entities = await apiGetOrThrow<Entity[]>(request, "get_entity");
  const table = pageRows(entities, state, {
    getRowId: (e) => e.entity_id,
    search: ["entity_name", "parent_entity_name", "description", "email", "entity_id"],
  });

  // The dialog the URL asks for, and the entity it is about.
  const dialogParam = url.searchParams.get("dialog");
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? "") ? (dialogParam as (typeof DIALOGS)[number]) : null;
  const idParam = url.searchParams.get("id");
  const target = idParam ? (entities.find((e) => e.entity_id === idParam) ?? null) : null;

  // Parent choices: any entity for a new one; for Assign Parent Entity, all but the entity and those below it.
  let parentChoices: string[] = [];
  if (dialog === "add") {
    parentChoices = await apiGetOrThrow<string[]>(request, "get_entity_names", { parent: "true" });
  } else if (dialog === "assign-parent" && target) {
    parentChoices = await apiGetOrThrow<string[]>(request, "get_entity_names", { parent: "true", entity_id: target.entity_id });
  }

  // The selected entity's contacts (the Contacts tab).
  const selected = table.selected.length === 1 ? (entities.find((e) => e.entity_id === table.selected[0]) ?? null) : null;
  let contacts: EntityContact[] = [];
  let contactsError: string | null = null;
  if (selected) {
    const result = await apiGet<EntityContact[]>(request, "get_contact", { entity_id: selected.entity_id });
    if (result.ok) contacts = Array.isArray(result.data) ? result.data : [];
    else contactsError = detailMessages(result.detail).join(" ");
  }

  return data(
    {
      table, dialog, target: dialog && dialog !== "add" ? target : null, parentChoices, selected, contacts, contactsError,
      // The dialogs' constraints, from their schemas on the server (zod stays out of the browser).
      constraints: formConstraints({ add: CreateEntitySchema, edit: EditEntitySchema, assign: AssignParentSchema }),
    },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  await requireSession(request);
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

/** The addresses, one per line, so a long list wraps between addresses. */
function Emails({ value }: { value: string }) {
  const list = splitEmails(value);
  if (list.length === 0) return null;
  return (
    <ul className="space-y-0.5">
      {list.map((e) => (
        <li key={e} className="wrap-anywhere">
          {e}
        </li>
      ))}
    </ul>
  );
}

const columns: Column<Entity>[] = [
  { id: "entity_name", header: "Name", sortable: true, cell: (e) => e.entity_name, className: "min-w-32" },
  { id: "parent_entity_name", header: "Parent Entity Name", sortable: true, cell: (e) => e.parent_entity_name },
  {
    id: "description",
    header: "Description",
    sortable: true,
    cell: (e) => (
      <span className="line-clamp-3 whitespace-pre-line" title={e.description}>
        {e.description}
      </span>
    ),
    className: "min-w-48 max-w-md",
  },
  { id: "email", header: "Alert Message Emails", sortable: true, cell: (e) => <Emails value={e.email} />, className: "min-w-56" },
  { id: "entity_id", header: "Entity ID", sortable: true, cell: (e) => <span className="font-mono text-xs whitespace-nowrap">{e.entity_id}</span> },
];

/** '2025-03-01 14:05 UTC': the same text on the server and in any browser. */
function formatTime(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const contactTypeLabel = (t: string) =>
  t
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join(", ");

type ActionResult = SubmissionResult<string[]> | undefined;

export default function EntitiesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { table, dialog, target, parentChoices, selected, contacts, contactsError } = loaderData;
  const location = useLocation();
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
          <Link to={dialogHref(location, "add")} className="btn btn-primary btn-sm" preventScrollReset>
            Add Entity
          </Link>
        }
        rowMenu={(e, links, up, index) => (
          <RowMenu
            label={`Actions for ${e.entity_name}`}
            // The kit opens the last two rows upward only from 4 rows on; with exactly 3, the last
            // row's menu would be cut off by the scroll box when a row is tall (several e-mails).
            up={up || (table.rowCount === 3 && index === 2)}
            items={[
              { label: "Edit Entity", href: links.dialog("edit", e.entity_id) },
              { label: "Assign Parent Entity", href: links.dialog("assign-parent", e.entity_id) },
              { label: "Delete Entity", href: links.dialog("delete", e.entity_id), danger: true },
            ]}
          />
        )}
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

function EntityTabs({ entity, contacts, error }: { entity: Entity; contacts: EntityContact[]; error: string | null }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <Tabs label={`Details of ${entity.entity_name}`} tabs={[{ id: "contacts", label: "Contacts" }]} current="contacts" />
        <TabPanel tab="contacts">
          {error ? (
            <p role="alert" className="text-error">
              {error}
            </p>
          ) : (
            <ContactsTable entity={entity} contacts={contacts} />
          )}
        </TabPanel>
      </div>
    </div>
  );
}

function ContactsTable({ entity, contacts }: { entity: Entity; contacts: EntityContact[] }) {
  return (
    // The kit's table classes: a stacked list on phones (app.css), no scrolling region there.
    <div className="kit-table-wrap">
      <table className="kit-table table table-sm">
        <caption className="sr-only">Contacts of {entity.entity_name}</caption>
        <thead>
          <tr>
            <th scope="col">First Name</th>
            <th scope="col">Last Name</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            <th scope="col">Type</th>
            <th scope="col">Entity Name</th>
            <th scope="col">Created At</th>
          </tr>
        </thead>
        <tbody>
          {contacts.length === 0 ? (
            <tr>
              <td colSpan={7} className="text-base-content/70 py-6 text-center">
                No data
              </td>
            </tr>
          ) : (
            contacts.map((c) => (
              <tr key={c.contact_id}>
                <td className="kit-cell-name">{c.first_name}</td>
                <td data-label="Last Name">{c.last_name}</td>
                <td data-label="Email" className="sm:whitespace-nowrap">{c.email}</td>
                <td data-label="Phone">{c.phone}</td>
                <td data-label="Type">{contactTypeLabel(c.contact_type)}</td>
                <td data-label="Entity Name">{c.entity_name}</td>
                <td data-label="Created At" className="sm:whitespace-nowrap">{formatTime(c.created_at)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Dialogs

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function AddEntityDialog({ parentChoices, lastResult }: { parentChoices: string[]; lastResult: ActionResult }) {
  const [form, fields] = useForm({
    id: "add-entity",
    lastResult,
    constraint: useLoaderData<typeof loader>().constraints.add,
  });
  const pending = usePending("create");
  return (
    <UrlDialog name="add" title="Add Entity">
      <PageTitle title="Add Entity - Entities" error={formHasErrors(form)} />
      <ConformForm
        form={form}
        intent="create"
        labels={{ entity_name: "Entity Name", description: "Description", parent_entity_name: "Parent Entity Name" }}
      >
        <TextField field={fields.entity_name} label="Entity Name" autoComplete="off" />
        <TextareaField field={fields.description} label="Description" />
        <SelectField
          field={fields.parent_entity_name}
          label="Parent Entity Name"
          options={parentChoices.map((n) => ({ value: n, label: n }))}
          placeholder="None"
        />
        <DialogActions>
          <SubmitButton pending={pending}>Add Entity</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

function EditEntityDialog({ entity, lastResult }: { entity: Entity; lastResult: ActionResult }) {
  const [form, fields] = useForm({
    id: "edit-entity",
    lastResult,
    defaultValue: { entity_id: entity.entity_id, description: entity.description, email: splitEmails(entity.email).join(", ") },
    constraint: useLoaderData<typeof loader>().constraints.edit,
  });
  const pending = usePending("edit");
  return (
    <UrlDialog name="edit" title="Edit Entity">
      <PageTitle title="Edit Entity - Entities" error={formHasErrors(form)} />
      <ConformForm form={form} intent="edit" labels={{ description: "Description", email: "Alert Message Emails" }}>
        <input type="hidden" name="entity_id" value={entity.entity_id} />
        <p className="mb-1">
          Entity: <strong>{entity.entity_name}</strong>
        </p>
        <TextareaField field={fields.description} label="Description" />
        <TextField
          field={fields.email}
          label="Alert Message Emails"
          autoComplete="off"
          hint="Separate several addresses with commas, e.g. noc@example.com, ops@example.com"
        />
        <DialogActions>
          <SubmitButton pending={pending}>Save</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

function AssignParentDialog({ entity, parentChoices, lastResult }: { entity: Entity; parentChoices: string[]; lastResult: ActionResult }) {
  const [form, fields] = useForm({
    id: "assign-parent",
    lastResult,
    defaultValue: { entity_id: entity.entity_id, parent_entity_name: entity.parent_entity_name },
    constraint: useLoaderData<typeof loader>().constraints.assign,
  });
  const pending = usePending("assign-parent");
  // The current parent stays a choice even if the platform no longer lists it.
  const names = entity.parent_entity_name && !parentChoices.includes(entity.parent_entity_name) ? [entity.parent_entity_name, ...parentChoices] : parentChoices;
  return (
    <UrlDialog name="assign-parent" title="Assign Parent Entity">
      <PageTitle title="Assign Parent Entity - Entities" error={formHasErrors(form)} />
      <ConformForm form={form} intent="assign-parent" labels={{ parent_entity_name: "Parent Entity Name" }}>
        <input type="hidden" name="entity_id" value={entity.entity_id} />
        <p className="mb-1">
          Entity: <strong>{entity.entity_name}</strong>
        </p>
        <SelectField
          field={fields.parent_entity_name}
          label="Parent Entity Name"
          options={names.map((n) => ({ value: n, label: n }))}
          placeholder="None"
          hint="Choose None to make it a top-level entity."
        />
        <DialogActions>
          <SubmitButton pending={pending}>Assign</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

/**
 * Errors of this page render inside the shell's <main> (so no second <main> here); the
 * platform-down case retries by itself, like the root ErrorPage.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!unavailable) return;
    const timer = setInterval(() => revalidator.revalidate(), 5000);
    return () => clearInterval(timer);
  }, [unavailable, revalidator]);
  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again.";
  if (unavailable) {
    title = "Service unavailable";
    message = "The service is unavailable right now. This page will retry by itself.";
  } else if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Error 404" : `Error ${error.status}`;
    const body = error.data as { message?: string } | string | undefined;
    message = typeof body === "string" ? body : (body?.message ?? (error.status === 404 ? "Page Not Found" : message));
  }
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="Entities" error />
      {unavailable ? <meta httpEquiv="refresh" content="10" /> : null}
      <h1 id="page-title" className="text-2xl font-semibold">
        Entities
      </h1>
      <div role="alert" className="alert alert-error flex-col items-start">
        <h2 className="font-semibold">{title}</h2>
        <p>{message}</p>
        <Link to="/entities" className="btn btn-sm">
          Back to Entities
        </Link>
      </div>
    </section>
  );
}
