import { z } from "@hono/zod-openapi";

/*
 * Shapes every area's answers share. Zod lives in the *.shapes.ts files only (docs/decisions/2026-11-25-one-way.md):
 * the console imports their types, never their values, so zod stays out of the browser.
 */

/** One page of a list: `{items, total}` (the list calls given q, sort, page, size or ids). */
export const pageOf = <S extends z.ZodType>(item: S, name: string) =>
  z.object({ items: z.array(item), total: z.number().int().openapi({ description: "Rows the search and filters select" }) }).openapi(name);

/** `{<id>, detail}`: what a create answers. */
export const createdOf = <const K extends string>(name: string, idName: K) =>
  z.object({ [idName]: z.string(), detail: z.string() } as { [P in K]: z.ZodString } & { detail: z.ZodString }).openapi(name);

/** An ISO 8601 time in UTC. */
export const isoTime = () => z.string().openapi({ format: "date-time" });

/*
 * Field groups several shapes hold the same way (spread them where the shape lists those fields, in
 * that order): one declaration each, so the areas cannot drift apart.
 */

/** How to reach a person or an account: contacts, IAM users, the account itself. */
export const reachFields = { email: z.string(), phone: z.string(), address: z.string() };

/** A named person or account with its contact details (IAM users, the account). */
export const personFields = { name: z.string(), ...reachFields };

/** A row's creation and last change. */
export const changedFields = { created_at: isoTime(), updated_at: isoTime() };

/** The business and technical contacts of an app service or an endpoint (spec 1 §3). */
export const serviceContactFields = {
  primary_contact_id: z.string().nullable().openapi({ description: "The business contact" }),
  primary_contact: z.string().nullable(),
  secondary_contact_id: z.string().nullable().openapi({ description: "The technical contact" }),
  secondary_contact: z.string().nullable(),
};

/** Bytes of a flow each way (sessions, netflows). */
export const txRxFields = { tx_bytes: z.number(), rx_bytes: z.number() };

/** measure-*-latency: key/value pairs. */
export const Latency = z.record(z.string(), z.union([z.string(), z.number(), z.null()])).openapi("Latency");
export type Latency = z.infer<typeof Latency>;
