import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { contactEntities, contacts, entities } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { inOrder, keysetBatches, likePatterns, orderKey, queryPage, type ListPage } from "../lib/list.ts";
import { contactTypes, type Contact, type ContactSortColumn, type ContactType } from "../contract/contacts.ts";
import { entityNameNotFound, findEntityByName, pgErrorCode, requireEntity, type DbOrTx } from "./entities.ts";

/**
 * Contacts of an account and their assignments to entities. A contact has one main
 * `contact_type` (set on create and update) and, per assigned entity, the comma-joined types it
 * holds there (set on create for the first entity, then by contact-assign-entity).
 */

export { contactTypes, type ContactType };
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

const contactColumns = {
  contact_id: contacts.contactId,
  first_name: contacts.firstName,
  last_name: contacts.lastName,
  email: contacts.email,
  phone: contacts.phone,
  address: contacts.address,
  company_name: contacts.companyName,
  created_at: contacts.createdAt,
  updated_at: contacts.updatedAt,
};

const iso = <T extends { created_at: Date; updated_at: Date }>(r: T) => ({
  ...r,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** All contacts of the account, or with `entityId` the contacts assigned to that entity. */
export async function listContacts(db: DbOrTx, accountId: string, entityId?: string): Promise<ContactView[]> {
  if (entityId !== undefined) {
    const entity = await requireEntity(db, accountId, entityId);
    const rows = await db
      .select({ ...contactColumns, contact_type: contactEntities.contactTypes })
      .from(contactEntities)
      .innerJoin(contacts, eq(contacts.contactId, contactEntities.contactId))
      .where(and(eq(contactEntities.entityId, entity.entityId), eq(contacts.accountId, accountId)))
      .orderBy(asc(contacts.createdAt), asc(contacts.contactId));
    return rows.map((r) => ({ ...iso(r), entity_name: entity.entityName }));
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

/** A timestamptz as JavaScript's toISOString() writes it (UTC, milliseconds, 'Z'). */
function isoText(column: AnyColumn) {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

async function requireContact(db: DbOrTx, accountId: string, contactId: string) {
  const rows = await db
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.contactId, contactId)))
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
    .where(and(eq(contacts.accountId, accountId), eq(contacts.contactId, input.contact_id)))
    .returning({ id: contacts.contactId });
  if (updated.length === 0) throw contactNotFound();
}

/** Removes the contact; its entity assignments go with it (same statement, ON DELETE CASCADE). */
export async function removeContact(db: Db, accountId: string, contactId: string) {
  const removed = await db
    .delete(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.contactId, contactId)))
    .returning({ id: contacts.contactId });
  if (removed.length === 0) throw contactNotFound();
}

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
      const constraint = String((err as any)?.cause?.constraint ?? (err as any)?.constraint ?? "");
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

export interface ContactListQuery {
  entityId?: string;
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
}

/** The first assigned entity's name ('' when none), as the list shows it. */
const firstEntityName = sql`coalesce((select e.entity_name from contact_entities ce join entities e on e.entity_id = ce.entity_id
  where ce.contact_id = c.contact_id order by ce.created_at, e.entity_name limit 1), '')`;

const sortColumns: Record<ContactSortColumn, { expr: SQL; kind: "text" | "time" }> = {
  first_name: { expr: sql`c.first_name`, kind: "text" },
  last_name: { expr: sql`c.last_name`, kind: "text" },
  email: { expr: sql`c.email`, kind: "text" },
  phone: { expr: sql`c.phone`, kind: "text" },
  contact_type: { expr: sql`c.contact_type`, kind: "text" },
  entity_name: { expr: firstEntityName, kind: "text" },
  company_name: { expr: sql`c.company_name`, kind: "text" },
  address: { expr: sql`c.address`, kind: "text" },
  created_at: { expr: sql`c.created_at`, kind: "time" },
  updated_at: { expr: sql`c.updated_at`, kind: "time" },
};

/**
 * FROM … WHERE of a contact list: the account's contacts (or one entity's), each search word in
 * the contact's own texts (search_text) or in the name of an entity it is assigned to.
 */
async function contactListFrom(db: DbOrTx, accountId: string, query: ContactListQuery) {
  const where: SQL[] = [sql`c.account_id = ${accountId}`];
  if (query.entityId !== undefined) {
    const entity = await requireEntity(db, accountId, query.entityId);
    where.push(sql`c.contact_id in (select contact_id from contact_entities where entity_id = ${entity.entityId})`);
  }
  for (const pattern of likePatterns(query.q)) {
    where.push(sql`(c.search_text like ${pattern} or c.contact_id in (select ce.contact_id from contact_entities ce
      join entities e on e.entity_id = ce.entity_id where e.account_id = ${accountId} and lower(e.entity_name) like ${pattern}))`);
  }
  if (query.ids !== undefined) where.push(query.ids.length ? sql`c.contact_id in (${sql.join(query.ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  return sql`from contacts c where ${sql.join(where, sql` and `)}`;
}

function contactOrder(sort: string | undefined) {
  const desc = sort?.startsWith("-") ?? false;
  const column = sortColumns[(desc ? sort!.slice(1) : (sort ?? "created_at")) as ContactSortColumn] ?? sortColumns.created_at;
  return { key: orderKey(column, sql`c.contact_id`, desc), desc };
}

/** The contacts of these ids as the list shows them (with `entityName`: the types held for that entity). */
async function contactsById(db: DbOrTx, accountId: string, ids: string[], entity?: { entityId: string; entityName: string }) {
  if (ids.length === 0) return [];
  if (entity) {
    const rows = await db
      .select({ ...contactColumns, contact_type: contactEntities.contactTypes })
      .from(contactEntities)
      .innerJoin(contacts, eq(contacts.contactId, contactEntities.contactId))
      .where(and(eq(contactEntities.entityId, entity.entityId), eq(contacts.accountId, accountId), inArray(contacts.contactId, ids)));
    return inOrder(ids, rows.map((r) => ({ ...iso(r), entity_name: entity.entityName })), (r) => r.contact_id);
  }
  const rows = await db
    .select({
      ...contactColumns,
      contact_type: contacts.contactType,
      // Spelled out: inside a sql template drizzle may write a column without its table, and a bare
      // contact_id here would be the subquery's own (every contact would get any account's first entity).
      entity_name: sql<string>`coalesce((select e.entity_name from contact_entities ce join entities e on e.entity_id = ce.entity_id
        where ce.contact_id = "contacts"."contact_id" and e.account_id = ${accountId} order by ce.created_at, e.entity_name limit 1), '')`,
    })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.contactId, ids)));
  return inOrder(ids, rows.map(iso), (r) => r.contact_id);
}

/** One page of the account's contacts (or one entity's), searched and sorted in SQL. */
export async function queryContacts(db: DbOrTx, accountId: string, query: ContactListQuery): Promise<ListPage<Contact>> {
  const entity = query.entityId !== undefined ? await requireEntity(db, accountId, query.entityId) : undefined;
  const from = await contactListFrom(db, accountId, query);
  const { key, desc } = contactOrder(query.sort);
  const unfiltered = query.entityId === undefined && !query.q && query.ids === undefined;
  const count = unfiltered ? sql`select contact_count as n from accounts where account_id = ${accountId}` : undefined;
  const { ids, total } = await queryPage(db, { from, id: sql`c.contact_id`, key, desc, page: query.page ?? 1, size: query.size ?? 10, count });
  return { items: await contactsById(db, accountId, ids, entity), total };
}

/** Every contact the search and filters select, in the list's order, in batches (CSV export). */
export async function* exportContacts(db: DbOrTx, accountId: string, query: ContactListQuery): AsyncGenerator<Contact[]> {
  const entity = query.entityId !== undefined ? await requireEntity(db, accountId, query.entityId) : undefined;
  const from = await contactListFrom(db, accountId, query);
  const { key, desc } = contactOrder(query.sort);
  for await (const ids of keysetBatches(db, { from, id: sql`c.contact_id`, key, desc })) {
    yield await contactsById(db, accountId, ids, entity);
  }
}

/** One contact of the account as the list shows it; another account's id: 404. */
export async function contactDetail(db: DbOrTx, accountId: string, contactId: string): Promise<Contact> {
  const [contact] = await contactsById(db, accountId, [contactId]);
  if (!contact) throw contactNotFound();
  return contact;
}
