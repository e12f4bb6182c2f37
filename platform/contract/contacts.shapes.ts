import { z } from "@hono/zod-openapi";
import { emailField, idField, line, multiline, requiredName } from "../lib/fields.ts";
import { contacts } from "../db/schema.ts";
import { tableAnswer } from "../lib/table-answer.ts";
import { createdOf, pageOf } from "./common.shapes.ts";
import { contactLimits, contactTypes } from "./contacts.ts";

/** The contact's own columns under the answer's names (its type and entity depend on the call, below). */
export const contactColumns = tableAnswer(contacts, {
  contact_id: "contactId",
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  phone: "phone",
  address: "address",
  company_name: "companyName",
  created_at: "createdAt",
  updated_at: "updatedAt",
});
const { contact_id, created_at, updated_at, ...person } = contactColumns.shape;

/** A contact as the list, detail and export calls answer it (and get-contact-by-ep-id). */
export const Contact = z
  .object({
    contact_id: contact_id.openapi({ example: "con-5q2w8e1r4t6y" }),
    ...person,
    contact_type: z.string().openapi({
      description:
        "All contacts: the contact's own type. Contacts of an entity: the types it holds for that entity, comma-joined. Contacts of an endpoint: business (the primary contact) or technical (the secondary)",
    }),
    entity_name: z.string().openapi({
      description: "All contacts: the first assigned entity's name, or ''. Contacts of an entity: that entity's name",
    }),
    created_at,
    updated_at,
  })
  .openapi("Contact");
export type Contact = z.infer<typeof Contact>;

/** An entity a contact is assigned to (GET get-contact-assigned-entities). */
export const AssignedEntity = z
  .object({
    entity_name: z.string(),
    entity_id: z.string(),
    description: z.string(),
    contact_types: z.string().openapi({ description: "The types the contact holds for this entity, comma-joined" }),
  })
  .openapi("ContactAssignedEntity");
export type AssignedEntity = z.infer<typeof AssignedEntity>;

export const ContactPage = pageOf(Contact, "ContactPage");
export const ContactCreated = createdOf("ContactCreated", "contact_id");

// The calls' requests: the platform validates with them; the console's Add and Edit Contact forms
// are these schemas (app/routes/contacts/schemas.server.tsx).

const typeList = contactTypes.join(", ");

const contactTypeField = () =>
  z
    .enum(contactTypes, {
      error: (iss) => (iss.input === undefined ? "Field required" : `Contact type must be one of: ${typeList}`),
    })
    .openapi({ description: "One of GET contact-types" });

const contactFields = {
  first_name: line(contactLimits.name).optional(),
  last_name: line(contactLimits.name).optional(),
  email: emailField(),
  phone: line(contactLimits.phone).optional(),
  address: multiline(contactLimits.address).optional(),
  company_name: line(contactLimits.name).optional(),
  contact_type: contactTypeField(),
};

export const CreateContactBody = z
  .strictObject({ ...contactFields, entity_name: requiredName("Entity") })
  .openapi("CreateContact");

export const UpdateContactBody = z
  .strictObject({ contact_id: idField("Contact id"), ...contactFields })
  .openapi("UpdateContact", { description: "Fields left out keep their value; email and contact_type are required." });

export const ContactIdBody = z.strictObject({ contact_id: idField("Contact id") }).openapi("ContactId");
