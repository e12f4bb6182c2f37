import { data } from "react-router";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import { intentAction } from "../../lib/action.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { AddressToggleDialog } from "./address-toggle.tsx";
import { hideable, screen, sortable } from "./columns.ts";
import { DHCP, VRRP, type EndpointNodeGroup } from "./model.ts";
import { constraints, dhcp, groupDetail, vrrp } from "./schemas.server.ts";
import type { Route } from "./+types/route";
import { goneMessages } from "../../lib/messages.ts";

/* ------------------------------------------------------------------------------------------------
 * Manage Endpoint Node Groups (spec 2 §2 /endpoint-node-groups, §3, §4, §7 Endpoint node groups):
 * the groups (paged, sorted and searched by the platform), and per row Setup DHCP Relay and Setup
 * VRRP, each a toggle dialog with one address. The breadcrumb leads back to /endpoint-nodes (the
 * shell's breadcrumbs).
 * ---------------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const [table, target] = await Promise.all([
    fetchTablePage(request, "list-endpoint-node-group", state, screen),
    dialog && dialogId ? groupDetail(request, dialogId).then((r) => (r.ok ? r.data : null)) : null,
  ]);
  // The dialogs' constraints only while one is open.
  return data({ table, target, constraints: dialog ? constraints : {} }, { headers });
}

export const action = intentAction({ dhcp, vrrp });

/* Component ------------------------------------------------------------------------------------ */

// Setup DHCP Relay and Setup VRRP: one toggle dialog with one address each.
const toggles = [
  { texts: DHCP, current: (g: EndpointNodeGroup) => ({ enabled: g.dhcp_relay_enabled, address: g.dhcp_relay_server_ip ?? "" }) },
  { texts: VRRP, current: (g: EndpointNodeGroup) => ({ enabled: g.vrrp_enabled, address: g.vrrp_virtual_ip ?? "" }) },
];
const menuItems = toggles.map(({ texts }) => ({ label: texts.title, dialog: texts.name }));

export default function EndpointNodeGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target } = loaderData;
  const { dialog, result, error } = useScreen(actionData);
  const toggle = toggles.find((t) => t.texts.name === dialog);
  return (
    <ListScreen screen={screen} error={error} page={table} menu={menuItems}>
      {toggle ? (
        <AddressToggleDialog
          texts={toggle.texts}
          current={target ? toggle.current(target) : null}
          gone={goneMessages.nodeGroup}
          fields={{ node_group_id: target?.ep_node_group_id ?? "" }}
          lastResult={result}
        >
          <p className="mb-1">
            Node group: <strong>{target?.ep_node_group_name}</strong>
          </p>
        </AddressToggleDialog>
      ) : null}
    </ListScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
