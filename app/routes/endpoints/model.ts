/*
 * The Endpoints screen's shapes and constants (spec 1 §3 Endpoint, §5, §9). The form schemas are
 * in schemas.server.ts: only the action uses them, so zod is not shipped to the browser.
 */
import { createEndpointRequired, type EndpointDeployment } from "../../../platform/contract/endpoints.ts";

export type { EndpointDeployment, EndpointNodeGroup, EndpointSession, NetflowRow } from "../../../platform/contract/endpoints.ts";
export type { EndpointRow as Endpoint, EndpointDetail, EndpointUserAgent } from "../../../platform/contract/endpoints.ts";
export { endpointDeployments, defaultEndpointDeployment, sizes } from "../../../platform/contract/endpoints.ts";

/** The phrase Delete asks for (spec 1 §5: "a confirmation word"). */
export const DELETE_PHRASE = "delete";

const labels: Record<EndpointDeployment, string> = { agent: "Agent", onprem: "On-prem", aws: "AWS", azure: "Azure", network: "Network" };
export const deploymentLabel = (d: string) => labels[d as EndpointDeployment] ?? d;

/** The Netflows tab's ranges (spec 1 §9), default the first. */
export const NETFLOW_RANGES = [
  { id: "1h", label: "1h", ms: 3600_000 },
  { id: "3h", label: "3h", ms: 3 * 3600_000 },
  { id: "12h", label: "12h", ms: 12 * 3600_000 },
  { id: "1d", label: "1d", ms: 24 * 3600_000 },
  { id: "3d", label: "3d", ms: 3 * 24 * 3600_000 },
  { id: "1w", label: "1w", ms: 7 * 24 * 3600_000 },
] as const;

/** The create form's fields, kept in the URL's draft across a location switch and the new-node-group panel (../services-shared/draft.ts). */
export const CREATE_FIELDS = [
  "ep_name",
  "app_service_id",
  "ep_node_group_id",
  "ep_node_id",
  "region",
  "consumer_principle",
  "real_subnets",
  "bgp_enabled",
  "bgp_local_asn",
  "bgp_peer_asn",
  "bgp_peer_ip",
] as const;
export type CreateField = (typeof CREATE_FIELDS)[number];

/** The fields each location requires whatever BGP (spec 1 §5: the call's rules, createEndpointRequired): marked required in Create. */
const requiredOf = (d: EndpointDeployment): readonly string[] => ["ep_name", "app_service_id", ...createEndpointRequired(d, {}).map(([f]) => f)];
export const endpointRequiredFields: Record<EndpointDeployment, readonly string[]> = {
  agent: requiredOf("agent"),
  onprem: requiredOf("onprem"),
  aws: requiredOf("aws"),
  azure: requiredOf("azure"),
  network: requiredOf("network"),
};

export type { CloudRegion } from "../../../platform/contract/app-services.ts";
/** The Node picker's choices (list-endpoint-node, nodes-platform #28). */
export type { EndpointNode } from "../../../platform/contract/nodes.ts";
