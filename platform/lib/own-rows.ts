import { and, eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource, SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { DbOrTx } from "../db/client.ts";

/*
 * A row of the caller's account by its id: every read, change and removal of one row is scoped to
 * the account, so another account's id finds nothing and answers as an unknown one (404).
 */

type Owned = PgTable & { accountId: AnyPgColumn };

/** `where`: the row of `accountId` whose `id` column is `value`. */
// why the `!`: `and` of two conditions is never undefined (it is only for zero conditions).
export const ownRow = (table: Owned, id: AnyPgColumn, accountId: string, value: string): SQL => and(eq(table.accountId, accountId), eq(id, value))!;

/** Throws `notFound()` unless the row exists. */
export async function requireOwnRow(db: DbOrTx, table: Owned, id: AnyPgColumn, accountId: string, value: string, notFound: () => Error) {
  const [row] = await db.select({ id }).from(table).where(ownRow(table, id, accountId, value)).limit(1);
  if (!row) throw notFound();
}

/** The row's `fields`; none (unknown, or another account's): throws `notFound()`. */
export async function readOwnRow<F extends SelectedFields>(db: DbOrTx, table: Owned, id: AnyPgColumn, accountId: string, value: string, fields: F, notFound: () => Error) {
  // why the cast: drizzle types the rows of a concrete selection only; these are exactly `fields`' values.
  const [row] = (await db.select(fields).from(table).where(ownRow(table, id, accountId, value)).limit(1)) as SelectResultFields<F>[];
  if (!row) throw notFound();
  return row;
}

/** Changes the row; none (unknown, or another account's): throws `notFound()`. */
export async function updateOwnRow<T extends Owned>(db: DbOrTx, table: T, id: AnyPgColumn, accountId: string, value: string, set: PgUpdateSetSource<T>, notFound: () => Error) {
  const changed = await db.update(table).set(set).where(ownRow(table, id, accountId, value)).returning({ id });
  if (changed.length === 0) throw notFound();
}

/** Removes the row (what references it goes by its ON DELETE rule); none: throws `notFound()`. */
export async function deleteOwnRow(db: DbOrTx, table: Owned, id: AnyPgColumn, accountId: string, value: string, notFound: () => Error) {
  const removed = await db.delete(table).where(ownRow(table, id, accountId, value)).returning({ id });
  if (removed.length === 0) throw notFound();
}
