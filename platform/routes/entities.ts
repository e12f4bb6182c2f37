import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import type { PlatformApp } from "../app.ts";
import { entities } from "../db/schema.ts";
import { caller } from "../lib/context.ts";
import { bearer, errors, ok } from "../lib/openapi.ts";

// Pattern for every call: declare it with createRoute (zod request + response schemas and every
// status it can answer), then implement it with a handler that calls domain functions.

const EntityNamesQuery = z.object({
  parent: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "When true, only the names that can be chosen as a parent entity" }),
});

const getEntityNames = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Entities"],
    summary: "Names of the caller's entities",
    security: bearer,
    request: { query: EntityNamesQuery },
    responses: { ...ok(z.array(z.string())), ...errors(401, 422) },
  });

export function registerEntityCalls(app: PlatformApp) {
  // The spec names this call in two spellings; both are served.
  for (const path of ["/get_entity_names", "/get-entity-names"]) {
    app.openapi(getEntityNames(path), async (c) => {
      const who = caller(c);
      const rows = await c
        .get("deps")
        .db.select({ name: entities.entityName })
        .from(entities)
        .where(eq(entities.accountId, who.accountId))
        .orderBy(asc(entities.entityName));
      return c.json(
        rows.map((r) => r.name),
        200,
      );
    });
  }
}
