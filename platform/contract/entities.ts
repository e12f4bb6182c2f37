/*
 * Entities (spec 2 §3 Entity, §7 Entities): the shapes, field limits and list options shared by
 * the platform (platform/routes/entities.ts) and the console (app/routes/entities/*). Plain
 * TypeScript without dependencies.
 */
export type { Entity } from "./entities.shapes.ts";
export { type ListPage } from "./list.ts";

/** A contact of an entity (GET get_contact?entity_id=): the contact shape, contact_type holding the types it has there. */
export type { Contact as EntityContact } from "./contacts.ts";

/** Field limits (characters). */
export const entityLimits = { name: 200, description: 2000, emailList: 2000, email: 254 } as const;

/** The columns an entity list may be sorted by; default: name. */
export const entitySortable = ["entity_name", "parent_entity_name", "description", "email", "entity_id", "created_at"] as const;
export type EntitySortColumn = (typeof entitySortable)[number];
