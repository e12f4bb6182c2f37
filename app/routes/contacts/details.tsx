import { Form, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { keptParams } from "../../lib/url.ts";
import { DetailsTable } from "../../components/details-table.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTypes } from "../../lib/format.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { defineTabs, useTab } from "../../components/tabs.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { contactName, type AssignedEntity, type Contact } from "./model.tsx";
import { useCanWrite, useIsPending } from "../../components/hooks.ts";

/*
 * The selected contact (exactly one selected): a Details tab listing its assigned entities, each
 * with Unassign Entity (a button that asks for confirmation in a dialog: ?dialog=unassign&id={entity}).
 */

const tabs = defineTabs({ details: "Details" });

/** Unassign: a GET form opening the confirmation dialog (the URL keeps the rest of the state). */
function UnassignButton({ entityName }: { entityName: string }) {
  const location = useLocation();
  return (
    <Form method="get" preventScrollReset>
      {keptParams(location.search, []).map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="dialog" value="unassign" />
      <input type="hidden" name="id" value={entityName} />
      <button type="submit" className="btn btn-outline btn-error btn-xs" aria-label={`Unassign Entity ${entityName}`}>
        Unassign Entity
      </button>
    </Form>
  );
}

const assignedColumns: SimpleColumn<AssignedEntity>[] = [
  { id: "entity_name", header: "Entity Name", cell: (e) => e.entity_name },
  { id: "description", header: "Description", cell: (e) => e.description },
  { id: "contact_types", header: "Types", cell: (e) => formatTypes(e.contact_types) },
  // Writers only (the column is left out for a readonly user).
  { id: "actions", header: "Actions", kind: "actions", className: "text-right", cell: (e) => <UnassignButton entityName={e.entity_name} /> },
];

export function ContactDetails({ contact, assigned }: { contact: Contact; assigned: AssignedEntity[] }) {
  const tab = useTab(tabs);
  const name = contactName(contact);
  const canWrite = useCanWrite();
  return (
    <SubjectTabs name={name} label={`Contact ${name}`} tabs={tabs.list} current={tab}>
      <DetailsTable
        className="mb-4"
        items={[
          { label: "Email", value: contact.email },
          { label: "Phone", value: contact.phone },
          { label: "Company", value: contact.company_name },
          { label: "Type", value: contact.contact_type },
        ]}
      />
      <h3 className="mb-2 font-semibold">Assigned entities</h3>
      <SimpleTable caption={`Assigned entities of ${name}`} columns={canWrite ? assignedColumns : assignedColumns.slice(0, 3)} rows={assigned} getRowId={(e) => e.entity_id} />
    </SubjectTabs>
  );
}

export function UnassignDialog({ contact, entityName }: { contact: Contact; entityName: string }) {
  const pending = useIsPending({ intent: "unassign" });
  return (
    <UrlDialog name="unassign" title="Unassign Entity">
      <Form method="post">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="unassign" />
        <input type="hidden" name="contact_id" value={contact.contact_id} />
        <input type="hidden" name="entity_name" value={entityName} />
        <p>
          Unassign <strong>{contactName(contact)}</strong> from the entity <strong>{entityName}</strong>?
        </p>
        <DialogActions>
          <SubmitButton className="btn btn-error" pending={pending}>
            Unassign Entity
          </SubmitButton>
        </DialogActions>
      </Form>
    </UrlDialog>
  );
}
