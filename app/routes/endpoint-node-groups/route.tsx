import { data } from "react-router";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { failureReply, intentAction, submitForm } from "../../lib/action.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { listScreenQuery } from "../../lib/table.server.ts";
import { groupPage } from "./group-page.server.ts";
import { AddressToggleDialog } from "./address-toggle.tsx";
import { hideable, screen, sortable } from "./columns.ts";
import { DHCP, VRRP, type EndpointNodeGroup } from "./model.ts";
import { dhcpSchema, vrrpSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Manage Endpoint Node Groups (spec 2 §2 /endpoint-node-groups, §3, §4, §7 Endpoint node groups):
 * the groups, and per row Setup DHCP Relay and Setup VRRP, each a toggle dialog with one address.
 * The breadcrumb leads back to /endpoint-nodes (the shell's breadcrumbs).
 * ---------------------------------------------------------------------------------------------- */

const detail = (request: Request, id: string) => apiGet<EndpointNodeGroup>(request, "get-endpoint-node-group-details", { ep_node_group_id: id });

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const [table, target] = await Promise.all([
    groupPage<EndpointNodeGroup>(request, "list-endpoint-node-group", state, screen.getRowId, ["ep_node_group_name", "ep_node_group_id"]),
    dialog && dialogId ? detail(request, dialogId).then((r) => (r.ok ? r.data : null)) : null,
  ]);
  return data({ table, target }, { headers });
}

/* Action: one function per intent; each switch is checked against the platform's value now. */

async function dhcp(request: Request, formData: FormData) {
  const current = await detail(request, String(formData.get("node_group_id") ?? ""));
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: dhcpSchema(current.data),
    call: "configure-dhcp-relay",
    body: (v) => ({ node_group_id: v.node_group_id, enabled: v.enabled, server_ip: v.address }),
    fields: ["enabled", DHCP.address.name],
    toast: (_, v) => (v.enabled ? DHCP.enabled : DHCP.disabled),
  });
}

async function vrrp(request: Request, formData: FormData) {
  const current = await detail(request, String(formData.get("node_group_id") ?? ""));
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: vrrpSchema(current.data),
    call: "configure-vrrp",
    body: (v) => ({ node_group_id: v.node_group_id, enabled: v.enabled, virtual_ip: v.address }),
    fields: ["enabled", VRRP.address.name],
    toast: (_, v) => (v.enabled ? VRRP.enabled : VRRP.disabled),
  });
}

export const action = intentAction({ dhcp, vrrp });

/* Component ------------------------------------------------------------------------------------ */

const menuItems: MenuItem[] = [
  { label: DHCP.title, dialog: "dhcp" },
  { label: VRRP.title, dialog: "vrrp" },
];

function Missing() {
  return <p role="alert">This node group no longer exists.</p>;
}

/** A group's dialog opened for a group that is gone. */
function Gone({ name, title }: { name: string; title: string }) {
  return (
    <UrlDialog name={name} title={title}>
      <Missing />
      <DialogActions />
    </UrlDialog>
  );
}

const toggles = {
  dhcp: { name: "dhcp", texts: DHCP, current: (g: EndpointNodeGroup) => ({ enabled: g.dhcp_relay_enabled, address: g.dhcp_relay_server_ip ?? "" }) },
  vrrp: { name: "vrrp", texts: VRRP, current: (g: EndpointNodeGroup) => ({ enabled: g.vrrp_enabled, address: g.vrrp_virtual_ip ?? "" }) },
} as const;

export default function EndpointNodeGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target } = loaderData;
  const { dialog, result, error } = useScreen(actionData);
  // Setup DHCP Relay and Setup VRRP: one toggle dialog with one address each.
  const toggle = dialog === "dhcp" || dialog === "vrrp" ? toggles[dialog] : null;
  const intro = target ? (
    <p className="mb-1">
      Node group: <strong>{target.ep_node_group_name}</strong>
    </p>
  ) : (
    <Missing />
  );
  return (
    <ListScreen screen={screen} error={error} page={table} menu={menuItems}>
      {toggle && target ? (
        <AddressToggleDialog
          key={target.ep_node_group_id}
          name={toggle.name}
          title={toggle.texts.title}
          intent={toggle.name}
          label={toggle.texts.label}
          address={toggle.texts.address}
          current={toggle.current(target)}
          fields={{ node_group_id: target.ep_node_group_id }}
          lastResult={result}
        >
          {intro}
        </AddressToggleDialog>
      ) : null}
      {toggle && !target ? <Gone name={toggle.name} title={toggle.texts.title} /> : null}
    </ListScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
