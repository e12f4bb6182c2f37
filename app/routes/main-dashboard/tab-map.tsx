import { Link } from "react-router";
import { EntityFilter } from "../devices-shared/entity-filter.tsx";
import { WorldMap } from "../../components/map/world-map.tsx";
import { summaryItems, type SummaryItem } from "../../../platform/contract/monitoring.ts";
import type { load } from "./tab-map.server.ts";

/*
 * Map View (spec 3 §2.14): the entity filter (the device screens' own: None plus the account's
 * entity names, `?entity=`), a count card per global summary item (dashboard_get_summary), and the world map
 * of the account's CPE and metro devices (the map kit: an SVG with its table without JavaScript,
 * Leaflet with it).
 */

export type MapTabData = Awaited<ReturnType<typeof load>>;

/** Where each count card leads. */
const cardHref: Record<SummaryItem, string> = {
  "Internet NIDs": "/routers",
  "Metro Ethernet NIDs": "/ethernet-devices",
  "Devices Up": "#devices-map-table",
  "Devices Down": "#devices-map-table",
  "App Services": "/app-services",
  Endpoints: "/endpoints",
  "Service Nodes": "/service-nodes",
  "Endpoint Nodes": "/endpoint-nodes",
  "User Agents": "/user-agents",
};

function CountCards({ counts }: { counts: MapTabData["counts"] }) {
  if (!counts.ok) return <p className="text-error">{counts.error}</p>;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Summary">
      {summaryItems.map((item) => {
        const href = cardHref[item];
        const body = (
          <>
            <span className="block text-sm">{item}</span>
            <span className="block text-3xl font-semibold tabular-nums">{counts.global[item] ?? 0}</span>
          </>
        );
        const className = "card bg-base-100 block h-full p-4 shadow-sm hover:bg-base-200";
        return (
          <li key={item} data-testid="summary-card">
            {href.startsWith("#") ? (
              <a href={href} className={className}>
                {body}
              </a>
            ) : (
              <Link to={href} className={className}>
                {body}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export default function MapTab({ data }: { data: MapTabData }) {
  const { entity, entities, entitiesError, map, counts } = data;
  return (
    <div className="space-y-4">
      <h2 className="sr-only">Map View</h2>
      <EntityFilter entities={entities} current={entity} id="map-entity" />
      {entitiesError ? <p className="text-error">{entitiesError}</p> : null}
      <CountCards counts={counts} />
      <div className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">{map ? <WorldMap map={map} /> : <p className="text-error">{counts.ok ? null : counts.error}</p>}</div>
    </div>
  );
}
