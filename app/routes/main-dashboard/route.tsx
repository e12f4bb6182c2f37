import type { ShouldRevalidateFunctionArgs } from "react-router";
import { Suspense } from "react";
import { Screen } from "../../components/screen.tsx";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { currentTab, TabPanel, Tabs } from "../../components/tabs.tsx";
import { intentAction, refreshIntent } from "../../lib/action.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { devicePicker } from "../../lib/dashboard-reads.server.ts";
import { DeviceHeader, NoDevice } from "./header.tsx";
import { DASHBOARD_RANGES, dashboardTabs, tabIds, tabLabel, TITLE, type DashboardTab, type DeviceTabContext } from "./model.ts";
import * as mapTab from "./tab-map.server.ts";
import * as healthTab from "./tab-health.server.ts";
import * as utilizationTab from "./tab-utilization.server.ts";
import * as visibilityTab from "./tab-visibility.server.ts";
import * as insightsTab from "./tab-insights.server.ts";
import * as ddosTab from "./tab-ddos.server.ts";
import type { TabProps } from "./tab-props.ts";
import type { Route } from "./+types/route";

/*
 * /main-dashboard (issue #26, spec 3 §2.14): six tabs in `?tab=`. Map View has its own filter; tabs
 * 2–6 share the header (header.tsx: the device picker `?device=`, the info link, Refresh, the range
 * `?range=`). Each tab is a module pair, `tab-<name>.tsx` (the view) and `tab-<name>.server.ts`
 * (`load(request, ctx)`: its part of this loader), registered once below: one loader entry and one
 * view entry.
 */

/** Tabs 2–6: their loader parts, called with the chosen device and range. */
const deviceTabLoaders = {
  health: healthTab.load,
  utilization: utilizationTab.load,
  visibility: visibilityTab.load,
  performance: insightsTab.load,
  ddos: ddosTab.load,
} satisfies Record<Exclude<DashboardTab, "map">, (request: Request, ctx: DeviceTabContext) => Promise<unknown>>;

type DeviceTab = keyof typeof deviceTabLoaders;
type DeviceTabData = {
  [K in DeviceTab]: {
    tab: K;
    data: Awaited<ReturnType<(typeof deviceTabLoaders)[K]>>;
  };
}[DeviceTab];

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const params = new URL(request.url).searchParams;
  const tab = currentTab(params, tabIds) as DashboardTab;
  const range = currentRange(params, DASHBOARD_RANGES);
  if (tab === "map")
    return {
      tab,
      map: await mapTab.load(request, { device: null, range, params }),
      header: null,
      view: null,
    };
  const picker = await devicePicker(request, params);
  const header = { range, ...picker };
  if (!picker.device) return { tab, map: null, header, view: null };
  const ctx: DeviceTabContext = { device: picker.device, range, params };
  // why the cast: TypeScript does not relate `deviceTabLoaders[tab]`'s answer to `tab` (a correlated union).
  const view = {
    tab,
    data: await deviceTabLoaders[tab](request, ctx),
  } as DeviceTabData;
  return { tab, map: null, header, view };
}

/** This screen's dialogs that show what the page already holds: opening or closing one reads nothing again. */
const DATA_FREE_DIALOGS = new Set([null, "traceroute", "post-mortem"]);
const withoutDialog = (u: URL) => {
  const p = new URLSearchParams(u.search);
  p.delete("dialog");
  p.delete("id");
  return p.toString();
};

export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const sameView = !formMethod && currentUrl.pathname === nextUrl.pathname && withoutDialog(currentUrl) === withoutDialog(nextUrl);
  const mine = DATA_FREE_DIALOGS.has(currentUrl.searchParams.get("dialog")) && DATA_FREE_DIALOGS.has(nextUrl.searchParams.get("dialog"));
  return sameView && mine ? false : defaultShouldRevalidate;
}

// Each tab's view is its own chunk in the browser (a tab loads only its charts, maps and dialogs);
// the server draws it whole, so nothing changes without JavaScript.
const MapTab = lazyChart(() => import("./tab-map.tsx").then((m) => m.default));
const HealthTab = lazyChart(() => import("./tab-health.tsx").then((m) => m.default));
const UtilizationTab = lazyChart(() => import("./tab-utilization.tsx").then((m) => m.default));
const VisibilityTab = lazyChart(() => import("./tab-visibility.tsx").then((m) => m.default));
const InsightsTab = lazyChart(() => import("./tab-insights.tsx").then((m) => m.default));
const DdosTab = lazyChart(() => import("./tab-ddos.tsx").then((m) => m.default));

// Refresh reads again and says so (every role may).
export const action = intentAction({ refresh: refreshIntent("Refreshed Dashboards.") }, { readable: ["refresh"] });

function DeviceTabView({ view, ...props }: { view: Route.ComponentProps["loaderData"]["view"] } & Omit<TabProps<unknown>, "data">) {
  switch (view?.tab) {
    case "health":
      return <HealthTab data={view.data} {...props} />;
    case "utilization":
      return <UtilizationTab data={view.data} {...props} />;
    case "visibility":
      return <VisibilityTab data={view.data} {...props} />;
    case "performance":
      return <InsightsTab data={view.data} {...props} />;
    case "ddos":
      return <DdosTab data={view.data} {...props} />;
    default:
      return null;
  }
}

export default function MainDashboard({ loaderData }: Route.ComponentProps) {
  const { tab, map, header, view } = loaderData;
  const label = tabLabel(tab);
  return (
    <Screen title={TITLE} documentTitle={`${label} | ${TITLE}`}>
      <div className="rounded-box bg-base-100 px-2 shadow-sm [&_.tab]:text-base-content">
        <Tabs label="Dashboards" tabs={dashboardTabs} current={tab} />
      </div>
      <TabPanel tab={tab}>
        <Suspense fallback={null}>
          {map ? (
            <MapTab data={map} />
          ) : header ? (
            <div className="space-y-4">
              <DeviceHeader tab={tab} {...header} />
              {header.device ? <DeviceTabView view={view} device={header.device} range={header.range} /> : header.error ? null : <NoDevice />}
            </div>
          ) : null}
        </Suspense>
      </TabPanel>
    </Screen>
  );
}
