/*
 * The Contacts screen's data shapes and constants (spec 1 §3 Contact, §5). The form schemas are in
 * schemas.server.tsx: only the action uses them, so zod is not shipped to the browser for this page.
 */

// The shapes are the platform's contract (platform/contract/contacts.ts): declared once.
export type { AssignedEntity, Contact } from "../../../platform/contract/contacts.ts";
import type { Contact } from "../../../platform/contract/contacts.ts";

/** The phrase that Remove Contact asks for (spec 1 §5: "a confirmation word"). */
export const REMOVE_PHRASE = "confirm";
/** A dialog opened on a contact removed meanwhile. */
export const CONTACT_GONE = "This contact no longer exists.";

export const contactName = (c: Pick<Contact, "first_name" | "last_name" | "email">) => `${c.first_name} ${c.last_name}`.trim() || c.email;

