import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { pgErrorCode, type Db, type DbOrTx } from "../db/client.ts";
import { accounts, contactEntities, contacts, entities, iamUsers } from "../db/schema.ts";
import { badRequest, conflict, notFound, type DetailItem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, listTable, textColumn, type ListQuery } from "../lib/list.ts";
import type { Entity, EntitySortColumn } from "../contract/entities.ts";
import { entityMessages } from "../contract/messages.ts";
import { ownRow } from "../lib/own-rows.ts";
import { answerRow } from "../lib/table-answer.ts";
import { entityColumns } from "../contract/entities.shapes.ts";

/**
 * The entity tree of an account: entities, their parents, their alert e-mails.
 *
 * Every function takes the caller's account id and never reads or changes another account's rows:
 * an id or name of another account is "not found" (404).
 *
 * Changes to the tree (create, re-parent, remove) run in a transaction that first locks the
 * account row (FOR NO KEY UPDATE, which does not block inserts that reference the account), so two
 * concurrent changes can neither build a cycle nor leave a child under a removed parent.
 */


/** Kept for older imports: the type lives in platform/db/client.ts. */
export type { DbOrTx };

export type EntityView = Entity;

export const entityNotFound = () => notFound(entityMessages.notFound);
export const entityNameNotFound = (name: string) => notFound(`Entity ${name} not found.`);


async function lockAccountTree(tx: DbOrTx, accountId: string) {
  await tx.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.accountId, accountId)).for("no key update");
}

/** id → {name, parent id} of every entity of the account, in the database's name order. */
async function loadTree(db: DbOrTx, accountId: string) {
  const rows = await db
    .select({ id: entities.entityId, name: entities.entityName, parent: entities.parentEntityId })
    .from(entities)
    .where(eq(entities.accountId, accountId))
    .orderBy(asc(entities.entityName));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Ids of `rootId` and all entities below it. */
function subtree(tree: Awaited<ReturnType<typeof loadTree>>, rootId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const e of tree.values()) {
    if (!e.parent) continue;
    const list = children.get(e.parent);
    if (list) list.push(e.id);
    else children.set(e.parent, [e.id]);
  }
  const seen = new Set<string>([rootId]);
  const todo = [rootId];
  while (todo.length > 0) {
    for (const child of children.get(todo.pop()!) ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        todo.push(child);
      }
    }
  }
  return seen;
}

/** The account's entity with this id (`entity_id`) or name (`entity_name`), or null. */
async function findEntity(db: DbOrTx, accountId: string, by: SQL) {
  const [row] = await db.select().from(entities).where(and(eq(entities.accountId, accountId), by)).limit(1);
  return row ?? null;
}

export const findEntityById = (db: DbOrTx, accountId: string, entityId: string) => findEntity(db, accountId, eq(entities.entityId, entityId));
export const findEntityByName = (db: DbOrTx, accountId: string, entityName: string) => findEntity(db, accountId, eq(entities.entityName, entityName));

export async function requireEntity(db: DbOrTx, accountId: string, entityId: string) {
  const row = await findEntityById(db, accountId, entityId);
  if (!row) throw entityNotFound();
  return row;
}

/**
 * Entity names of the account, sorted. With `parentCandidatesFor` (an entity id): only the names
 * that entity may take as its parent, i.e. all but the entity itself and its descendants.
 */
export async function entityNames(db: DbOrTx, accountId: string, opts: { parentCandidatesFor?: string } = {}) {
  const tree = await loadTree(db, accountId);
  let excluded = new Set<string>();
  if (opts.parentCandidatesFor !== undefined) {
    if (!tree.has(opts.parentCandidatesFor)) throw entityNotFound();
    excluded = subtree(tree, opts.parentCandidatesFor);
  }
  return [...tree.values()].filter((e) => !excluded.has(e.id)).map((e) => e.name);
}

const { entity_id, entity_name, ...details } = entityColumns.columns;

/** The entities `where` selects as the list shows them (the parent's name, '' for none), by name. */
async function entityRows(db: DbOrTx, where: SQL | undefined): Promise<Entity[]> {
  const parent = alias(entities, "parent");
  const rows = await db
    .select({ entity_id, entity_name, parent_entity_name: parent.entityName, ...details })
    .from(entities)
    .leftJoin(parent, and(eq(parent.entityId, entities.parentEntityId), eq(parent.accountId, entities.accountId)))
    .where(where)
    .orderBy(asc(entities.entityName));
  return rows.map((r) => answerRow({ ...r, parent_entity_name: r.parent_entity_name ?? "" }));
}

export const listEntities = (db: DbOrTx, accountId: string): Promise<EntityView[]> => entityRows(db, eq(entities.accountId, accountId));

export async function createEntity(
  db: Db,
  accountId: string,
  input: { entity_name: string; description?: string; parent_entity_name?: string },
): Promise<string> {
  const entityId = newId("ent");
  try {
    await db.transaction(async (tx) => {
      await lockAccountTree(tx, accountId);
      if (await findEntityByName(tx, accountId, input.entity_name)) throw conflict(`Entity ${input.entity_name} already exists.`);
      let parentEntityId: string | null = null;
      if (input.parent_entity_name) {
        const parent = await findEntityByName(tx, accountId, input.parent_entity_name);
        if (!parent) throw entityNameNotFound(input.parent_entity_name);
        parentEntityId = parent.entityId;
      }
      await tx.insert(entities).values({
        entityId,
        accountId,
        entityName: input.entity_name,
        parentEntityId,
        description: input.description ?? "",
      });
    });
  } catch (err) {
    // Another request created the same name between our check and our insert.
    if (pgErrorCode(err) === "23505") throw conflict(`Entity ${input.entity_name} already exists.`);
    throw err;
  }
  return entityId;
}

export async function editEntityDescription(
  db: Db,
  accountId: string,
  input: { entity_id: string; description: string; email?: string },
) {
  const updated = await db
    .update(entities)
    .set({ description: input.description, email: input.email }) // email undefined: kept
    .where(ownRow(entities, entities.entityId, accountId, input.entity_id))
    .returning({ id: entities.entityId });
  if (updated.length === 0) throw entityNotFound();
}

/** Sets (or, with an empty name, clears) the parent; refuses self-parenting and cycles. */
export async function assignEntityParent(db: Db, accountId: string, input: { entity_id: string; parent_entity_name: string }) {
  const loc = ["body", "parent_entity_name"];
  await db.transaction(async (tx) => {
    await lockAccountTree(tx, accountId);
    const tree = await loadTree(tx, accountId);
    const entity = tree.get(input.entity_id);
    if (!entity) throw entityNotFound();
    let parentId: string | null = null;
    if (input.parent_entity_name) {
      const parent = [...tree.values()].find((e) => e.name === input.parent_entity_name);
      if (!parent) throw entityNameNotFound(input.parent_entity_name);
      if (parent.id === entity.id) {
        throw badRequest([{ loc, msg: `Entity ${entity.name} cannot be its own parent.`, type: "entity_cycle" }]);
      }
      if (subtree(tree, entity.id).has(parent.id)) {
        throw badRequest([
          {
            loc,
            msg: `Entity ${parent.name} is below ${entity.name} in the tree: it cannot become its parent.`,
            type: "entity_cycle",
          },
        ]);
      }
      parentId = parent.id;
    }
    await tx
      .update(entities)
      .set({ parentEntityId: parentId })
      .where(ownRow(entities, entities.entityId, accountId, entity.id));
  });
}

const listed = (items: string[], max = 10) =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Removes an entity that nothing depends on any more. Otherwise 400 with one detail item per
 * blocking reason (child entities, assigned contacts, IAM users), each naming what blocks.
 */
export async function removeEntity(db: Db, accountId: string, entityId: string) {
  await db.transaction(async (tx) => {
    await lockAccountTree(tx, accountId);
    // FOR UPDATE on the entity: a concurrent insert referencing it (contact or IAM user
    // assignment) waits for us and then fails its foreign key, or we wait for it and see it.
    const [entity] = await tx
      .select()
      .from(entities)
      .where(ownRow(entities, entities.entityId, accountId, entityId))
      .for("update");
    if (!entity) throw entityNotFound();

    const children = await tx
      .select({ name: entities.entityName })
      .from(entities)
      .where(and(eq(entities.accountId, accountId), eq(entities.parentEntityId, entityId)))
      .orderBy(asc(entities.entityName));
    const assigned = await tx
      .select({ first: contacts.firstName, last: contacts.lastName, email: contacts.email })
      .from(contactEntities)
      .innerJoin(contacts, eq(contacts.contactId, contactEntities.contactId))
      .where(and(eq(contactEntities.entityId, entityId), eq(contacts.accountId, accountId)))
      .orderBy(asc(contacts.lastName), asc(contacts.firstName), asc(contacts.email));
    const users = await tx
      .select({ username: iamUsers.username })
      .from(iamUsers)
      .where(and(eq(iamUsers.accountId, accountId), eq(iamUsers.entityId, entityId)))
      .orderBy(asc(iamUsers.username));

    const loc = ["body", "entity_id"];
    const type = "entity_in_use";
    const blocking: DetailItem[] = [];
    const name = entity.entityName;
    if (children.length > 0) {
      blocking.push({
        loc,
        msg: `Entity ${name} still has ${plural(children.length, "child entity", "child entities")}: ${listed(children.map((c) => c.name))}`,
        type,
      });
    }
    if (assigned.length > 0) {
      const label = (c: (typeof assigned)[number]) => `${c.first} ${c.last}`.trim() || c.email;
      blocking.push({
        loc,
        msg: `Entity ${name} still has ${plural(assigned.length, "assigned contact", "assigned contacts")}: ${listed(assigned.map(label))}`,
        type,
      });
    }
    if (users.length > 0) {
      blocking.push({
        loc,
        msg: `Entity ${name} still has ${plural(users.length, "IAM user", "IAM users")}: ${listed(users.map((u) => u.username))}`,
        type,
      });
    }
    if (blocking.length > 0) throw badRequest(blocking);

    await tx.delete(entities).where(ownRow(entities, entities.entityId, accountId, entityId));
  });
}

// ---------------------------------------------------------------------------------------------
// The list (lib/list.ts defineList)

async function entitiesById(db: DbOrTx, accountId: string, ids: string[]): Promise<Entity[]> {
  return entityRows(db, and(eq(entities.accountId, accountId), inArray(entities.entityId, ids)));
}

const parentName = sql`coalesce(p.entity_name, '')`;

export const entityList = defineList<Entity, EntitySortColumn>({
  ...listTable("entities", "e", "entity_id"),
  from: sql`from entities e left join entities p on p.entity_id = e.parent_entity_id and p.account_id = e.account_id`,
  search: [sql`lower(e.entity_name || ' ' || ${parentName} || ' ' || e.description || ' ' || e.email || ' ' || e.entity_id)`],
  sortable: {
    ...columns("text", "e", ["entity_name", "description", "email", "entity_id"]),
    ...columns("time", "e", ["created_at"]),
    parent_entity_name: textColumn(parentName),
  },
  defaultSort: "entity_name",
  rows: entitiesById,
  idOf: (e) => e.entity_id,
  notFound: entityNotFound,
  all: (db, accountId) => listEntities(db, accountId),
});

/** One page of the account's entities, searched and sorted in SQL (default: by name). */
export const queryEntities = (db: DbOrTx, accountId: string, query: ListQuery) => entityList.page(db, accountId, query);

/** Every entity the search selects, in the list's order, in batches (CSV export). */
export const exportEntities = (db: DbOrTx, accountId: string, query: ListQuery) => entityList.batches(db, accountId, query);

/** One entity of the account; another account's id: 404. */
export const entityDetail = (db: DbOrTx, accountId: string, entityId: string): Promise<Entity> => entityList.one(db, accountId, entityId);
