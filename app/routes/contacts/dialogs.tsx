import type { AssignEntitySchema } from "./schemas.server.tsx";
import type { z } from "zod";
import { getCollectionProps, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CONTACT_GONE, contactName, type Contact } from "./model.tsx";
import { DialogActions, DialogWarning, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextareaField, TextField, useIntentForm } from "../../components/forms.tsx";

/*
 * The Contacts screen's dialogs (opened by ?dialog=create|update|assign). The action validates
 * with the same schemas; no client-side validation, so the "Error:" title and the summary come
 * from the same server reply with and without JavaScript.
 */

type Result = SubmissionResult<string[]> | null | undefined;

const labels = {
  first_name: "First Name",
  last_name: "Last Name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  company_name: "Company",
  contact_type: "Type",
  entity_name: "Entity",
  new_entity_name: "Entity",
  contact_types: "Types",
};

const typeOptions = (types: string[]) => types.map((t) => ({ value: t, label: t }));


export function CreateDialog({ contactTypes, entityNames, lastResult }: { contactTypes: string[]; entityNames: string[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<Record<keyof ContactFieldSet | "entity_name", string>>("create", { id: "create-contact", lastResult });
  return (
    <UrlDialog name="create" title="Add Contact" size="lg">
      {entityNames.length === 0 ? (
        <>
          <p>
            There are no entities yet. A contact belongs to an entity: <Link to="/entities" className="link link-primary">create an entity</Link>{" "}
            first.
          </p>
          <DialogActions />
        </>
      ) : (
        <ConformForm form={form} intent="create" labels={labels}>
          <ContactFields fields={fields} types={contactTypes}>
            <SelectField
              field={fields.entity_name}
              label={labels.entity_name}
              options={entityNames.map((n) => ({ value: n, label: n }))}
              placeholder="Select an entity"
            />
          </ContactFields>
          <DialogActions>
            <SubmitButton pending={pending}>Add Contact</SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

type ContactFieldSet = Record<"first_name" | "last_name" | "email" | "phone" | "company_name" | "contact_type" | "address", Parameters<typeof TextField>[0]["field"]>;

/** The fields Add Contact and Update Contact share (`children`: more, after the type). */
function ContactFields({ fields, types, children }: { fields: ContactFieldSet; types: string[]; children?: ReactNode }) {
  return (
    <>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextField field={fields.first_name} label={labels.first_name} autoComplete="off" />
        <TextField field={fields.last_name} label={labels.last_name} autoComplete="off" />
        <TextField field={fields.email} label={labels.email} type="email" autoComplete="off" />
        <TextField field={fields.phone} label={labels.phone} type="tel" autoComplete="off" />
        <TextField field={fields.company_name} label={labels.company_name} autoComplete="off" />
        <SelectField field={fields.contact_type} label={labels.contact_type} options={typeOptions(types)} placeholder="Select a type" />
        {children}
      </div>
      <TextareaField field={fields.address} label={labels.address} rows={2} />
    </>
  );
}

function Missing() {
  return (
    <>
      <p>{CONTACT_GONE}</p>
      <DialogActions />
    </>
  );
}

export function UpdateDialog({ contact, contactTypes, lastResult }: { contact: Contact | null; contactTypes: string[]; lastResult: Result }) {
  return (
    <UrlDialog name="update" title="Update Contact" size="lg">
      {contact ? <UpdateForm key={contact.contact_id} contact={contact} contactTypes={contactTypes} lastResult={lastResult} /> : <Missing />}
    </UrlDialog>
  );
}

function UpdateForm({ contact, contactTypes, lastResult }: { contact: Contact; contactTypes: string[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm("update", {
    id: `update-contact-${contact.contact_id}`,
    lastResult,
    defaultValue: {
      first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email,
    phone: contact.phone,
    address: contact.address,
    company_name: contact.company_name,
    contact_type: contact.contact_type,
    },
  });
  // The platform's types, plus the contact's own if it is not (or no longer) one of them.
  const types = contactTypes.includes(contact.contact_type) || !contact.contact_type ? contactTypes : [...contactTypes, contact.contact_type];
  return (
    <ConformForm form={form} intent="update" labels={labels}>
      <input type="hidden" name="contact_id" value={contact.contact_id} />
      <ContactFields fields={fields} types={types} />
      <DialogActions>
        <SubmitButton pending={pending}>Update Contact</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function AssignDialog({
  contact,
  contactTypes,
  entityNames,
  lastResult,
}: {
  contact: Contact | null;
  contactTypes: string[];
  entityNames: string[];
  lastResult: Result;
}) {
  return (
    <UrlDialog name="assign" title="Assign Entity">
      {contact ? (
        <AssignForm key={contact.contact_id} contact={contact} contactTypes={contactTypes} entityNames={entityNames} lastResult={lastResult} />
      ) : (
        <Missing />
      )}
    </UrlDialog>
  );
}

function AssignForm({ contact, contactTypes, entityNames, lastResult }: { contact: Contact; contactTypes: string[]; entityNames: string[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<z.input<typeof AssignEntitySchema>>("assign", { id: `assign-entity-${contact.contact_id}`, lastResult });
  const typesField = fields.contact_types;
  const typesErrorId = typesField.errorId;
  const typesInvalid = Boolean(typesField.errors?.length);
  return (
    <ConformForm form={form} intent="assign" labels={labels}>
      <input type="hidden" name="contact_id" value={contact.contact_id} />
      <p className="mb-2">
        Assign <strong>{contactName(contact)}</strong> to an entity. Assigning an entity the contact already has replaces its types there.
      </p>
      {entityNames.length === 0 ? (
        <DialogWarning>
          There are no entities yet. <Link to="/entities" className="link">Create an entity</Link> first.
        </DialogWarning>
      ) : null}
      <SelectField
        field={fields.new_entity_name}
        label={labels.new_entity_name}
        options={entityNames.map((n) => ({ value: n, label: n }))}
        placeholder="Select an entity"
      />
      <fieldset
        className="fieldset"
        id={`${form.id}-contact_types`}
        aria-invalid={typesInvalid || undefined}
        aria-describedby={typesInvalid ? typesErrorId : undefined}
        tabIndex={-1}
      >
        <legend className="fieldset-legend">{labels.contact_types}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {getCollectionProps(typesField, { type: "checkbox", options: contactTypes }).map((props) => {
            const { key, ...rest } = props;
            return (
              <label key={key} className="label cursor-pointer gap-2">
                <input {...rest} className="checkbox checkbox-sm" />
                <span className="text-base-content">{props.value}</span>
              </label>
            );
          })}
        </div>
        {typesInvalid ? (
          <p id={typesErrorId} className="text-error mt-1 text-sm">
            {typesField.errors!.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <DialogActions>
        <SubmitButton pending={pending}>Assign Entity</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
