import { z } from "@hono/zod-openapi";
import { getTableColumns, type Table } from "drizzle-orm";
import { createSelectSchema, type BuildSchema } from "drizzle-zod";
import { isoTime } from "../contract/common.shapes.ts";

/*
 * An answer whose fields are a table's columns under the answer's names: one rename map gives the
 * answer's zod fields (drizzle-zod's select schema of the table, so a column's type, nullability and
 * integer range are the table's), the select that reads them and the row the answer sends. A
 * timestamp column is answered as an ISO 8601 time in UTC (the contract's `isoTime`), as every
 * answer sends times. Fields that are not a column of the table (a joined name, a count) stay
 * declared by hand beside them.
 */

type Columns<T extends Table> = T["_"]["columns"];
type SelectShape<T extends Table> = BuildSchema<"select", Columns<T>, undefined, undefined>["shape"];
/** The answer's name → the table's column key. */
export type Rename<T extends Table> = Record<string, keyof Columns<T> & string>;

/** A column's answer field: its select schema, a timestamp as an ISO time. */
type AnswerField<S> = S extends z.ZodDate ? z.ZodString : S extends z.ZodNullable<z.ZodDate> ? z.ZodNullable<z.ZodString> : S;
/** A value as the answer sends it. */
type Answered<V> = V extends Date ? string : V extends Date | null ? string | null : V;

export interface TableAnswer<T extends Table, M extends Rename<T>> {
  /** The answer's fields, in the rename map's order. */
  shape: { [A in keyof M]: AnswerField<SelectShape<T>[M[A]]> };
  /** What a `db.select({...})` reads for them. */
  columns: { [A in keyof M]: Columns<T>[M[A]] };
}

/** The answer's fields derived from `table` under the names of `rename` (answer name → column key). */
export function tableAnswer<T extends Table, const M extends Rename<T>>(table: T, rename: M): TableAnswer<T, M> {
  // why: drizzle-zod's shape is typed by column key; the loop reads it by a key of the map, checked by Rename<T>.
  const select = createSelectSchema(table).shape as Record<string, z.ZodType>;
  const all = getTableColumns(table);
  const shape: Record<string, z.ZodType> = {};
  const columns: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(rename)) {
    shape[name] = isoIfDate(select[key]!);
    columns[name] = all[key];
  }
  // why: built key by key from the map above; the mapped types say the same per key.
  return { shape, columns } as unknown as TableAnswer<T, M>;
}

/** A timestamp's field as an ISO time. */
function isoIfDate(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodDate) return isoTime();
  if (field instanceof z.ZodNullable && field.unwrap() instanceof z.ZodDate) return isoTime().nullable();
  return field;
}

/** A selected row as the answer sends it: each Date as its ISO time. */
export function answerRow<R extends Record<string, unknown>>(row: R): { [K in keyof R]: Answered<R[K]> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = value instanceof Date ? value.toISOString() : value;
  // why: the loop above converts exactly the Date values, as the mapped type says.
  return out as { [K in keyof R]: Answered<R[K]> };
}
