import type { CreateEntitySchema } from "./schemas.server.ts";
import type { z } from "zod";
import { type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextareaField, TextField, useIntentForm } from "../../components/forms.tsx";
import { splitEmails, type Entity } from "./schemas.ts";
import { useIsPending } from "../../components/hooks.ts";

/* The Entities screen's form dialogs (spec 2 §4/§5), each opened by URL (?dialog=…&id=…). */

export type ActionResult = SubmissionResult<string[]> | undefined;

/**
 * The frame of the three form dialogs: the document title, the form (its summary and intent), the
 * entity it is about (hidden id + name), the fields, Cancel and the submit button.
 */
function EntityFormDialog({
  name,
  title,
  form,
  intent,
  entity,
  submitLabel,
  children,
}: {
  name: string;
  title: string;
  form: Parameters<typeof ConformForm>[0]["form"];
  intent: string;
  entity?: Entity;
  submitLabel: string;
  children: ReactNode;
}) {
  const pending = useIsPending({ intent });
  return (
    <UrlDialog name={name} title={title}>
      <PageTitle title={`${title} - Entities`} error={formHasErrors(form)} />
      <ConformForm form={form} intent={intent}>
        {entity ? (
          <>
            <input type="hidden" name="entity_id" value={entity.entity_id} />
            <p className="mb-1">
              Entity: <strong>{entity.entity_name}</strong>
            </p>
          </>
        ) : null}
        {children}
        <DialogActions>
          <SubmitButton pending={pending}>{submitLabel}</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

export function AddEntityDialog({ parentChoices, lastResult }: { parentChoices: string[]; lastResult: ActionResult }) {
  const { form, fields } = useIntentForm<z.input<typeof CreateEntitySchema>>("add", { id: "add-entity", lastResult });
  return (
    <EntityFormDialog name="add" title="Add Entity" form={form} intent="create" submitLabel="Add Entity">
      <TextField field={fields.entity_name} label="Entity Name" autoComplete="off" />
      <TextareaField field={fields.description} label="Description" />
      <SelectField
        field={fields.parent_entity_name}
        label="Parent Entity Name"
        options={parentChoices.map((n) => ({ value: n, label: n }))}
        placeholder="None"
      />
    </EntityFormDialog>
  );
}

export function EditEntityDialog({ entity, lastResult }: { entity: Entity; lastResult: ActionResult }) {
  const { form, fields } = useIntentForm("edit", {
    id: "edit-entity",
    lastResult,
    defaultValue: { entity_id: entity.entity_id, description: entity.description, email: splitEmails(entity.email).join(", ") },
  });
  return (
    <EntityFormDialog name="edit" title="Edit Entity" form={form} intent="edit" entity={entity} submitLabel="Save">
      <TextareaField field={fields.description} label="Description" />
      <TextField
        field={fields.email}
        label="Alert Message Emails"
        autoComplete="off"
        hint="Separate several addresses with commas, e.g. noc@example.com, ops@example.com"
      />
    </EntityFormDialog>
  );
}

export function AssignParentDialog({ entity, parentChoices, lastResult }: { entity: Entity; parentChoices: string[]; lastResult: ActionResult }) {
  const { form, fields } = useIntentForm("assign", {
    id: "assign-parent",
    lastResult,
    defaultValue: { entity_id: entity.entity_id, parent_entity_name: entity.parent_entity_name },
  });
  // The current parent stays a choice even if the platform no longer lists it.
  const names = entity.parent_entity_name && !parentChoices.includes(entity.parent_entity_name) ? [entity.parent_entity_name, ...parentChoices] : parentChoices;
  return (
    <EntityFormDialog name="assign-parent" title="Assign Parent Entity" form={form} intent="assign-parent" entity={entity} submitLabel="Assign">
      <SelectField
        field={fields.parent_entity_name}
        label="Parent Entity Name"
        options={names.map((n) => ({ value: n, label: n }))}
        placeholder="None"
        hint="Choose None to make it a top-level entity."
      />
    </EntityFormDialog>
  );
}
