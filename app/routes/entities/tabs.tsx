import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { TabPanel, Tabs } from "../../components/tabs.tsx";
import { formatTime, formatTypes } from "../../lib/format.ts";
import type { ListPage } from "../../../platform/contract/list.ts";
import type { Entity, EntityContact } from "./schemas.ts";

/* The selected entity's tabs: Contacts (spec 2 §2: first name, last name, email, phone, type, entity name, created at). */

export function EntityTabs({ entity, contacts, error }: { entity: Entity; contacts: ListPage<EntityContact>; error: string | null }) {
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
            <>
              <ContactsTable entity={entity} contacts={contacts.items} />
              <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                {contacts.total > contacts.items.length ? (
                  <span>
                    Showing {contacts.items.length} of {contacts.total} contacts.
                  </span>
                ) : null}
                <a href={`/contacts/export.csv?entity_id=${encodeURIComponent(entity.entity_id)}`} className="link" download>
                  Export contacts of {entity.entity_name} (CSV)
                </a>
              </p>
            </>
          )}
        </TabPanel>
      </div>
    </div>
  );
}

const contactColumns: SimpleColumn<EntityContact>[] = [
  { id: "first_name", header: "First Name", cell: (c) => c.first_name },
  { id: "last_name", header: "Last Name", cell: (c) => c.last_name },
  { id: "email", header: "Email", className: "sm:whitespace-nowrap", cell: (c) => c.email },
  { id: "phone", header: "Phone", cell: (c) => c.phone },
  { id: "contact_type", header: "Type", cell: (c) => formatTypes(c.contact_type) },
  { id: "entity_name", header: "Entity Name", cell: (c) => c.entity_name },
  { id: "created_at", header: "Created at", className: "sm:whitespace-nowrap", cell: (c) => formatTime(c.created_at) },
];

function ContactsTable({ entity, contacts }: { entity: Entity; contacts: EntityContact[] }) {
  return <SimpleTable caption={`Contacts of ${entity.entity_name}`} columns={contactColumns} rows={contacts} getRowId={(c) => c.contact_id} />;
}
