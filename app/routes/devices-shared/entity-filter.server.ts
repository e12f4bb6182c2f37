import { apiGet } from "../../lib/api.server.ts";
import { ENTITY_PARAM } from "./entity-filter.tsx";

/*
 * The entity filter's loader half: the account's entity names and the one the URL asks for (an
 * unknown name is no filter), with the list call's filter (`entity_name`).
 */
export async function entityFilterOf(request: Request) {
  const res = await apiGet<string[]>(request, "get_entity_names");
  const entities = res.ok ? res.data : [];
  const asked = new URL(request.url).searchParams.get(ENTITY_PARAM)?.trim() || null;
  const entity = asked && entities.includes(asked) ? asked : null;
  const query: Record<string, string> = entity ? { entity_name: entity } : {};
  return { entities, entity, query };
}
