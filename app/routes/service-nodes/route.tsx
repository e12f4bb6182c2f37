import { hideable, sortable } from "./columns.ts";
import { NodeScreen } from "./node-screen.tsx";
import { nodeCalls } from "./node-calls.server.ts";
import { nodeAction, nodeLoader } from "./node-screen.server.ts";
import { serviceNodes } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Service Nodes (spec 2 §2 /service-nodes, §3 Service node, §4, §5, §7 Service nodes, §8, §9): the
 * table, Create Service Node (the three-step flow), the row menu (Manage Form Factor, Test Node
 * Health, Delete), the selected node's tabs. One node screen with /endpoint-nodes
 * (node-screen.tsx, node-screen.server.ts), bound here to the service kind (tabs.tsx).
 * ---------------------------------------------------------------------------------------------- */

export const loader = nodeLoader(serviceNodes, { sortable, hideable }, nodeCalls.service);
export const action = nodeAction(serviceNodes);

export default function ServiceNodes({ loaderData, actionData }: Route.ComponentProps) {
  return <NodeScreen kind={serviceNodes} data={loaderData} actionData={actionData} />;
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
