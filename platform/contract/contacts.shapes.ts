import { z } from "@hono/zod-openapi";
import { emailField, idField, limits, line, maxMessage, multiline, plainText, text } from "../lib/fields.ts";
import { contacts } from "../db/schema.ts";
import { tableAnswer } from "../lib/table-answer.ts";
import { createdOf, pageOf } from "./common.shapes.ts";
import { contactLimits, contactTypes, parseContactTypes } from "./contacts.ts";
import { contactMessages, fieldMessages } from "./messages.ts";

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
// are these schemas, Assign Entity and Unassign too (app/routes/contacts/schemas.server.tsx).

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
  .strictObject({ ...contactFields, entity_name: text(limits.name, { min: 1, minMessage: fieldMessages.entityRequired }) })
  .openapi("CreateContact");

export const UpdateContactBody = z
  .strictObject({ contact_id: idField("Contact id"), ...contactFields })
  .openapi("UpdateContact", { description: "Fields left out keep their value; email and contact_type are required." });

export const ContactIdBody = z.strictObject({ contact_id: idField("Contact id") }).openapi("ContactId");

const selectEntityAndTypes = contactMessages.selectEntityAndTypes;

export const AssignEntityBody = z
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
      .apply(plainText),
  })
  .openapi("ContactAssignEntity");

export const UnassignEntityBody = z
  .strictObject({ contact_id: idField("Contact id"), entity_name: text(limits.name, { min: 1, minMessage: fieldMessages.entityRequired }) })
  .openapi("ContactUnassignEntity");
