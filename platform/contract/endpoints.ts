/*
 * Endpoints (spec 1 §3 Endpoint, flow/session and netflow rows, user agent; §7 'Endpoints') and
 * endpoint node groups (spec 2 §3): the shapes shared by the platform and the console. Plain
 * TypeScript without dependencies.
 */
export { type ListPage } from "./list.ts";
export { sizes, type Size, resizeDirections, type ResizeDirection } from "./app-services.ts";

export const endpointDeployments = ["agent", "onprem", "aws", "azure", "network"] as const;
export type EndpointDeployment = (typeof endpointDeployments)[number];
/** The create dialog's default location (spec 1 §9). */
export const defaultEndpointDeployment: EndpointDeployment = "onprem";

export const approvalStatuses = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** Spec 1 §3 Endpoint, as list and detail answer it. Timestamps are ISO 8601, UTC. */
export interface Endpoint {
  ep_id: string;
  ep_name: string;
  description: string;
  account_id: string;
  fqdn: string;
  ip_addr: string;
  created_at: string;
  admin_state: string;
  admin_state_change_at: string;
  /** up | down */
  op_state: string;
  op_state_change_at: string;
  size: string;
  hosting_id: string | null;
  app_service_id: string;
  region: string;
  /** aws: the allowed principal; azure: the subscription id. */
  consumer_principle: string;
  deployment: EndpointDeployment;
  approval_status: ApprovalStatus;
  ep_node_id: string | null;
  ep_node_group_id: string | null;
  network_mode_enabled: boolean;
  address_translation_enabled: boolean;
  bgp_enabled: boolean;
  bgp_local_asn: number | null;
  bgp_peer_asn: number | null;
  bgp_local_ip: string;
  bgp_peer_ip: string;
  bgp_advertised_routes: string[];
  real_subnets: string[];
  virtual_subnets: string[];
  proxying_enabled: boolean;
  user_agent_dns_servers: string[];
  user_agent_cidrs: string[];
  /** The business contact. */
  primary_contact_id: string | null;
  primary_contact: string | null;
  /** The technical contact. */
  secondary_contact_id: string | null;
  secondary_contact: string | null;
}

/** Spec 2 §3 Endpoint node group. */
export interface EndpointNodeGroup {
  ep_node_group_id: string;
  ep_node_group_name: string;
  created_at: string;
  dhcp_relay_enabled: boolean;
  dhcp_relay_server_ip: string | null;
  vrrp_enabled: boolean;
  vrrp_virtual_ip: string | null;
}

/** Spec 1 §3 Flow/session of an endpoint (get-endpoint-sessions). */
export interface EndpointSession {
  src_address: string;
  dst_address: string;
  protocol: string;
  ports: string;
  tx_bytes: number;
  rx_bytes: number;
  established: string;
}

/** Spec 1 §3 Netflow row (get-ep-sessions). */
export interface NetflowRow {
  start_time: string;
  end_time: string;
  src_addr: string;
  dst_addr: string;
  src_port: number;
  dst_port: number;
  proto: string;
  app_name: string;
  tx_bytes: number;
  rx_bytes: number;
}

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

/** An endpoint as list-endpoint answers it: the stored fields and the names of what it links to. */
export interface EndpointRow extends Endpoint {
  /** The app service's name ('' when it is gone). */
  app_service_name: string;
  /** The node group's name ('' when none). */
  ep_node_group_name: string;
}

/** A user agent linked to an endpoint (spec 1 §3 "User agent (shown on an endpoint)"); its state from the fleet. */
export interface EndpointUserAgent {
  user_agent_id: string;
  name: string;
  email: string;
  description: string;
  admin_state: string;
  op_state: string;
  op_state_change_at: string;
  last_auth_time: string;
  last_auth_status: string;
  created_at: string;
}

/** get-endpoint-detail: the endpoint with the user agents linked to it. */
export interface EndpointDetail extends EndpointRow {
  user_agents: EndpointUserAgent[];
}
