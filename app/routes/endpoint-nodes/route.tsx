import { data, Link } from "react-router";
import { formConstraints } from "../../components/constraints.server.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { failureReply, intentAction, refreshIntent, submitForm } from "../../lib/action.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery, selectedRows } from "../../lib/table.server.ts";
import { nodeMessages, type NodeCloudInit } from "../../../platform/contract/nodes.ts";
import { AddressToggleDialog } from "../endpoint-node-groups/address-toggle.tsx";
import { nodeIntents } from "../service-nodes/node-actions.server.ts";
import { CreateNodeDialog } from "../service-nodes/node-create.tsx";
import { FormFactorDialog, goneText, HealthDialog, RemoveNodeDialog } from "../service-nodes/node-dialogs.tsx";
import { endpointKind as info, endpointNodeView } from "../service-nodes/node-kind.ts";
import { nodeDialogData } from "../service-nodes/node-loader.server.ts";
import { nodeMonitoring } from "../service-nodes/node-metrics.server.ts";
import { createNodeSchema, HardwareSchema, HostedSchema } from "../service-nodes/node-schemas.server.ts";
import { hideable, screen, sortable } from "./columns.ts";
import { SecondaryIpsDialog } from "./dialogs.tsx";
import { ENDPOINT_NODE_TAB_IDS, LAN, type EndpointNode, type EndpointNodeDetail } from "./model.ts";
import { lanSchema, secondaryIpsSchema } from "./schemas.server.ts";
import { EndpointNodeTabs } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Endpoint Nodes (spec 2 §2 /endpoint-nodes, §3 Endpoint node, §4, §5, §7 Endpoint nodes, §8, §9):
 * the table, Create Endpoint Node (the three-step flow), the row menu (Manage Form Factor, Add
 * Secondary IPs, Test Node Health, Configure LAN Interface, Delete), the selected node's tabs. The
 * flow, the shared dialogs and the Monitoring tab are ../service-nodes/node-*.
 * ---------------------------------------------------------------------------------------------- */

const constraints = formConstraints({ create: createNodeSchema(info), hw: HardwareSchema, hosted: HostedSchema });
const detailOf = (request: Request, id: string) => apiGet<EndpointNodeDetail>(request, info.calls.detail, { ep_node_id: id });

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const [table, dialogData] = await Promise.all([
    fetchTablePage<EndpointNode>(request, "list-endpoint-node", state, screen),
    nodeDialogData<EndpointNodeDetail>(request, info, dialog, dialogId, endpointNodeView),
  ]);
  const picked = selectedRows(table)[0];
  const params = new URL(request.url).searchParams;
  const selected = picked ? await detailOf(request, picked.ep_node_id).then((r) => (r.ok ? r.data : null)) : null;
  const monitoring = selected && currentTab(params, ENDPOINT_NODE_TAB_IDS) === "monitoring" ? await nodeMonitoring(request, selected.ep_node_id, selected.ep_node_name) : null;
  const { detail, ...dialogs } = dialogData;
  return data({ table, ...dialogs, detail, selected, monitoring, exportLink: exportHref("/endpoint-nodes/export.csv", state), constraints }, { headers });
}

/* Action: the shared node intents, and this screen's own --------------------------------------- */

async function secondaryIps(request: Request, formData: FormData) {
  const current = await detailOf(request, String(formData.get("ep_node_id") ?? ""));
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: secondaryIpsSchema(current.data),
    call: "add-endpoint-node-secondary-ips",
    body: (v) => ({ ep_node_id: v.ep_node_id, secondary_ips: v.secondary_ips.join(", ") }),
    fields: ["secondary_ips"],
    toast: nodeMessages.secondaryIpsAdded,
  });
}

async function lan(request: Request, formData: FormData) {
  const current = await detailOf(request, String(formData.get("node_id") ?? ""));
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: lanSchema(current.data),
    call: "configure-lan-interface",
    body: (v) => ({ node_id: v.node_id, enabled: v.enabled, ...(v.address ? { primary_ipv4_address: v.address } : {}) }),
    fields: ["enabled", LAN.address.name],
    toast: (_, v) => (v.enabled ? LAN.enabled : LAN.disabled),
  });
}

export const action = intentAction({ ...nodeIntents(info), "secondary-ips": secondaryIps, lan, refresh: refreshIntent("Refreshed Endpoint Nodes.") }, { readable: ["refresh"] });

/* Component ------------------------------------------------------------------------------------ */

function menuItems(r: EndpointNode): MenuItem[] {
  return [
    r.form_factor
      ? { label: "Manage Form Factor", dialog: "form-factor" }
      : { label: "Manage Form Factor", href: `?dialog=create&step=form-factor&id=${encodeURIComponent(r.ep_node_id)}&ff=hosted_aws` },
    { label: "Add Secondary IPs", dialog: "secondary-ips" },
    { label: "Test Node Health", dialog: "health" },
    { label: LAN.title, dialog: "lan" },
    { label: "Delete", dialog: "remove", danger: true },
  ];
}

const cloudInitOf = (actionData: unknown) => (actionData && typeof actionData === "object" && "cloudInit" in actionData ? (actionData.cloudInit as NodeCloudInit) : null);

export default function EndpointNodes({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, detail, step, choice, groups, regions, health, healthError, selected, monitoring, exportLink } = loaderData;
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
          <Link to="/endpoint-node-groups" className="btn btn-outline btn-sm">
            Manage Endpoint Node Groups
          </Link>
        ),
      }}
      menu={menuItems}
      details={selected ? <EndpointNodeTabs node={selected} monitoring={monitoring} /> : null}
    >
      {dialog === "create" ? <CreateNodeDialog {...ff} step={step} node={target} groups={groups} screen="Endpoint Nodes" /> : null}
      {dialog === "form-factor" ? <FormFactorDialog {...ff} node={target} /> : null}
      {dialog === "health" ? <HealthDialog node={target} health={health} error={healthError} /> : null}
      {dialog === "secondary-ips" ? <SecondaryIpsDialog node={detail} lastResult={result} /> : null}
      {dialog === "lan" && detail ? (
        <AddressToggleDialog
          key={detail.ep_node_id}
          name="lan"
          title={LAN.title}
          intent="lan"
          label={LAN.label}
          address={LAN.address}
          current={{ enabled: detail.lan_interface_enabled, address: detail.lan_interface_ipaddress }}
          fields={{ node_id: detail.ep_node_id }}
          lastResult={result}
        >
          <p className="mb-1">
            Node: <strong>{detail.ep_node_name}</strong>
          </p>
        </AddressToggleDialog>
      ) : null}
      {dialog === "lan" && !detail ? (
        <UrlDialog name="lan" title={LAN.title}>
          <p role="alert">{goneText}</p>
          <DialogActions />
        </UrlDialog>
      ) : null}
      {dialog === "remove" ? <RemoveNodeDialog info={info} node={target} dialogId={dialogId} lastResult={result} /> : null}
    </ListScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
