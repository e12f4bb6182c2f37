import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { PlatformApp } from "../app.ts";
import { databaseReadiness } from "../db/client.ts";
import type { Env } from "../lib/context.ts";
import { defineCall } from "../lib/openapi.ts";

/*
 * Health (docs/operations.md): /livez the process answers; /readyz the database answers, every
 * migration is applied and the instance is not draining; /health is /readyz (it used to say ok
 * whatever the database did). Public, and in the document (issue 63 item 25: the console calls
 * /health, which was undocumented). platform/server.ts also answers /livez and /readyz at the root.
 */

const tags = ["Health"];

const Alive = z.object({ status: z.literal("ok") }).openapi("Alive");

const Readiness = z
  .object({
    status: z.enum(["ready", "not ready"]),
    database: z.string().openapi({
      description: "'ok', or 'unreachable: ' and why",
      example: "ok",
    }),
    migrations: z.string().openapi({
      description: "'current', 'N of M applied', or 'unknown' when the database does not answer",
      example: "current",
    }),
    draining: z.boolean().openapi({ description: "True while the instance stops taking calls" }),
    kind: z.enum(["pglite", "postgres"]).openapi({
      description: "The database: PostgreSQL, or the embedded PGlite",
    }),
  })
  .openapi("Readiness");

const notReady = {
  503: {
    description: "Not ready: the database does not answer, a migration is missing, or the instance is draining",
    content: { "application/json": { schema: Readiness } },
  },
};

export const livez = defineCall({
  method: "get",
  path: "/livez",
  tags,
  public: true,
  summary: "Liveness: the process answers",
  response: Alive,
});

export const readyz = defineCall({
  method: "get",
  path: "/readyz",
  tags,
  public: true,
  summary: "Readiness: the database answers, migrations are current, not draining",
  response: Readiness,
  responses: notReady,
});

export const health = defineCall({
  method: "get",
  path: "/health",
  tags,
  public: true,
  summary: "Readiness, as the console checks it (the same answer as /readyz)",
  response: Readiness,
  responses: notReady,
});

async function readiness(c: Context<Env>) {
  const deps = c.get("deps");
  const db = await databaseReadiness(deps.db);
  const ok = db.ok && !deps.draining;
  const body = {
    status: ok ? ("ready" as const) : ("not ready" as const),
    database: db.database,
    migrations: db.migrations,
    draining: Boolean(deps.draining),
    kind: deps.dbKind,
  };
  return ok ? c.json(body, 200) : c.json(body, 503);
}

export function registerHealthCalls(app: PlatformApp) {
  app.openapi(livez, (c) => c.json({ status: "ok" as const }, 200));
  app.openapi(readyz, readiness);
  app.openapi(health, readiness);
}
