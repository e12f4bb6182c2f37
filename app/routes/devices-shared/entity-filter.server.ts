import { apiGet } from "../../lib/api.server.ts";
import { ENTITY_PARAM } from "./entity-filter.tsx";

/*
 * The entity filter's loader half: the account's entity names and the one the URL asks for (an
 * unknown name is no filter), with the list call's filter (`entity_name`).
 */

export interface EntityFilter {
  entities: string[];
  entity: string | null;
  query: Record<string, string>;
}

const entityNames = (request: Request) => apiGet(request, "get_entity_names").then((res) => (res.ok ? res.data : []));
const askedEntity = (request: Request) => new URL(request.url).searchParams.get(ENTITY_PARAM)?.trim() || null;

export async function entityFilterOf(request: Request): Promise<EntityFilter> {
  const entities = await entityNames(request);
  const asked = askedEntity(request);
  const entity = asked && entities.includes(asked) ? asked : null;
  return { entities, entity, query: entity ? { entity_name: entity } : {} };
}

/**
 * The filter and what `load` makes of its query (the list's page). When the URL names no entity
 * (the usual view) both calls go at once: the page waits for one round trip to the platform, not
 * two; a named entity is checked against the names first.
 */
export async function withEntityFilter<T>(request: Request, load: (query: Record<string, string>) => Promise<T>): Promise<[EntityFilter, T]> {
  if (askedEntity(request) === null) {
    const [entities, value] = await Promise.all([entityNames(request), load({})]);
    return [{ entities, entity: null, query: {} }, value];
  }
  const filter = await entityFilterOf(request);
  return [filter, await load(filter.query)];
}
