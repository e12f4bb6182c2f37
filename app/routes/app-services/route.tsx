import { Suspense } from "react";
import { data } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { createHint, DataTable, SelectionStatus, type RowMenuSpec } from "../../components/data-table.tsx";
import { TableToolbar } from "../../components/table-toolbar.tsx";
import { useCanWrite, useDialog } from "../../components/hooks.ts";
import { ServicePage } from "../services-shared/page.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { apiGetOrThrow, apiListOrThrow } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery, selectedRows } from "../../lib/table.server.ts";
import { readDraft } from "../services-shared/draft.ts";
import { contactOptions } from "../services-shared/intents.server.ts";
import { appServiceAction } from "./actions.server.ts";
import { columns, hideable, sortable, tableFields } from "./columns.ts";
import { appServiceDeployments, CREATE_FIELDS, namedTalkers, topTalkerRangeMs, topTalkerRanges, type AppService, type AppServiceDeployment } from "./model.ts";
import { constraints } from "./schemas.server.ts";
import { AppServiceTabs, tabs, type TabData } from "./tabs.tsx";
import type { Route } from "./+types/route";

/** The create button's label (spec), also named by the empty table's hint. */
const CREATE = "Create App Service";

/* ------------------------------------------------------------------------------------------------
 * App Services (spec 1 §2 App Services screen, §3 AppService/Hosting/Top talker, §5, §7, §8, §9).
 * The action is ./actions.server.ts; the dialogs shared with Endpoints ../services-shared/.
 * ---------------------------------------------------------------------------------------------- */

const getRowId = (r: AppService) => r.app_service_id;
const rowLabel = (r: AppService) => r.app_service_name;
// The dialogs: loaded in the browser when one opens (screen-dialogs.tsx).
const AppServiceDialogs = lazyChart(() => import("./screen-dialogs.tsx").then((m) => m.AppServiceDialogs));

const deploymentOf = (v: string | null): AppServiceDeployment => ((appServiceDeployments as readonly string[]).includes(v ?? "") ? (v as AppServiceDeployment) : "aws");
const hostingLocationOf = (v: string | null): "aws" | "azure" | "onprem" => (v === "azure" || v === "onprem" ? v : "aws");
const rangeOf = (v: string | null) => ((topTalkerRanges as readonly string[]).includes(v ?? "") ? (v as keyof typeof topTalkerRangeMs) : "1h");

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const p = new URL(request.url).searchParams;
  const deployment = deploymentOf(p.get("deployment"));
  const hostingLocation = hostingLocationOf(p.get("location"));
  const regionsFor = (d: string) => (d === "aws" || d === "azure" ? apiGetOrThrow(request, `list-${d}-regions`) : Promise.resolve([]));
  const needsGroups = (dialog === "create" && (deployment === "onprem" || deployment === "network")) || (dialog === "add-hosting" && hostingLocation === "onprem");
  const [table, regions, groups, dialogService, contacts] = await Promise.all([
    fetchTablePage(request, "list-app-service", state, { getRowId, fields: tableFields }),
    dialog === "create" ? regionsFor(deployment) : dialog === "add-hosting" ? regionsFor(hostingLocation) : Promise.resolve([]),
    needsGroups ? apiListOrThrow(request, "list-service-node-group") : Promise.resolve(null),
    dialogId && dialog && dialog !== "remove-hosting" ? apiGetOrThrow(request, "get-app-service-detail", { app_service_id: dialogId }).catch(() => null) : null,
    dialog === "contacts" ? contactOptions(request) : Promise.resolve([]),
  ]);
  const resizeHostings = dialog === "resize" && dialogService ? await apiGetOrThrow(request, "app-service-get-hosting", { app_service_id: dialogService.app_service_id }) : [];

  // The tabs: only for one selected App Service that the current result holds.
  // The list's row is the whole AppService (the detail call's shape): no second call for it.
  const selected = table.selected.length === 1 ? (selectedRows(table)[0] ?? null) : null;
  const tab = tabs.current(p);
  const tabData: TabData = {};
  if (selected) {
    const id = { app_service_id: selected.app_service_id };
    if (tab === "endpoints") tabData.endpoints = await apiGetOrThrow(request, "get-app-service-endpoints", id);
    if (tab === "top-talkers") {
      const range = rangeOf(p.get("range"));
      const end = Date.now();
      tabData.range = range;
      // The talkers carry ids only: the endpoints' names come from the service's endpoints.
      const [talkers, endpoints] = await Promise.all([
        apiGetOrThrow(request, "get-top-talker-ep", {
          ...id,
          start_time: new Date(end - topTalkerRangeMs[range]).toISOString(),
          end_time: new Date(end).toISOString(),
        }),
        apiGetOrThrow(request, "get-app-service-endpoints", id),
      ]);
      tabData.talkers = namedTalkers(talkers, endpoints);
    }
    if (tab === "hosting" || dialog === "add-hosting") tabData.hostings = await apiGetOrThrow(request, "app-service-get-hosting", id);
  }
  return data(
    {
      table,
      regions,
      groups,
      dialogService,
      contacts,
      resizeHostings,
      selected,
      tabData,
      deployment,
      draft: readDraft(p.get("draft"), CREATE_FIELDS),
      hostingLocation,
      exportLink: exportHref("/app-services/export.csv", state),
      constraints: dialog ? constraints : null,
    },
    { headers },
  );
}

export const action = appServiceAction;

/* Component ------------------------------------------------------------------------------------ */

/** Test Reachability only reads: a readonly user's menu has it alone (issue 27 item 8). */
function readonlyMenu(r: AppService): RowMenuSpec {
  return { label: `Actions for ${r.app_service_name}`, items: [{ label: "Test Reachability", dialog: "latency" }] };
}

function menu(r: AppService): RowMenuSpec {
  const items: MenuItem[] = [
    { label: "Edit Name", dialog: "rename" },
    { label: "Edit Description", dialog: "describe" },
    { label: "Edit App Service", dialog: "edit" },
    { label: "Test Reachability", dialog: "latency" },
    { label: "Setup Contacts", dialog: "contacts" },
    { label: "Resize App Service", dialog: "resize", disabled: r.deployment === "onprem" },
    { label: "Delete", dialog: "remove", danger: true },
  ];
  return { label: `Actions for ${r.app_service_name}`, items };
}

export default function AppServices({ loaderData, actionData }: Route.ComponentProps) {
  const { table, selected, tabData, exportLink } = loaderData;
  const canWrite = useCanWrite();
  // Every role may test reachability; the other dialogs change something (writers only).
  const dialog = useDialog(["latency"]);
  const latency = actionData && "latency" in actionData ? (actionData.latency as Record<string, unknown>) : null;
  const result = actionData && "result" in actionData ? actionData.result : undefined;

  return (
    <ServicePage title="App Services" error={result?.status === "error"}>
      <DataTable
        caption="App Services"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={rowLabel}
        selection="multiple"
        linkColumn="app_service_name"
        toolbar={<TableToolbar createLabel={CREATE} exportLink={exportLink} refresh />}
        emptyHint={createHint(CREATE, canWrite)}
        rowMenu={canWrite ? menu : readonlyMenu}
      />

      <SelectionStatus count={table.selected.length} plural="App Services">
        {selected ? <AppServiceTabs service={selected} data={{ ...tabData, latency }} /> : null}
      </SelectionStatus>

      {/* The dialogs load in the browser when one opens (screen-dialogs.tsx); the boundary stays, so opening one waits for its code. */}
      <Suspense fallback={null}>{dialog ? <AppServiceDialogs dialog={dialog} loaderData={loaderData} actionData={actionData} /> : null}</Suspense>
    </ServicePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
