import { data, Link } from "react-router";
import { ListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { intentAction, refreshIntent } from "../../lib/action.server.ts";
import { formConstraints } from "../../components/constraints.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery, selectedRows } from "../../lib/table.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { currentTab } from "../../components/tabs.tsx";
import type { NodeCloudInit } from "../../../platform/contract/nodes.ts";
import { hideable, screen, sortable } from "./columns.ts";
import { SERVICE_NODE_TAB_IDS, type ServiceNode, type ServiceNodeDetail } from "./model.ts";
import { nodeIntents } from "./node-actions.server.ts";
import { CreateNodeDialog } from "./node-create.tsx";
import { FormFactorDialog, HealthDialog, RemoveNodeDialog } from "./node-dialogs.tsx";
import { serviceKind as info, serviceNodeView } from "./node-kind.ts";
import { nodeDialogData } from "./node-loader.server.ts";
import { nodeMonitoring } from "./node-metrics.server.ts";
import { createNodeSchema, HardwareSchema, HostedSchema } from "./node-schemas.server.ts";
import { ServiceNodeTabs } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Service Nodes (spec 2 §2 /service-nodes, §3 Service node, §4, §5, §7 Service nodes, §8, §9): the
 * table, Create Service Node (the three-step flow), the row menu (Manage Form Factor, Test Node
 * Health, Delete), the selected node's tabs. The flow, dialogs and Monitoring tab are shared with
 * /endpoint-nodes (node-*.tsx here).
 * ---------------------------------------------------------------------------------------------- */

const constraints = formConstraints({ create: createNodeSchema(info), hw: HardwareSchema, hosted: HostedSchema });

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const [table, dialogData] = await Promise.all([
    fetchTablePage<ServiceNode>(request, "list_service_node", state, screen),
    nodeDialogData<ServiceNodeDetail>(request, info, dialog, dialogId, serviceNodeView),
  ]);
  const picked = selectedRows(table)[0];
  const params = new URL(request.url).searchParams;
  const selected = picked ? await apiGet<ServiceNodeDetail>(request, info.calls.detail, { service_node_id: picked.service_node_id }).then((r) => (r.ok ? r.data : null)) : null;
  const monitoring = selected && currentTab(params, SERVICE_NODE_TAB_IDS) === "monitoring" ? await nodeMonitoring(request, selected.service_node_id, selected.service_node_name) : null;
  const { detail: _detail, ...dialogs } = dialogData;
  return data({ table, ...dialogs, selected, monitoring, exportLink: exportHref("/service-nodes/export.csv", state), constraints }, { headers });
}

export const action = intentAction({ ...nodeIntents(info), refresh: refreshIntent("Refreshed Service Nodes.") }, { readable: ["refresh"] });

/* Component ------------------------------------------------------------------------------------ */

function menuItems(r: ServiceNode): MenuItem[] {
  return [
    r.form_factor
      ? { label: "Manage Form Factor", dialog: "form-factor" }
      : { label: "Manage Form Factor", href: `?dialog=create&step=form-factor&id=${encodeURIComponent(r.service_node_id)}&ff=hosted_aws` },
    { label: "Test Node Health", dialog: "health" },
    { label: "Delete", dialog: "remove", danger: true },
  ];
}

const cloudInitOf = (actionData: unknown) => (actionData && typeof actionData === "object" && "cloudInit" in actionData ? (actionData.cloudInit as NodeCloudInit) : null);

export default function ServiceNodes({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, step, choice, groups, regions, health, healthError, selected, monitoring, exportLink } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);
  const ff = { info, choice, regions, cloudInit: cloudInitOf(actionData), lastResult: result };
  return (
    <ListScreen
      screen={screen}
      error={error}
      page={table}
      toolbar={{
        exportLink,
        children: (
          <Link to="/service-node-groups" className="btn btn-outline btn-sm">
            Manage Service Node Groups
          </Link>
        ),
      }}
      menu={menuItems}
      details={selected ? <ServiceNodeTabs node={selected} monitoring={monitoring} /> : null}
    >
      {dialog === "create" ? <CreateNodeDialog {...ff} step={step} node={target} groups={groups} screen="Service Nodes" /> : null}
      {dialog === "form-factor" ? <FormFactorDialog {...ff} node={target} /> : null}
      {dialog === "health" ? <HealthDialog node={target} health={health} error={healthError} /> : null}
      {dialog === "remove" ? <RemoveNodeDialog info={info} node={target} dialogId={dialogId} lastResult={result} /> : null}
    </ListScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
