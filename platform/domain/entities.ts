import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { accounts, contactEntities, contacts, entities, iamUsers } from "../db/schema.ts";
import { badRequest, conflict, notFound, type DetailItem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { inOrder, keysetBatches, likePatterns, orderKey, queryPage, type ListPage } from "../lib/list.ts";
import type { Entity, EntitySortColumn } from "../contract/entities.ts";

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

/** A database handle or a transaction: domain functions accept both. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export type EntityView = Entity;

export const entityNotFound = () => notFound("Entity not found");
export const entityNameNotFound = (name: string) => notFound(`Entity ${name} not found.`);

/** The Postgres error code (SQLSTATE) of a failed query, through drizzle's wrapper. */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

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

export async function findEntityById(db: DbOrTx, accountId: string, entityId: string) {
  const rows = await db
    .select()
    .from(entities)
    .where(and(eq(entities.accountId, accountId), eq(entities.entityId, entityId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findEntityByName(db: DbOrTx, accountId: string, entityName: string) {
  const rows = await db
    .select()
    .from(entities)
    .where(and(eq(entities.accountId, accountId), eq(entities.entityName, entityName)))
    .limit(1);
  return rows[0] ?? null;
}

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

export async function listEntities(db: DbOrTx, accountId: string): Promise<EntityView[]> {
  const parent = alias(entities, "parent");
  const rows = await db
    .select({
      entity_id: entities.entityId,
      entity_name: entities.entityName,
      parent_entity_name: parent.entityName,
      description: entities.description,
      email: entities.email,
      created_at: entities.createdAt,
    })
    .from(entities)
    .leftJoin(parent, and(eq(parent.entityId, entities.parentEntityId), eq(parent.accountId, entities.accountId)))
    .where(eq(entities.accountId, accountId))
    .orderBy(asc(entities.entityName));
  return rows.map((r) => ({ ...r, parent_entity_name: r.parent_entity_name ?? "", created_at: r.created_at.toISOString() }));
}

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
    .where(and(eq(entities.accountId, accountId), eq(entities.entityId, input.entity_id)))
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
      .where(and(eq(entities.accountId, accountId), eq(entities.entityId, entity.id)));
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
      .where(and(eq(entities.accountId, accountId), eq(entities.entityId, entityId)))
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

    await tx.delete(entities).where(and(eq(entities.accountId, accountId), eq(entities.entityId, entityId)));
  });
}

// ---------------------------------------------------------------------------------------------
// Lists in SQL: search, sort, page, export (docs/decisions/2026-11-23-lists-on-the-platform.md)

export interface EntityListQuery {
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
}

const parentName = sql`coalesce(p.entity_name, '')`;

const entitySortColumns: Record<EntitySortColumn, { expr: SQL; kind: "text" | "time" }> = {
  entity_name: { expr: sql`e.entity_name`, kind: "text" },
  parent_entity_name: { expr: parentName, kind: "text" },
  description: { expr: sql`e.description`, kind: "text" },
  email: { expr: sql`e.email`, kind: "text" },
  entity_id: { expr: sql`e.entity_id`, kind: "text" },
  created_at: { expr: sql`e.created_at`, kind: "time" },
};

function entityListFrom(accountId: string, query: EntityListQuery) {
  const where: SQL[] = [sql`e.account_id = ${accountId}`];
  for (const pattern of likePatterns(query.q)) {
    where.push(sql`lower(e.entity_name || ' ' || ${parentName} || ' ' || e.description || ' ' || e.email || ' ' || e.entity_id) like ${pattern}`);
  }
  if (query.ids !== undefined) where.push(query.ids.length ? sql`e.entity_id in (${sql.join(query.ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  return sql`from entities e left join entities p on p.entity_id = e.parent_entity_id and p.account_id = e.account_id where ${sql.join(where, sql` and `)}`;
}

function entityOrder(sort: string | undefined) {
  const desc = sort?.startsWith("-") ?? false;
  const column = entitySortColumns[(desc ? sort!.slice(1) : (sort ?? "entity_name")) as EntitySortColumn] ?? entitySortColumns.entity_name;
  return { key: orderKey(column, sql`e.entity_id`, desc), desc };
}

async function entitiesById(db: DbOrTx, accountId: string, ids: string[]): Promise<Entity[]> {
  if (ids.length === 0) return [];
  const parent = alias(entities, "parent");
  const rows = await db
    .select({
      entity_id: entities.entityId,
      entity_name: entities.entityName,
      parent_entity_name: parent.entityName,
      description: entities.description,
      email: entities.email,
      created_at: entities.createdAt,
    })
    .from(entities)
    .leftJoin(parent, and(eq(parent.entityId, entities.parentEntityId), eq(parent.accountId, entities.accountId)))
    .where(and(eq(entities.accountId, accountId), inArray(entities.entityId, ids)));
  const views = rows.map((r) => ({ ...r, parent_entity_name: r.parent_entity_name ?? "", created_at: r.created_at.toISOString() }));
  return inOrder(ids, views, (r) => r.entity_id);
}

/** One page of the account's entities, searched and sorted in SQL (default: by name). */
export async function queryEntities(db: DbOrTx, accountId: string, query: EntityListQuery): Promise<ListPage<Entity>> {
  const { key, desc } = entityOrder(query.sort);
  const { ids, total } = await queryPage(db, {
    from: entityListFrom(accountId, query),
    id: sql`e.entity_id`,
    key,
    desc,
    page: query.page ?? 1,
    size: query.size ?? 10,
  });
  return { items: await entitiesById(db, accountId, ids), total };
}

/** Every entity the search selects, in the list's order, in batches (CSV export). */
export async function* exportEntities(db: DbOrTx, accountId: string, query: EntityListQuery): AsyncGenerator<Entity[]> {
  const { key, desc } = entityOrder(query.sort);
  for await (const ids of keysetBatches(db, { from: entityListFrom(accountId, query), id: sql`e.entity_id`, key, desc })) {
    yield await entitiesById(db, accountId, ids);
  }
}

/** One entity of the account; another account's id: 404. */
export async function entityDetail(db: DbOrTx, accountId: string, entityId: string): Promise<Entity> {
  const [entity] = await entitiesById(db, accountId, [entityId]);
  if (!entity) throw entityNotFound();
  return entity;
}
