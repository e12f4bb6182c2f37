import { z } from "@hono/zod-openapi";
import { emailListField, idField, limits, line, multiline, text } from "../lib/fields.ts";
import { entities } from "../db/schema.ts";
import { tableAnswer } from "../lib/table-answer.ts";
import { createdOf, pageOf } from "./common.shapes.ts";
import { entityLimits } from "./entities.ts";
import { entityMessages, fieldMessages } from "./messages.ts";

/** The entity's own columns under the answer's names (its parent is answered by name, below). */
export const entityColumns = tableAnswer(entities, {
  entity_id: "entityId",
  entity_name: "entityName",
  description: "description",
  email: "email",
  created_at: "createdAt",
});
const { entity_id, entity_name, description, email, created_at } = entityColumns.shape;

export const Entity = z
  .object({
    entity_id: entity_id.openapi({ example: "ent-3k9x0q1z7m2a" }),
    entity_name,
    parent_entity_name: z.string().openapi({ description: "'' for a top-level entity" }),
    description,
    email: email.openapi({ description: "Alert e-mail addresses, comma separated ('' when none)" }),
    created_at,
  })
  .openapi("Entity");
export type Entity = z.infer<typeof Entity>;

export const EntityPage = pageOf(Entity, "EntityPage");
export const EntityCreated = createdOf("EntityCreated", "entity_id");

// The calls' requests: the platform validates with them; the console's Entities forms are these
// schemas (app/routes/entities/schemas.server.ts).

export const CreateEntityBody = z
  .strictObject({
    entity_name: text(limits.name, { min: 1, minMessage: entityMessages.nameRequired }),
    description: multiline(entityLimits.description).optional(),
    parent_entity_name: line(entityLimits.name).optional().openapi({ description: "Empty or absent: a top-level entity" }),
  })
  .openapi("CreateEntity");

export const EditEntityBody = z
  .strictObject({
    entity_id: idField("Entity id"),
    description: multiline(entityLimits.description).min(1, fieldMessages.descriptionRequired),
    email: emailListField()
      .optional()
      .openapi({ description: "Alert e-mail addresses, comma separated; '' clears them; absent keeps them" }),
  })
  .openapi("EditEntityDescription");

export const AssignParentBody = z
  .strictObject({
    entity_id: idField("Entity id"),
    parent_entity_name: line(entityLimits.name).openapi({ description: "'' makes the entity top-level" }),
  })
  .openapi("AssignEntityParent");

export const EntityIdBody = z.strictObject({ entity_id: idField("Entity id") }).openapi("EntityId");
