/*
 * The Contacts screen's data shapes and constants (spec 1 §3 Contact, §5). The form schemas are in
 * schemas.server.tsx: only the action uses them, so zod is not shipped to the browser for this page.
 */

export interface Contact {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
  company_name: string;
  contact_type: string;
  entity_name: string;
  created_at: string;
  updated_at: string;
}

export interface AssignedEntity {
  entity_name: string;
  entity_id: string;
  description: string;
  contact_types: string;
}

/** The phrase that Remove Contact asks for (spec 1 §5: "a confirmation word"). */
export const REMOVE_PHRASE = "confirm";
export const SELECT_ENTITY_AND_TYPES = "Please select an entity and types.";

export const contactName = (c: Pick<Contact, "first_name" | "last_name" | "email">) => `${c.first_name} ${c.last_name}`.trim() || c.email;

