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
            <th scope="col">Created at</th>
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
                <td data-label="Type">{formatTypes(c.contact_type)}</td>
                <td data-label="Entity Name">{c.entity_name}</td>
                <td data-label="Created at" className="sm:whitespace-nowrap">{formatTime(c.created_at)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

