import { useScreen } from "../../components/screen.tsx";
import { NodeScreen, readableNodeDialogs } from "../service-nodes/node-screen.tsx";
import { nodeCalls } from "../service-nodes/node-calls.server.ts";
import { nodeAction, nodeLoader } from "../service-nodes/node-screen.server.ts";
import { hideable, sortable } from "./columns.ts";
import { LanDialog, SecondaryIpsDialog } from "./dialogs.tsx";
import { constraints, lan, secondaryIps } from "./schemas.server.ts";
import { endpointNodes } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Endpoint Nodes (spec 2 §2 /endpoint-nodes, §3 Endpoint node, §4, §5, §7 Endpoint nodes, §8, §9):
 * the table, Create Endpoint Node (the three-step flow), the row menu (Manage Form Factor, Add
 * Secondary IPs, Test Node Health, Configure LAN Interface, Delete), the selected node's tabs. One
 * node screen with /service-nodes (../service-nodes/node-screen.*), bound here to the endpoint
 * kind (tabs.tsx), with this screen's own two intents and dialogs.
 * ---------------------------------------------------------------------------------------------- */

export const loader = nodeLoader(endpointNodes, { sortable, hideable }, nodeCalls.endpoint, constraints);

export const action = nodeAction(endpointNodes, { "secondary-ips": secondaryIps, lan });

export default function EndpointNodes({ loaderData, actionData }: Route.ComponentProps) {
  const { dialog, result } = useScreen(actionData, readableNodeDialogs);
  const { detail } = loaderData;
  return (
    <NodeScreen kind={endpointNodes} data={loaderData} actionData={actionData}>
      {dialog === "secondary-ips" ? <SecondaryIpsDialog node={detail} lastResult={result} /> : null}
      {dialog === "lan" ? <LanDialog node={detail} lastResult={result} /> : null}
    </NodeScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
