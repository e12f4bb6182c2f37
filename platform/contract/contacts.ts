/*
 * Contacts (spec 1 §3 Contact, §7 Contacts): the shapes, field limits and list options shared by
 * the platform (platform/routes/contacts.ts builds its zod schemas from them) and the console
 * (app/routes/contacts/*). Plain TypeScript without dependencies.
 */
export { type ListPage } from "./list.ts";

/** The contact types, in their canonical order (GET contact-types). */
export const contactTypes = ["business", "technical", "billing", "security"] as const;
export type ContactType = (typeof contactTypes)[number];

/** A contact as the list, detail and export calls answer it. */
export interface Contact {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
  company_name: string;
  /** All contacts: the contact's own type. Contacts of an entity: the types it holds there, comma-joined. */
  contact_type: string;
  /** All contacts: the first assigned entity's name, or ''. Contacts of an entity: that entity's name. */
  entity_name: string;
  /** ISO 8601, UTC. */
  created_at: string;
  updated_at: string;
}

/** An entity a contact is assigned to (GET get-contact-assigned-entities). */
export interface AssignedEntity {
  entity_name: string;
  entity_id: string;
  description: string;
  /** The types the contact holds for this entity, comma-joined. */
  contact_types: string;
}

/** Field limits (characters). */
export const contactLimits = { name: 200, email: 254, phone: 50, address: 500 } as const;

/** The columns a contact list may be sorted by (`sort=` / `sort=-`); default: creation time. */
export const contactSortable = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "contact_type",
  "entity_name",
  "company_name",
  "address",
  "created_at",
  "updated_at",
] as const;
export type ContactSortColumn = (typeof contactSortable)[number];
