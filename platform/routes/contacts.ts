import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { contactLimits, contactSortable, type AssignedEntity, type Contact } from "../contract/contacts.ts";
import {
  assignedEntities,
  assignEntity,
  contactDetail,
  contactTypes,
  createContact,
  exportContacts,
  listContacts,
  queryContacts,
  parseContactTypes,
  removeContact,
  unassignEntity,
  updateContact,
} from "../domain/contacts.ts";
import { cachedJson } from "../lib/auth.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { emailField, idField, isSingleLine, junkMessage, limits, line, maxMessage, multiline, requiredName } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, ndjsonResponse, pageSchema, wantsPage } from "../lib/list.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

const typeList = contactTypes.join(", ");
const selectEntityAndTypes = "Please select an entity and types.";

const contactTypeField = () =>
  z
    .enum(contactTypes, {
      error: (iss) => (iss.input === undefined ? "Field required" : `Contact type must be one of: ${typeList}`),
    })
    .openapi({ description: "One of GET contact-types" });

const ContactSchema = z
  .object({
    contact_id: z.string().openapi({ example: "con-5q2w8e1r4t6y" }),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    company_name: z.string(),
    contact_type: z.string().openapi({
      description: "All contacts: the contact's own type. Contacts of an entity: the types it holds for that entity, comma-joined",
    }),
    entity_name: z.string().openapi({
      description: "All contacts: the first assigned entity's name, or ''. Contacts of an entity: that entity's name",
    }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Contact") satisfies z.ZodType<Contact>;

const AssignedEntitySchema = z
  .object({
    entity_name: z.string(),
    entity_id: z.string(),
    description: z.string(),
    contact_types: z.string().openapi({ description: "The types the contact holds for this entity, comma-joined" }),
  })
  .openapi("ContactAssignedEntity") satisfies z.ZodType<AssignedEntity>;

const entityFilter = idField("Entity id")
  .optional()
  .openapi({ description: "Only the contacts assigned to this entity (unknown id: 404)" });

const ContactQuery = z.object({ entity_id: entityFilter, ...listQuery(contactSortable), ids: idsFilter });

const ContactPageSchema = pageSchema(ContactSchema, "ContactPage");

const contactFields = {
  first_name: line(contactLimits.name).optional(),
  last_name: line(contactLimits.name).optional(),
  email: emailField(),
  phone: line(contactLimits.phone).optional(),
  address: multiline(contactLimits.address).optional(),
  company_name: line(contactLimits.name).optional(),
  contact_type: contactTypeField(),
};

const CreateContactBody = z
  .strictObject({ ...contactFields, entity_name: requiredName("Entity") })
  .openapi("CreateContact");

const UpdateContactBody = z
  .strictObject({ contact_id: idField("Contact id"), ...contactFields })
  .openapi("UpdateContact", { description: "Fields left out keep their value; email and contact_type are required." });

const ContactIdBody = z.strictObject({ contact_id: idField("Contact id") }).openapi("ContactId");

const AssignEntityBody = z
  .strictObject({
    contact_id: idField("Contact id"),
    contact_types: z
      .string({ error: selectEntityAndTypes })
      .max(limits.name, maxMessage(limits.name))
      .superRefine((s, ctx) => {
        const { types, unknown } = parseContactTypes(s);
        if (unknown.length > 0) {
          ctx.addIssue({ code: "custom", message: `Unknown contact type: ${unknown.join(", ").slice(0, 100)}. Choose from ${typeList}` });
        } else if (types.length === 0) {
          ctx.addIssue({ code: "custom", message: selectEntityAndTypes });
        }
      })
      .openapi({ description: `Comma-joined, at least one of: ${typeList}`, example: "business,technical" }),
    new_entity_name: z
      .string({ error: selectEntityAndTypes })
      .trim()
      .min(1, selectEntityAndTypes)
      .max(limits.name, maxMessage(limits.name))
      .refine(isSingleLine, junkMessage),
  })
  .openapi("ContactAssignEntity");

const UnassignEntityBody = z
  .strictObject({ contact_id: idField("Contact id"), entity_name: requiredName("Entity") })
  .openapi("ContactUnassignEntity");

const CreatedContactSchema = z.object({ contact_id: z.string(), detail: z.string() }).openapi("ContactCreated");

// ---------------------------------------------------------------------------------------------
// Calls

const contactTypesRoute = createRoute({
  method: "get",
  path: "/contact-types",
  tags: ["Contacts"],
  summary: "The contact types",
  security: bearer,
  responses: { ...ok(z.array(z.enum(contactTypes))), ...errors(401) },
});

const getContact = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Contacts", "Entities"],
    summary: "The caller's contacts, or the contacts of one entity",
    description:
      "Without list parameters: every contact, sorted by creation time (the spec's array). With any of q, sort, page, size, ids: one page `{items, total}`, searched, sorted and paged in SQL. The entity spelling get_contact and the contacts spelling get-contact are the same call.",
    security: bearer,
    request: { query: ContactQuery },
    responses: {
      ...ok(z.union([z.array(ContactSchema), ContactPageSchema]), "The spec's array, or a page when list parameters are given"),
      ...errors(401, 404, 422),
    },
  });

const contactDetailRoute = createRoute({
  method: "get",
  path: "/get-contact-detail",
  tags: ["Contacts"],
  summary: "One contact of the caller's account",
  description: "The contact as get-contact lists it. Unknown id, or another account's: 404 'Contact not found'.",
  security: bearer,
  request: { query: z.object({ contact_id: idField("Contact id") }) },
  responses: { ...ok(ContactSchema), ...errors(401, 404, 422) },
});

const exportContactsRoute = createRoute({
  method: "get",
  path: "/export-contacts",
  tags: ["Contacts"],
  summary: "Every contact the search and filters select, streamed",
  description:
    "The rows of get-contact with the same q, sort and entity_id, all of them, as NDJSON (one Contact per line), streamed from SQL in batches. Readonly users may export.",
  security: bearer,
  request: { query: z.object({ entity_id: entityFilter, ...exportQuery(contactSortable) }) },
  responses: { ...ndjsonOk(ContactSchema, "One Contact (JSON) per line"), ...errors(401, 404, 422) },
});

// get-contact-by-ep-id: platform/routes/endpoints.ts (it reads the endpoint's contacts).

const createContactRoute = createRoute({
  method: "post",
  path: "/create-contact",
  tags: ["Contacts"],
  summary: "Create a contact and assign it to an entity",
  description:
    "Answers 'Contact successfully created.' and the new contact_id. The contact holds contact_type for the entity. Unknown entity: 404 'Entity {name} not found.'.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(CreateContactBody),
  responses: { ...ok(CreatedContactSchema), ...writeResponses },
});

const updateContactRoute = createRoute({
  method: "post",
  path: "/update-contact",
  tags: ["Contacts"],
  summary: "Update a contact",
  description: "Answers 'Contact successfully updated.'. Entity assignments are changed with contact-assign-entity.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(UpdateContactBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const removeContactRoute = createRoute({
  method: "post",
  path: "/remove-contact",
  tags: ["Contacts"],
  summary: "Remove a contact and its entity assignments",
  description: "Answers 'Contact removed.'.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(ContactIdBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const assignedEntitiesRoute = createRoute({
  method: "get",
  path: "/get-contact-assigned-entities",
  tags: ["Contacts"],
  summary: "The entities a contact is assigned to, with the types it holds there",
  security: bearer,
  request: { query: z.object({ contact_id: idField("Contact id") }) },
  responses: { ...ok(z.array(AssignedEntitySchema)), ...errors(401, 404, 422) },
});

const assignEntityRoute = createRoute({
  method: "post",
  path: "/contact-assign-entity",
  tags: ["Contacts"],
  summary: "Assign a contact to an entity with types",
  description:
    "Answers 'Assigned entity successfully.'. Assigning an entity the contact already has replaces its types. A missing entity or no type: 422 'Please select an entity and types.'.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(AssignEntityBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const unassignEntityRoute = createRoute({
  method: "post",
  path: "/contact-unassign-entity",
  tags: ["Contacts"],
  summary: "Unassign a contact from an entity",
  description: "Answers 'Unassigned entity successfully.'; 404 when the contact is not assigned to that entity.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(UnassignEntityBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

export function registerContactCalls(app: PlatformApp) {
  app.openapi(contactTypesRoute, async (c) => {
    caller(c);
    return c.json([...contactTypes], 200);
  });

  // The spec names this call in two spellings (contacts: get-contact, entities: get_contact).
  for (const path of ["/get-contact", "/get_contact"]) {
    app.openapi(getContact(path), async (c) => {
      const who = caller(c);
      const query = c.req.valid("query");
      const db = c.get("deps").db;
      if (wantsPage(query)) return cachedJson(c, () => queryContacts(db, who.accountId, { ...query, entityId: query.entity_id }));
      return cachedJson(c, () => listContacts(db, who.accountId, query.entity_id));
    });
  }

  app.openapi(contactDetailRoute, async (c) => {
    const who = caller(c);
    return c.json(await contactDetail(c.get("deps").db, who.accountId, c.req.valid("query").contact_id), 200);
  });

  app.openapi(exportContactsRoute, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    const rows = exportContacts(c.get("deps").db, who.accountId, { ...query, entityId: query.entity_id });
    return (await ndjsonResponse(rows, c.req.raw.signal)) as never;
  });

  app.openapi(createContactRoute, async (c) => {
    const who = requireWriter(c);
    const contactId = await createContact(c.get("deps").db, who.accountId, c.req.valid("json"));
    return c.json({ contact_id: contactId, detail: "Contact successfully created." }, 200);
  });

  app.openapi(updateContactRoute, async (c) => {
    const who = requireWriter(c);
    await updateContact(c.get("deps").db, who.accountId, c.req.valid("json"));
    return c.json({ detail: "Contact successfully updated." }, 200);
  });

  app.openapi(removeContactRoute, async (c) => {
    const who = requireWriter(c);
    await removeContact(c.get("deps").db, who.accountId, c.req.valid("json").contact_id);
    return c.json({ detail: "Contact removed." }, 200);
  });

  app.openapi(assignedEntitiesRoute, async (c) => {
    const who = caller(c);
    return c.json(await assignedEntities(c.get("deps").db, who.accountId, c.req.valid("query").contact_id), 200);
  });

  app.openapi(assignEntityRoute, async (c) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    await assignEntity(c.get("deps").db, who.accountId, {
      contact_id: body.contact_id,
      new_entity_name: body.new_entity_name,
      contact_types: parseContactTypes(body.contact_types).types,
    });
    return c.json({ detail: "Assigned entity successfully." }, 200);
  });

  app.openapi(unassignEntityRoute, async (c) => {
    const who = requireWriter(c);
    await unassignEntity(c.get("deps").db, who.accountId, c.req.valid("json"));
    return c.json({ detail: "Unassigned entity successfully." }, 200);
  });
}
