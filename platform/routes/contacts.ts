import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { contactSortable } from "../contract/contacts.ts";
import {
  AssignedEntity,
  AssignEntityBody,
  Contact,
  ContactCreated,
  ContactIdBody,
  ContactPage,
  CreateContactBody,
  UnassignEntityBody,
  UpdateContactBody,
} from "../contract/contacts.shapes.ts";
import {
  assignedEntities,
  assignEntity,
  contactDetail,
  contactList,
  contactTypes,
  createContact,
  exportContacts,
  parseContactTypes,
  removeContact,
  unassignEntity,
  updateContact,
} from "../domain/contacts.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { idField } from "../lib/fields.ts";
import { ndjsonResponse, wantsPage } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";
import { contactMessages, entityMessages } from "../contract/messages.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

const entityFilter = idField("Entity id")
  .optional()
  .openapi({ description: "Only the contacts assigned to this entity (unknown id: 404)" });

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["Contacts"];

export const contactTypesRoute = defineCall({ method: "get", path: "/contact-types", tags, summary: "The contact types", response: z.array(z.enum(contactTypes)) });

const contactIdQuery = z.object({ contact_id: idField("Contact id", "con-5q2w8e1r4t6y") });

// The spec names the list in two spellings (contacts: get-contact, entities: get_contact): two operations, one query.
const contactCalls = (path: "/get-contact" | "/get_contact") =>
  defineListCalls({
    tags, sortable: contactSortable, filters: { entity_id: entityFilter }, item: Contact, itemName: "Contact", page: ContactPage, errors: [404],
    list: { path, tags: ["Contacts", "Entities"], summary: "The caller's contacts, or the contacts of one entity (get_contact and get-contact are the same call)", rows: ["contact", "sorted by creation time"] },
    export: { path: "/export-contacts", summary: "Every contact the search and filters select, streamed", description: "The rows of get-contact with the same q, sort and entity_id, all of them, as NDJSON (one Contact per line), streamed from SQL in batches. Readonly users may export." },
    detail: { path: "/get-contact-detail", summary: "One contact of the caller's account", description: "The contact as get-contact lists it. Unknown id, or another account's: 404 'Contact not found'.", query: contactIdQuery },
  });
export const { export: exportContactsRoute, detail: contactDetailRoute } = contactCalls("/get-contact");
/** The list in both spellings, for platform/contract/calls.ts. */
export type ContactListCall = ReturnType<typeof contactCalls>["list"];

// get-contact-by-ep-id: platform/routes/endpoints.ts (it reads the endpoint's contacts).

// A change of one contact; an unknown contact or entity answers 404.
export const createContactRoute = defineChange({
  path: "/create-contact",
  tags,
  summary: "Create a contact and assign it to an entity",
  description:
    "Answers 'Contact successfully created.' and the new contact_id. The contact holds contact_type for the entity. Unknown entity: 404 'Entity {name} not found.'.",
  body: CreateContactBody,
  response: ContactCreated,
});

export const updateContactRoute = defineChange({
  path: "/update-contact",
  tags,
  summary: "Update a contact",
  description: "Answers 'Contact successfully updated.'. Entity assignments are changed with contact-assign-entity.",
  body: UpdateContactBody,
});

export const removeContactRoute = defineChange({ path: "/remove-contact", tags, summary: "Remove a contact and its entity assignments", description: "Answers 'Contact removed.'.", body: ContactIdBody });

export const assignedEntitiesRoute = defineCall({
  method: "get",
  path: "/get-contact-assigned-entities",
  tags,
  summary: "The entities a contact is assigned to, with the types it holds there",
  query: contactIdQuery,
  response: z.array(AssignedEntity),
  errors: [404],
});

export const assignEntityRoute = defineChange({
  path: "/contact-assign-entity",
  tags,
  summary: "Assign a contact to an entity with types",
  description:
    "Answers 'Assigned entity successfully.'. Assigning an entity the contact already has replaces its types. A missing entity or no type: 422 'Please select an entity and types.'.",
  body: AssignEntityBody,
});

export const unassignEntityRoute = defineChange({
  path: "/contact-unassign-entity",
  tags,
  summary: "Unassign a contact from an entity",
  description: "Answers 'Unassigned entity successfully.'; 404 when the contact is not assigned to that entity.",
  body: UnassignEntityBody,
});

export function registerContactCalls(app: PlatformApp) {
  app.openapi(contactTypesRoute, async (c) => {
    caller(c);
    return c.json([...contactTypes], 200);
  });

  // The spec names this call in two spellings (contacts: get-contact, entities: get_contact).
  for (const path of ["/get-contact", "/get_contact"] as const) {
    app.openapi(contactCalls(path).list, async (c) => {
      const query = c.req.valid("query");
      return contactList.answer(c, caller(c).accountId, { ...query, entityId: query.entity_id }, wantsPage(query));
    });
  }

  app.openapi(contactDetailRoute, answerQuery(contactDetailRoute, (deps, who, q) => contactDetail(deps.db, who.accountId, q.contact_id)));

  app.openapi(exportContactsRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    const rows = exportContacts(c.get("deps").db, who.accountId, { ...query, entityId: query.entity_id });
    return ndjsonResponse(rows, c.req.raw.signal);
  });

  app.openapi(
    createContactRoute,
    answerChange(createContactRoute, (deps, who, b) => createContact(deps.db, who.accountId, b), (contactId) => ({ contact_id: contactId, detail: contactMessages.created })),
  );
  app.openapi(updateContactRoute, answerDetail(updateContactRoute, (deps, who, b) => updateContact(deps.db, who.accountId, b), contactMessages.updated));
  app.openapi(removeContactRoute, answerDetail(removeContactRoute, (deps, who, b) => removeContact(deps.db, who.accountId, b.contact_id), "Contact removed."));
  app.openapi(assignedEntitiesRoute, answerQuery(assignedEntitiesRoute, (deps, who, q) => assignedEntities(deps.db, who.accountId, q.contact_id)));
  app.openapi(
    assignEntityRoute,
    answerDetail(
      assignEntityRoute,
      (deps, who, b) =>
        assignEntity(deps.db, who.accountId, { contact_id: b.contact_id, new_entity_name: b.new_entity_name, contact_types: parseContactTypes(b.contact_types).types }),
      entityMessages.assigned,
    ),
  );
  app.openapi(unassignEntityRoute, answerDetail(unassignEntityRoute, (deps, who, b) => unassignEntity(deps.db, who.accountId, b), entityMessages.unassigned));
}
