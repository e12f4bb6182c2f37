import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { pgError, pgErrorCode, type Db, type DbOrTx } from "../db/client.ts";
import { contactEntities, contacts, entities } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, isoText, listTable, textColumn, type ListQuery } from "../lib/list.ts";
import { contactTypes, parseContactTypes, type Contact, type ContactSortColumn, type ContactType } from "../contract/contacts.ts";
import { entityNameNotFound, findEntityByName, requireEntity } from "./entities.ts";
import { deleteOwnRow, ownRow } from "../lib/own-rows.ts";
import { answerRow } from "../lib/table-answer.ts";
import { contactColumns } from "../contract/contacts.shapes.ts";

/**
 * Contacts of an account and their assignments to entities. A contact has one main
 * `contact_type` (set on create and update) and, per assigned entity, the comma-joined types it
 * holds there (set on create for the first entity, then by contact-assign-entity).
 */

export { contactTypes, parseContactTypes, type ContactType };
export type ContactView = Contact;

export interface ContactFields {
  first_name?: string;
  last_name?: string;
  email: string;
  phone?: string;
  address?: string;
  company_name?: string;
  contact_type: string;
}

export const contactNotFound = () => notFound("Contact not found");


/** All contacts of the account, or with `entityId` the contacts assigned to that entity. */
export const listContacts = (db: DbOrTx, accountId: string, entityId?: string): Promise<ContactView[]> => contactList.all(db, accountId, { entityId });

async function allContacts(db: DbOrTx, accountId: string, entity: ListedEntity | undefined): Promise<ContactView[]> {
  if (entity) {
    const rows = await db
      .select({ ...contactColumns.columns, contact_type: contactEntities.contactTypes })
      .from(contactEntities)
      .innerJoin(contacts, eq(contacts.contactId, contactEntities.contactId))
      .where(and(eq(contactEntities.entityId, entity.entityId), eq(contacts.accountId, accountId)))
      .orderBy(asc(contacts.createdAt), asc(contacts.contactId));
    return rows.map((r) => ({ ...answerRow(r), entity_name: entity.entityName }));
  }
  // One statement, and the list comes back as a single JSON value built by Postgres: the list is
  // on every /contacts page view, and decoding ~12 fields per row one by one was most of the
  // call's cost on PGlite. Each contact's entity_name is its first assignment's entity.
  const firstEntity = db.$with("first_entity").as(
    db
      .selectDistinctOn([contactEntities.contactId], { contactId: contactEntities.contactId, entityName: entities.entityName })
      .from(contactEntities)
      .innerJoin(entities, eq(entities.entityId, contactEntities.entityId))
      .where(eq(entities.accountId, accountId))
      .orderBy(asc(contactEntities.contactId), asc(contactEntities.createdAt), asc(entities.entityName)),
  );
  const [result] = await db
    .with(firstEntity)
    .select({
      list: sql<ContactView[] | string>`coalesce(json_agg(json_build_object(
        'contact_id', ${contacts.contactId},
        'first_name', ${contacts.firstName},
        'last_name', ${contacts.lastName},
        'email', ${contacts.email},
        'phone', ${contacts.phone},
        'address', ${contacts.address},
        'company_name', ${contacts.companyName},
        'contact_type', ${contacts.contactType},
        'entity_name', coalesce(${firstEntity.entityName}, ''),
        'created_at', ${isoText(contacts.createdAt)},
        'updated_at', ${isoText(contacts.updatedAt)}
      ) order by ${contacts.createdAt}, ${contacts.contactId}), '[]'::json)`,
    })
    .from(contacts)
    .leftJoin(firstEntity, eq(firstEntity.contactId, contacts.contactId))
    .where(eq(contacts.accountId, accountId));
  const list = result?.list ?? [];
  return typeof list === "string" ? (JSON.parse(list) as ContactView[]) : list;
}


async function requireContact(db: DbOrTx, accountId: string, contactId: string) {
  const rows = await db
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(ownRow(contacts, contacts.contactId, accountId, contactId))
    .limit(1);
  if (!rows[0]) throw contactNotFound();
}

/** Creates the contact and its assignment to `entity_name` (holding `contact_type`) in one transaction. */
export async function createContact(db: Db, accountId: string, input: ContactFields & { entity_name: string }): Promise<string> {
  const contactId = newId("con");
  try {
    await db.transaction(async (tx) => {
      const entity = await findEntityByName(tx, accountId, input.entity_name);
      if (!entity) throw entityNameNotFound(input.entity_name);
      await tx.insert(contacts).values({
        contactId,
        accountId,
        firstName: input.first_name ?? "",
        lastName: input.last_name ?? "",
        email: input.email,
        phone: input.phone ?? "",
        address: input.address ?? "",
        companyName: input.company_name ?? "",
        contactType: input.contact_type,
      });
      await tx.insert(contactEntities).values({ contactId, entityId: entity.entityId, contactTypes: input.contact_type });
    });
  } catch (err) {
    // The entity was removed between our read and our insert.
    if (pgErrorCode(err) === "23503") throw entityNameNotFound(input.entity_name);
    throw err;
  }
  return contactId;
}

/** Updates the given fields; fields left out (undefined) keep their value: drizzle skips undefined in SET. */
export async function updateContact(db: Db, accountId: string, input: ContactFields & { contact_id: string }) {
  const updated = await db
    .update(contacts)
    .set({
      email: input.email,
      contactType: input.contact_type,
      firstName: input.first_name,
      lastName: input.last_name,
      phone: input.phone,
      address: input.address,
      companyName: input.company_name,
      // The database clock, like created_at: updated_at never precedes created_at.
      updatedAt: sql`now()`,
    })
    .where(ownRow(contacts, contacts.contactId, accountId, input.contact_id))
    .returning({ id: contacts.contactId });
  if (updated.length === 0) throw contactNotFound();
}

/** Removes the contact; its entity assignments go with it (same statement, ON DELETE CASCADE). */
export const removeContact = (db: Db, accountId: string, contactId: string) => deleteOwnRow(db, contacts, contacts.contactId, accountId, contactId, contactNotFound);

export async function assignedEntities(db: DbOrTx, accountId: string, contactId: string) {
  await requireContact(db, accountId, contactId);
  return db
    .select({
      entity_name: entities.entityName,
      entity_id: entities.entityId,
      description: entities.description,
      contact_types: contactEntities.contactTypes,
    })
    .from(contactEntities)
    .innerJoin(entities, eq(entities.entityId, contactEntities.entityId))
    .where(and(eq(contactEntities.contactId, contactId), eq(entities.accountId, accountId)))
    .orderBy(asc(contactEntities.createdAt), asc(entities.entityName));
}

/** Assigns the contact to the entity with these types; an existing assignment gets the new types. */
export async function assignEntity(
  db: Db,
  accountId: string,
  input: { contact_id: string; new_entity_name: string; contact_types: ContactType[] },
) {
  const contactTypesJoined = input.contact_types.join(",");
  try {
    await db.transaction(async (tx) => {
      await requireContact(tx, accountId, input.contact_id);
      const entity = await findEntityByName(tx, accountId, input.new_entity_name);
      if (!entity) throw entityNameNotFound(input.new_entity_name);
      await tx
        .insert(contactEntities)
        .values({ contactId: input.contact_id, entityId: entity.entityId, contactTypes: contactTypesJoined })
        .onConflictDoUpdate({
          target: [contactEntities.contactId, contactEntities.entityId],
          set: { contactTypes: contactTypesJoined },
        });
    });
  } catch (err) {
    // The contact or the entity was removed between our read and our write.
    if (pgErrorCode(err) === "23503") {
      const constraint = pgError(err)?.constraint ?? "";
      throw constraint.includes("contact_id") ? contactNotFound() : entityNameNotFound(input.new_entity_name);
    }
    throw err;
  }
}

export async function unassignEntity(db: Db, accountId: string, input: { contact_id: string; entity_name: string }) {
  await requireContact(db, accountId, input.contact_id);
  const entity = await findEntityByName(db, accountId, input.entity_name);
  if (!entity) throw entityNameNotFound(input.entity_name);
  const removed = await db
    .delete(contactEntities)
    .where(and(eq(contactEntities.contactId, input.contact_id), eq(contactEntities.entityId, entity.entityId)))
    .returning({ id: contactEntities.entityId });
  if (removed.length === 0) throw notFound(`Contact is not assigned to entity ${input.entity_name}.`);
}

// ---------------------------------------------------------------------------------------------
// Lists in SQL: search, sort, page, export (docs/decisions/2026-11-23-lists-on-the-platform.md)

export interface ContactListQuery extends ListQuery {
  /** Only the contacts assigned to this entity (each with the types it holds there). */
  entityId?: string;
}

type ListedEntity = { entityId: string; entityName: string };

/** The first assigned entity's name ('' when none), as the list shows it. */
const firstEntityName = sql`coalesce((select e.entity_name from contact_entities ce join entities e on e.entity_id = ce.entity_id
  where ce.contact_id = c.contact_id order by ce.created_at, e.entity_name limit 1), '')`;

/** The contacts of these ids as the list shows them (of `entity`: the types held for that entity). */
async function contactsById(db: DbOrTx, accountId: string, ids: string[], entity?: ListedEntity) {
  if (entity) {
    const rows = await db
      .select({ ...contactColumns.columns, contact_type: contactEntities.contactTypes })
      .from(contactEntities)
      .innerJoin(contacts, eq(contacts.contactId, contactEntities.contactId))
      .where(and(eq(contactEntities.entityId, entity.entityId), eq(contacts.accountId, accountId), inArray(contacts.contactId, ids)));
    return rows.map((r) => ({ ...answerRow(r), entity_name: entity.entityName }));
  }
  const rows = await db
    .select({
      ...contactColumns.columns,
      contact_type: contacts.contactType,
      // Spelled out: inside a sql template drizzle may write a column without its table, and a bare
      // contact_id here would be the subquery's own (every contact would get any account's first entity).
      entity_name: sql<string>`coalesce((select e.entity_name from contact_entities ce join entities e on e.entity_id = ce.entity_id
        where ce.contact_id = "contacts"."contact_id" and e.account_id = ${accountId} order by ce.created_at, e.entity_name limit 1), '')`,
    })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.contactId, ids)));
  return rows.map(answerRow);
}

/**
 * The account's contacts (or one entity's), each search word in the contact's own texts
 * (search_text) or in the name of an entity it is assigned to. The total unfiltered: the kept
 * accounts.contact_count.
 */
export const contactList = defineList<Contact, ContactSortColumn, ContactListQuery, ListedEntity>({
  ...listTable("contacts", "c", "contact_id"),
  search: [
    sql`c.search_text`,
    (pattern) => sql`c.contact_id in (select ce.contact_id from contact_entities ce
      join entities e on e.entity_id = ce.entity_id where e.account_id = c.account_id and lower(e.entity_name) like ${pattern})`,
  ],
  sortable: {
    ...columns("text", "c", ["first_name", "last_name", "email", "phone", "contact_type", "company_name", "address"]),
    ...columns("time", "c", ["created_at", "updated_at"]),
    entity_name: textColumn(firstEntityName),
  },
  defaultSort: "created_at",
  async filter(db, accountId, query) {
    if (query.entityId === undefined) return {};
    const entity = await requireEntity(db, accountId, query.entityId);
    return { where: [sql`c.contact_id in (select contact_id from contact_entities where entity_id = ${entity.entityId})`], ctx: entity };
  },
  keptCount: (accountId) => sql`select contact_count as n from accounts where account_id = ${accountId}`,
  rows: contactsById,
  idOf: (c) => c.contact_id,
  notFound: contactNotFound,
  all: (db, accountId, _query, entity) => allContacts(db, accountId, entity),
});

/** One page of the account's contacts (or one entity's), searched and sorted in SQL. */
export const queryContacts = (db: DbOrTx, accountId: string, query: ContactListQuery) => contactList.page(db, accountId, query);

/** Every contact the search and filters select, in the list's order, in batches (CSV export). */
export const exportContacts = (db: DbOrTx, accountId: string, query: ContactListQuery) => contactList.batches(db, accountId, query);

/** One contact of the account as the list shows it; another account's id: 404. */
export const contactDetail = (db: DbOrTx, accountId: string, contactId: string): Promise<Contact> => contactList.one(db, accountId, contactId);
