import { Form, Link } from "react-router";
import { PageTitle } from "../../components/forms.tsx";
import { prepareMap } from "../../components/map/markup.server.tsx";
import { WorldMap } from "../../components/map/world-map.tsx";
import { currentTab, TabPanel, Tabs } from "../../components/tabs.tsx";
import { requireSession } from "../../lib/session.server.ts";
import { devicePoints, entityNames } from "./data.server.ts";
import { BUILT_TABS, dashboardTabs, ENTITY_PARAM, MAP_ID, MAP_TITLE, NO_ENTITY_LABEL, tabIds, TITLE, type DashboardTab } from "./model.ts";
import type { Route } from "./+types/route";

/*
 * /main-dashboard (issue #26): six tabs in `?tab=`. Map View is built: the entity filter (a GET
 * form: None plus the account's entity names, `?entity=`) and the world map of the account's CPE
 * and metro devices (the map kit, app/components/map/: an SVG with its table without JavaScript,
 * Leaflet with it). The other tabs say plainly that they are coming.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const params = new URL(request.url).searchParams;
  const tab = currentTab(params, tabIds) as DashboardTab;
  if (tab !== "map") return { tab, entity: null, entities: [], entitiesError: null, map: null, mapError: null };
  const names = await entityNames(request);
  const entities = names.ok ? names.data : [];
  const asked = params.get(ENTITY_PARAM)?.trim() || null;
  // An entity that is not the account's is no filter (the dropdown offers only these).
  const entity = asked && entities.includes(asked) ? asked : null;
  const points = await devicePoints(request, entity);
  const map = points.ok ? prepareMap({ id: MAP_ID, title: entity ? `${MAP_TITLE}: ${entity}` : MAP_TITLE, points: points.data }) : null;
  return { tab, entity, entities, entitiesError: names.ok ? null : names.error, map, mapError: points.ok ? null : points.error };
}

function EntityFilter({ entities, entity }: { entities: string[]; entity: string | null }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter by entity">
      <input type="hidden" name="tab" value="map" />
      <label className="flex flex-col gap-1 text-sm" htmlFor="map-entity">
        <span className="font-semibold">Entity</span>
        <select id="map-entity" name={ENTITY_PARAM} defaultValue={entity ?? ""} key={entity ?? ""} className="select select-sm w-64 max-w-full">
          <option value="">{NO_ENTITY_LABEL}</option>
          {entities.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn btn-sm btn-primary">
        Apply
      </button>
    </Form>
  );
}

function ComingTab({ label }: { label: string }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="text-xl font-semibold">Coming soon</h2>
        <p>{label} is not available yet: it is coming in a later release. Nothing is missing from your account.</p>
        <div className="card-actions">
          <Link to="/main-dashboard?tab=map" className="btn btn-primary btn-sm">
            Go to the Map View
          </Link>
        </div>
      </div>
    </div>
  );
}

export default function MainDashboard({ loaderData }: Route.ComponentProps) {
  const { tab, entity, entities, entitiesError, map, mapError } = loaderData;
  const label = dashboardTabs.find((t) => t.id === tab)?.label ?? "";
  return (
    <section aria-labelledby="page-title" className="min-w-0 space-y-4">
      <PageTitle title={`${label} | ${TITLE}`} />
      <h1 id="page-title" className="text-2xl font-semibold">
        {TITLE}
      </h1>
      <div className="rounded-box bg-base-100 px-2 shadow-sm [&_.tab]:text-base-content">
        <Tabs label="Dashboards" tabs={dashboardTabs} current={tab} />
      </div>
      <TabPanel tab={tab}>
        {!BUILT_TABS.includes(tab) ? (
          <ComingTab label={label} />
        ) : (
          <div className="space-y-4">
            <h2 className="sr-only">Map View</h2>
            <EntityFilter entities={entities} entity={entity} />
            {entitiesError ? <p className="text-error">{entitiesError}</p> : null}
            <div className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">
              {map ? <WorldMap map={map} /> : <p className="text-error">{mapError}</p>}
            </div>
          </div>
        )}
      </TabPanel>
    </section>
  );
}
