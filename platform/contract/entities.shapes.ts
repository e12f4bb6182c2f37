import { z } from "@hono/zod-openapi";
import { createdOf, isoTime, pageOf } from "./common.shapes.ts";

export const Entity = z
  .object({
    entity_id: z.string().openapi({ example: "ent-3k9x0q1z7m2a" }),
    entity_name: z.string(),
    parent_entity_name: z.string().openapi({ description: "'' for a top-level entity" }),
    description: z.string(),
    email: z.string().openapi({ description: "Alert e-mail addresses, comma separated ('' when none)" }),
    created_at: isoTime(),
  })
  .openapi("Entity");
export type Entity = z.infer<typeof Entity>;

export const EntityPage = pageOf(Entity, "EntityPage");
export const EntityCreated = createdOf("EntityCreated", "entity_id");
