import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { entitySortable } from "../contract/entities.ts";
import { AssignParentBody, CreateEntityBody, EditEntityBody, Entity, EntityCreated, EntityIdBody, EntityPage } from "../contract/entities.shapes.ts";
import {
  assignEntityParent,
  createEntity,
  editEntityDescription,
  entityDetail,
  entityList,
  entityNames,
  exportEntities,
  removeEntity,
} from "../domain/entities.ts";
import { cachedJson } from "../lib/auth.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { idField, splitEmails } from "../lib/fields.ts";
import { ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";
import { entityMessages } from "../contract/messages.ts";

// Pattern for every call: declare it with defineCall (zod request schemas, the answer's shape from
// platform/contract/entities.shapes.ts, what else it can answer), then implement it with a handler
// that calls domain functions.

// ---------------------------------------------------------------------------------------------
// Schemas

const EntityNamesQuery = z.object({
  parent: z.enum(["true", "false"]).optional().openapi({
    description:
      "When true, only the names that can be chosen as a parent entity: with `entity_id`, every entity but that one and the entities below it (the choices of Assign Parent Entity); without it, every entity (any entity can parent a new one).",
  }),
  entity_id: idField("Entity id")
    .optional()
    .openapi({ description: "With parent=true: the entity whose parent is being chosen. Unknown id: 404." }),
});

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["Entities"];

const getEntityNames = (path: "/get_entity_names" | "/get-entity-names") =>
  defineCall({ method: "get", path, tags, summary: "Names of the caller's entities, sorted", query: EntityNamesQuery, response: z.array(z.string()), errors: [404] });
/** The names call in both spellings, for platform/contract/calls.ts. */
export type EntityNamesCall = ReturnType<typeof getEntityNames>;

export const { list: getEntity, export: exportEntitiesRoute, detail: entityDetailRoute } = defineListCalls({
  tags, sortable: entitySortable, item: Entity, itemName: "Entity", page: EntityPage,
  list: { path: "/get_entity", summary: "The caller's entities, sorted by name", rows: ["entity", "sorted by name"] },
  export: { path: "/export-entities", summary: "Every entity the search selects, streamed", description: "The rows of get_entity with the same q and sort, all of them, as NDJSON (one Entity per line), streamed from SQL in batches. Readonly users may export." },
  detail: { path: "/get-entity-detail", summary: "One entity of the caller's account", description: "The entity as get_entity lists it. Unknown id, or another account's: 404 'Entity not found.'.", query: z.object({ entity_id: idField("Entity id", "ent-3k9x0q1z7m2a") }) },
});

// A change of one entity; an unknown entity (or parent) answers 404.
export const createEntityRoute = defineChange({
  path: "/create_entity",
  tags,
  summary: "Create an entity",
  description:
    "The name is unique in the account (409 'Entity {name} already exists.'). The parent, when given, must exist (404 'Entity {name} not found.'). Answers 'Entity created.' and the new entity_id.",
  body: CreateEntityBody,
  response: EntityCreated,
  errors: [404, 409],
});

export const editEntityRoute = defineChange({
  path: "/edit_entity_description",
  tags,
  summary: "Edit an entity's description and alert e-mail addresses",
  description: "Answers 'Entity updated.'. Each address of `email` is checked; the list is stored comma-joined (no spaces), without repeats.",
  body: EditEntityBody,
});

export const assignParentRoute = defineChange({
  path: "/assign_entity_parent",
  tags,
  summary: "Set or clear an entity's parent",
  description:
    "Answers 'Parent entity assigned.' or, with an empty parent_entity_name, 'Parent entity cleared.'. An entity cannot be its own parent nor the child of an entity below it: 400 with a detail list ({loc: ['body','parent_entity_name'], type: 'entity_cycle'}).",
  body: AssignParentBody,
});

export const removeEntityRoute = defineChange({
  path: "/remove_entity",
  tags,
  summary: "Remove an entity",
  description:
    "Answers 'Entity removed.'. While the entity still has child entities, assigned contacts or IAM users: 400 with a detail list, one item per blocking reason ({loc: ['body','entity_id'], msg: 'Entity X still has 2 child entities: A, B', type: 'entity_in_use'}).",
  body: EntityIdBody,
});

export function registerEntityCalls(app: PlatformApp) {
  // The spec names this call in two spellings; both are served.
  for (const path of ["/get_entity_names", "/get-entity-names"] as const) {
    app.openapi(getEntityNames(path), async (c) => {
      const who = caller(c);
      const q = c.req.valid("query");
      const names = () =>
        entityNames(c.get("deps").db, who.accountId, {
          parentCandidatesFor: q.parent === "true" && q.entity_id ? q.entity_id : undefined,
        });
      return cachedJson(c, names);
    });
  }

  app.openapi(getEntity, async (c) => {
    return entityList.answer(c, caller(c).accountId, c.req.valid("query"));
  });

  app.openapi(entityDetailRoute, answerQuery(entityDetailRoute, (deps, who, q) => entityDetail(deps.db, who.accountId, q.entity_id)));

  app.openapi(exportEntitiesRoute, async (c) => {
    const who = caller(c);
    return ndjsonResponse(exportEntities(c.get("deps").db, who.accountId, c.req.valid("query")), c.req.raw.signal);
  });

  app.openapi(
    createEntityRoute,
    answerChange(createEntityRoute, (deps, who, b) => createEntity(deps.db, who.accountId, b), (entityId) => ({ entity_id: entityId, detail: "Entity created." })),
  );
  app.openapi(
    editEntityRoute,
    answerDetail(
      editEntityRoute,
      (deps, who, b) =>
        editEntityDescription(deps.db, who.accountId, {
          entity_id: b.entity_id,
          description: b.description,
          email: b.email === undefined ? undefined : splitEmails(b.email).join(","),
        }),
      "Entity updated.",
    ),
  );
  app.openapi(
    assignParentRoute,
    answerDetail(assignParentRoute, (deps, who, b) => assignEntityParent(deps.db, who.accountId, b), (b) => (b.parent_entity_name ? entityMessages.parentAssigned : entityMessages.parentCleared)),
  );
  app.openapi(removeEntityRoute, answerDetail(removeEntityRoute, (deps, who, b) => removeEntity(deps.db, who.accountId, b.entity_id), "Entity removed."));
}
