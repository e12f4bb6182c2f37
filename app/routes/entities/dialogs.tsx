import { type SubmissionResult } from "@conform-to/react";
import { useLoaderData, useNavigation } from "react-router";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { splitEmails, type Entity } from "./schemas.ts";
import type { loader } from "./route.tsx";
import { usePendingIntent } from "../../components/hooks.ts";

/* The Entities screen's form dialogs (spec 2 §4/§5), each opened by URL (?dialog=…&id=…). */

export type ActionResult = SubmissionResult<string[]> | undefined;

// ---------------------------------------------------------------------------------------------
// Dialogs

function usePending(intent: string) {
  // Conform's re-validations on blur are not a submission.
  return usePendingIntent() === intent;
}

export function AddEntityDialog({ parentChoices, lastResult }: { parentChoices: string[]; lastResult: ActionResult }) {
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

export function EditEntityDialog({ entity, lastResult }: { entity: Entity; lastResult: ActionResult }) {
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

export function AssignParentDialog({ entity, parentChoices, lastResult }: { entity: Entity; parentChoices: string[]; lastResult: ActionResult }) {
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

