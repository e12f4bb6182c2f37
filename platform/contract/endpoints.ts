/*
 * Endpoints (spec 1 §3 Endpoint, flow/session and netflow rows, user agent; §7 'Endpoints') and
 * endpoint node groups (spec 2 §3): the shapes shared by the platform and the console. Plain
 * TypeScript without dependencies.
 */
export type { Endpoint, EndpointRow, EndpointDetail, EndpointUserAgent, EndpointNodeGroup, EndpointSession, NetflowRow } from "./endpoints.shapes.ts";
export { type ListPage } from "./list.ts";
import { deploymentMessages } from "./messages.ts";
export { sizes, type Size, resizeDirections, type ResizeDirection } from "./app-services.ts";

export const endpointDeployments = ["agent", "onprem", "aws", "azure", "network"] as const;
export type EndpointDeployment = (typeof endpointDeployments)[number];
/** The create dialog's default location (spec 1 §9). */
export const defaultEndpointDeployment: EndpointDeployment = "onprem";

export const approvalStatuses = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** Field limits. */
export const endpointLimits = { name: 200, description: 2000, text: 500, listItems: 100 } as const;

/** The columns an endpoint list may be sorted by; default: creation time. */
export const endpointSortable = [
  "ep_name",
  "ep_id",
  "deployment",
  "app_service_id",
  "admin_state",
  "op_state",
  "size",
  "approval_status",
  "created_at",
] as const;
export type EndpointSortColumn = (typeof endpointSortable)[number];

// ---------------------------------------------------------------------------------------------
// What the endpoints calls answer beside the stored fields (platform/routes/endpoints.ts)

export { sizeMbps } from "./app-services.ts";


/**
 * What create-endpoint requires of each location beside its name and app service (spec 1 §5), in
 * the create form's order, each with its message: the platform's rules (createEndpointRules of
 * ./endpoints.shapes.ts), the console's form (the same rules) and its required marks read it.
 */
export function createEndpointRequired(deployment: EndpointDeployment, on: { bgp_enabled?: boolean }): readonly (readonly [string, string])[] {
  const m = deploymentMessages;
  const node = [["ep_node_group_id", m.nodeGroupRequired], ["ep_node_id", m.nodeRequired]] as const;
  switch (deployment) {
    case "agent":
      return [];
    case "onprem":
      return node;
    case "aws":
      return [["region", m.regionRequired], ["consumer_principle", m.allowedPrincipalRequired]];
    case "azure":
      return [["region", m.regionRequired], ["consumer_principle", m.subscriptionIdRequired]];
    case "network":
      return [
        ...node,
        ["real_subnets", m.realSubnetsRequired],
        ...(on.bgp_enabled ? ([["bgp_local_asn", m.localAsnRequired], ["bgp_peer_asn", m.peerAsnRequired], ["bgp_peer_ip", m.peerIpRequired]] as const) : []),
      ];
  }
}
