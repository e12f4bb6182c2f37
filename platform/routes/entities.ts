import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { entityLimits, entitySortable, type Entity } from "../contract/entities.ts";
import {
  assignEntityParent,
  createEntity,
  editEntityDescription,
  entityDetail,
  entityNames,
  exportEntities,
  listEntities,
  queryEntities,
  removeEntity,
} from "../domain/entities.ts";
import { cachedJson } from "../lib/auth.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { emailListField, idField, line, multiline, requiredName, splitEmails } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, ndjsonResponse, pageSchema, wantsPage } from "../lib/list.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";

// Pattern for every call: declare it with createRoute (zod request + response schemas and every
// status it can answer), then implement it with a handler that calls domain functions.

// ---------------------------------------------------------------------------------------------
// Schemas

const EntitySchema = z
  .object({
    entity_id: z.string().openapi({ example: "ent-3k9x0q1z7m2a" }),
    entity_name: z.string(),
    parent_entity_name: z.string().openapi({ description: "'' for a top-level entity" }),
    description: z.string(),
    email: z.string().openapi({ description: "Alert e-mail addresses, comma separated ('' when none)" }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Entity") satisfies z.ZodType<Entity>;

const EntityPageSchema = pageSchema(EntitySchema, "EntityPage");
const EntityQuery = z.object({ ...listQuery(entitySortable), ids: idsFilter });

const EntityNamesQuery = z.object({
  parent: z.enum(["true", "false"]).optional().openapi({
    description:
      "When true, only the names that can be chosen as a parent entity: with `entity_id`, every entity but that one and the entities below it (the choices of Assign Parent Entity); without it, every entity (any entity can parent a new one).",
  }),
  entity_id: idField("Entity id")
    .optional()
    .openapi({ description: "With parent=true: the entity whose parent is being chosen. Unknown id: 404." }),
});

const CreateEntityBody = z
  .strictObject({
    entity_name: requiredName("Entity name"),
    description: multiline(entityLimits.description).optional(),
    parent_entity_name: line(entityLimits.name).optional().openapi({ description: "Empty or absent: a top-level entity" }),
  })
  .openapi("CreateEntity");

const EditEntityBody = z
  .strictObject({
    entity_id: idField("Entity id"),
    description: multiline(entityLimits.description).min(1, "Description is required"),
    email: emailListField()
      .optional()
      .openapi({ description: "Alert e-mail addresses, comma separated; '' clears them; absent keeps them" }),
  })
  .openapi("EditEntityDescription");

const AssignParentBody = z
  .strictObject({
    entity_id: idField("Entity id"),
    parent_entity_name: line(entityLimits.name).openapi({ description: "'' makes the entity top-level" }),
  })
  .openapi("AssignEntityParent");

const EntityIdBody = z.strictObject({ entity_id: idField("Entity id") }).openapi("EntityId");

const CreatedEntitySchema = z.object({ entity_id: z.string(), detail: z.string() }).openapi("EntityCreated");

// ---------------------------------------------------------------------------------------------
// Calls

const getEntityNames = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Entities"],
    summary: "Names of the caller's entities, sorted",
    security: bearer,
    request: { query: EntityNamesQuery },
    responses: { ...ok(z.array(z.string())), ...errors(401, 404, 422) },
  });

const getEntity = createRoute({
  method: "get",
  path: "/get_entity",
  tags: ["Entities"],
  summary: "The caller's entities, sorted by name",
  description:
    "Without list parameters: every entity, sorted by name (the spec's array). With any of q, sort, page, size, ids: one page `{items, total}`, searched, sorted and paged in SQL.",
  security: bearer,
  request: { query: EntityQuery },
  responses: {
    ...ok(z.union([z.array(EntitySchema), EntityPageSchema]), "The spec's array, or a page when list parameters are given"),
    ...errors(401, 422),
  },
});

const entityDetailRoute = createRoute({
  method: "get",
  path: "/get-entity-detail",
  tags: ["Entities"],
  summary: "One entity of the caller's account",
  description: "The entity as get_entity lists it. Unknown id, or another account's: 404 'Entity not found'.",
  security: bearer,
  request: { query: z.object({ entity_id: idField("Entity id") }) },
  responses: { ...ok(EntitySchema), ...errors(401, 404, 422) },
});

const exportEntitiesRoute = createRoute({
  method: "get",
  path: "/export-entities",
  tags: ["Entities"],
  summary: "Every entity the search selects, streamed",
  description:
    "The rows of get_entity with the same q and sort, all of them, as NDJSON (one Entity per line), streamed from SQL in batches. Readonly users may export.",
  security: bearer,
  request: { query: z.object(exportQuery(entitySortable)) },
  responses: { ...ndjsonOk(EntitySchema, "One Entity (JSON) per line"), ...errors(401, 422) },
});

const createEntityRoute = createRoute({
  method: "post",
  path: "/create_entity",
  tags: ["Entities"],
  summary: "Create an entity",
  description:
    "The name is unique in the account (409 'Entity {name} already exists.'). The parent, when given, must exist (404 'Entity {name} not found.'). Answers 'Entity created.' and the new entity_id.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(CreateEntityBody),
  responses: { ...ok(CreatedEntitySchema), ...writeResponses, ...errors(409) },
});

const editEntityRoute = createRoute({
  method: "post",
  path: "/edit_entity_description",
  tags: ["Entities"],
  summary: "Edit an entity's description and alert e-mail addresses",
  description: "Answers 'Entity updated.'. Each address of `email` is checked; the list is stored comma-joined (no spaces), without repeats.",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(EditEntityBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const assignParentRoute = createRoute({
  method: "post",
  path: "/assign_entity_parent",
  tags: ["Entities"],
  summary: "Set or clear an entity's parent",
  description:
    "Answers 'Parent entity assigned.' or, with an empty parent_entity_name, 'Parent entity cleared.'. An entity cannot be its own parent nor the child of an entity below it: 400 with a detail list ({loc: ['body','parent_entity_name'], type: 'entity_cycle'}).",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(AssignParentBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

const removeEntityRoute = createRoute({
  method: "post",
  path: "/remove_entity",
  tags: ["Entities"],
  summary: "Remove an entity",
  description:
    "Answers 'Entity removed.'. While the entity still has child entities, assigned contacts or IAM users: 400 with a detail list, one item per blocking reason ({loc: ['body','entity_id'], msg: 'Entity X still has 2 child entities: A, B', type: 'entity_in_use'}).",
  security: bearer,
  middleware: [writerOnly],
  request: jsonBody(EntityIdBody),
  responses: { ...ok(DetailSchema), ...writeResponses },
});

export function registerEntityCalls(app: PlatformApp) {
  // The spec names this call in two spellings; both are served.
  for (const path of ["/get_entity_names", "/get-entity-names"]) {
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
    const who = caller(c);
    const query = c.req.valid("query");
    const db = c.get("deps").db;
    if (wantsPage(query)) return cachedJson(c, () => queryEntities(db, who.accountId, query));
    return cachedJson(c, () => listEntities(db, who.accountId));
  });

  app.openapi(entityDetailRoute, async (c) => {
    const who = caller(c);
    return c.json(await entityDetail(c.get("deps").db, who.accountId, c.req.valid("query").entity_id), 200);
  });

  app.openapi(exportEntitiesRoute, async (c) => {
    const who = caller(c);
    return (await ndjsonResponse(exportEntities(c.get("deps").db, who.accountId, c.req.valid("query")), c.req.raw.signal)) as never;
  });

  app.openapi(createEntityRoute, async (c) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    const entityId = await createEntity(c.get("deps").db, who.accountId, body);
    return c.json({ entity_id: entityId, detail: "Entity created." }, 200);
  });

  app.openapi(editEntityRoute, async (c) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    await editEntityDescription(c.get("deps").db, who.accountId, {
      entity_id: body.entity_id,
      description: body.description,
      email: body.email === undefined ? undefined : splitEmails(body.email).join(","),
    });
    return c.json({ detail: "Entity updated." }, 200);
  });

  app.openapi(assignParentRoute, async (c) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    await assignEntityParent(c.get("deps").db, who.accountId, body);
    return c.json({ detail: body.parent_entity_name ? "Parent entity assigned." : "Parent entity cleared." }, 200);
  });

  app.openapi(removeEntityRoute, async (c) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    await removeEntity(c.get("deps").db, who.accountId, body.entity_id);
    return c.json({ detail: "Entity removed." }, 200);
  });
}
