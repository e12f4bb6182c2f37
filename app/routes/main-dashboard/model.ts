/*
 * /main-dashboard (issue #26, spec 2 §2): the six tabs (the active one in `?tab=`), the entity
 * filter's parameter and the Map View's texts. Only Map View is built; the other tabs say so.
 */
export const TITLE = "Dashboards";

export const dashboardTabs = [
  { id: "map", label: "Map View" },
  { id: "health", label: "WAN Link Health" },
  { id: "utilization", label: "WAN Link Utilization" },
  { id: "visibility", label: "Application Visibility" },
  { id: "performance", label: "Application Performance Insights" },
  { id: "ddos", label: "DDoS Protection Suite" },
] as const;
export type DashboardTab = (typeof dashboardTabs)[number]["id"];
export const tabIds = dashboardTabs.map((t) => t.id);
export const BUILT_TABS: readonly DashboardTab[] = ["map"];

/** The entity filter: `?entity=<name>`; none (all devices) when absent or empty. */
export const ENTITY_PARAM = "entity";
export const NO_ENTITY_LABEL = "None";

export const MAP_ID = "devices-map";
export const MAP_TITLE = "Devices on the map";

/** Where a device's popup and table row link to (spec 3: /routers for CPE, /ethernet-devices for metro). */
export const cpeHref = (id: string) => `/routers?selected=${encodeURIComponent(id)}`;
export const metroHref = (id: string) => `/ethernet-devices?selected=${encodeURIComponent(id)}`;
