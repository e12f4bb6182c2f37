import { prepareMap } from "../../components/map/markup.server.tsx";
import type { MapPoint } from "../../components/map/model.ts";
import type { SummaryDevice } from "../../../platform/contract/monitoring.ts";
import { part } from "./feeds.server.ts";
import { deviceHref, ENTITY_PARAM, MAP_ID, MAP_TITLE, type TabContext } from "./model.ts";

/*
 * Map View's part of the loader (tab-map.tsx): the entity names (the filter's choices), then the
 * summary (dashboard_get_summary, with `entity_name` when one is chosen): the count cards and the
 * devices, drawn on the map. Each call fails on its own: its message takes its place.
 */

export const devicePoint = (d: SummaryDevice): MapPoint => ({
  id: d.id,
  name: d.name,
  product: d.prod_code,
  address: d.address,
  latitude: d.latitude,
  longitude: d.longitude,
  status: d.op_state,
  href: deviceHref(d),
});

export async function load(request: Request, { params }: TabContext) {
  const names = await part(request, "get_entity_names");
  const entities = names.ok ? names.data : [];
  const asked = params.get(ENTITY_PARAM)?.trim() || null;
  // An entity that is not the account's is no filter (the dropdown offers only these).
  const entity = asked && entities.includes(asked) ? asked : null;
  const summary = await part(request, "dashboard_get_summary", entity ? { entity_name: entity } : {});
  const map = summary.ok
    ? prepareMap({
        id: MAP_ID,
        title: entity ? `${MAP_TITLE}: ${entity}` : MAP_TITLE,
        points: summary.data.devices.map(devicePoint),
      })
    : null;
  return {
    entity,
    entities,
    entitiesError: names.ok ? null : names.error,
    map,
    counts: summary.ok ? { ok: true as const, global: summary.data.global } : { ok: false as const, error: summary.error },
  };
}
