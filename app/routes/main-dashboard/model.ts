import { monitoringRanges } from "../../../platform/contract/monitoring.ts";

/*
 * /main-dashboard (issue #26, spec 3 §2.14): the six tabs (the active one in `?tab=`), the shared
 * header's parameters (`?device=`, `?range=`) and the texts every tab shares. Each tab is a pair of
 * modules: `tab-<name>.tsx` (its view) and `tab-<name>.server.ts` (its part of the loader:
 * `load(request, ctx)`), registered once in route.tsx.
 */
export const TITLE = "Dashboards";

const tabLabels = {
  map: "Map View",
  health: "WAN Link Health",
  utilization: "WAN Link Utilization",
  visibility: "Application Visibility",
  performance: "Application Performance Insights",
  ddos: "DDoS Protection Suite",
} as const;
export type DashboardTab = keyof typeof tabLabels;
export const tabIds = Object.keys(tabLabels) as DashboardTab[];
export const dashboardTabs = tabIds.map((id) => ({ id, label: tabLabels[id] }));
export const tabLabel = (tab: DashboardTab) => tabLabels[tab];

/** Map View's entity filter: `?entity=<name>` (the device screens' filter); none (all devices) when absent or empty. */
export { ENTITY_PARAM } from "../devices-shared/entity-filter.tsx";

/** The device of tabs 2–6: `?device=<cpe_id or metro_id>`, shared by the tabs (the links keep it). */
export const DEVICE_PARAM = "device";
/** The time range of tabs 2–6 (the platform's list, monitoringRanges): `?range=`, the first the default. */
export const DASHBOARD_RANGES = monitoringRanges;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

export type DeviceKind = "cpe" | "metro";
/** A device of the picker (dashboard_get_device_names). */
export interface DashboardDevice {
  id: string;
  name: string;
  kind: DeviceKind;
}

/**
 * What a tab's loader part is given: the chosen device (null when the account has none) and range.
 * Tabs 2–6 get both; Map View ignores them.
 */
export interface TabContext {
  device: DashboardDevice | null;
  range: DashboardRange;
  params: URLSearchParams;
}

/** A device tab's loader part (tabs 2–6) is called only with a device. */
export interface DeviceTabContext extends TabContext {
  device: DashboardDevice;
}

/** The help page and each tab's section on it (the header's info link). */
export const HELP_PATH = "/main-dashboard/help";
export const helpHref = (tab: DashboardTab) => `${HELP_PATH}#${tab}`;

export const MAP_ID = "devices-map";
export const MAP_TITLE = "Devices on the map";

/** Where a device's popup and table row link to (spec 3: /routers for CPE, /ethernet-devices for metro). */
export const cpeHref = (id: string) => `/routers?selected=${encodeURIComponent(id)}`;
export const metroHref = (id: string) => `/ethernet-devices?selected=${encodeURIComponent(id)}`;
export const deviceHref = (d: Pick<DashboardDevice, "id" | "kind">) => (d.kind === "cpe" ? cpeHref(d.id) : metroHref(d.id));
