/*
 * Contacts (spec 1 §3 Contact, §7 Contacts): the shapes, field limits and list options shared by
 * the platform (platform/routes/contacts.ts builds its zod schemas from them) and the console
 * (app/routes/contacts/*). Plain TypeScript without dependencies.
 */
export type { Contact, AssignedEntity } from "./contacts.shapes.ts";
export { type ListPage } from "./list.ts";

/** The contact types, in their canonical order (GET contact-types). */
export const contactTypes = ["business", "technical", "billing", "security"] as const;
export type ContactType = (typeof contactTypes)[number];

/** Splits a comma-joined type list; returns the known types in canonical order and the unknown ones. */
export function parseContactTypes(joined: string): { types: ContactType[]; unknown: string[] } {
  const items = joined
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  const known = new Set<string>(contactTypes);
  return {
    types: contactTypes.filter((t) => items.includes(t)),
    unknown: [...new Set(items.filter((t) => !known.has(t)))],
  };
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
