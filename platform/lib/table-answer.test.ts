import { z } from "@hono/zod-openapi";
import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { answerRow, tableAnswer } from "./table-answer.ts";

const things = pgTable("things", {
  thingId: text("thing_id").primaryKey(),
  label: text("label").notNull().default(""),
  note: text("note"),
  count: integer("count").notNull(),
  enabled: boolean("enabled").notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

describe("tableAnswer", () => {
  const answer = tableAnswer(things, { thing_id: "thingId", note: "note", count: "count", enabled: "enabled", seen_at: "seenAt", created_at: "createdAt" });

  it("declares the mapped columns under the answer's names, in the map's order, with the table's types; times as ISO strings", () => {
    const schema = z.toJSONSchema(z.object(answer.shape)) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(["thing_id", "note", "count", "enabled", "seen_at", "created_at"]);
    expect(schema.properties.thing_id).toEqual({ type: "string" });
    expect(schema.properties.note).toEqual({ type: ["string", "null"] });
    expect(schema.properties.count).toEqual({ type: "integer", minimum: -2147483648, maximum: 2147483647 });
    expect(schema.properties.enabled).toEqual({ type: "boolean" });
    expect(schema.properties.created_at).toEqual({ type: "string" });
    expect(schema.properties.seen_at).toEqual({ type: ["string", "null"] });
    expect(schema.required).toEqual(["thing_id", "note", "count", "enabled", "seen_at", "created_at"]);
  });

  it("selects the same columns under the same names", () => {
    expect(answer.columns).toEqual({ thing_id: things.thingId, note: things.note, count: things.count, enabled: things.enabled, seen_at: things.seenAt, created_at: things.createdAt });
  });

  it("answers a selected row with its times as ISO strings, the rest as read", () => {
    const at = new Date("2026-12-04T03:00:00.000Z");
    const row = answerRow({ thing_id: "t-1", note: null, count: 3, enabled: true, seen_at: null, created_at: at });
    expect(row).toEqual({ thing_id: "t-1", note: null, count: 3, enabled: true, seen_at: null, created_at: "2026-12-04T03:00:00.000Z" });
    expect(z.object(answer.shape).parse(row)).toEqual(row);
  });
});
