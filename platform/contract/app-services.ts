/*
 * App services (spec 1 §3 AppService, Hosting, Top talker; §5; §7 'App services'): the shapes,
 * enumerations, limits and list options shared by the platform (platform/routes/app-services.ts)
 * and the console (app/routes/app-services/*). Plain TypeScript without dependencies.
 */
export { type ListPage } from "./list.ts";

export const appServiceDeployments = ["aws", "onprem", "azure", "network"] as const;
export type AppServiceDeployment = (typeof appServiceDeployments)[number];

/** Protocols by deployment (spec 1 §5): aws is fixed to TCP, network has none. */
export const appServiceProtocols = {
  aws: ["tcp"],
  onprem: ["tcp", "udp", "ftp"],
  azure: ["tcp", "udp"],
  network: [],
} as const satisfies Record<AppServiceDeployment, readonly string[]>;
export type AppServiceProtocol = "tcp" | "udp" | "ftp";
/** How a protocol is shown (ftp is FTP-Passive). */
export const protocolLabels: Record<AppServiceProtocol, string> = { tcp: "TCP", udp: "UDP", ftp: "FTP-Passive" };

/**
 * Sizes of app services, hostings and endpoints, smallest first: resize up or down moves one step
 * and is refused past either end. The spec names no steps; these are the product's, each with the
 * throughput it stands for.
 */
export const sizes = ["small", "medium", "large", "xlarge"] as const;
export type Size = (typeof sizes)[number];
export const sizeMbps: Record<Size, number> = { small: 100, medium: 500, large: 1000, xlarge: 5000 };
export const resizeDirections = ["up", "down"] as const;
export type ResizeDirection = (typeof resizeDirections)[number];

/** Spec 1 §3 AppService, as list and detail answer it. Timestamps are ISO 8601, UTC. */
export interface AppService {
  app_service_id: string;
  app_service_name: string;
  account_id: string;
  description: string;
  deployment: AppServiceDeployment;
  fqdn: string;
  /** tcp | udp | ftp, '' for network. */
  proto: string;
  port: number | null;
  region: string;
  /** aws: the endpoint service name; azure: the private link service id. */
  cloud_endpoint_service_name: string;
  service_node_group_id: string | null;
  admin_state: string;
  /** up | down */
  op_state: string;
  size: Size;
  /** 0–100, null when not measured. */
  health: number | null;
  created_at: string;
  admin_state_change_at: string;
  op_state_change_at: string;
  open_ai_private_link: boolean;
  private_endpoint_ip_address: string;
  azure_user_email: string;
  local_vnet_resource_id: string;
  remote_vnet_resource_id: string;
  network_mode_enabled: boolean;
  bgp_enabled: boolean;
  address_translation_enabled: boolean;
  bgp_local_asn: number | null;
  bgp_peer_asn: number | null;
  bgp_local_ip: string;
  bgp_peer_ip: string;
  virtual_subnet_pools: string[];
  real_subnets: string[];
  virtual_subnets: string[];
  /** The business contact. */
  primary_contact_id: string | null;
  primary_contact: string | null;
  /** The technical contact. */
  secondary_contact_id: string | null;
  secondary_contact: string | null;
}

/** Spec 1 §3 Hosting (app-service-get-hosting). */
export interface Hosting {
  hosting_id: string;
  app_service_id: string;
  admin_state: string;
  op_state: string;
  priority_id: number;
  hosting_type: "cloud" | "onprem";
  region: string;
  /** aws | azure | onprem */
  service_provider: string;
  cloud_endpoint_service_name: string;
  fqdn: string;
  service_node_group_id: string | null;
  size: Size;
  health: number | null;
  created_at: string;
}

/** Spec 1 §3 Top talker (get-top-talker-ep). */
export interface TopTalker {
  epid: string;
  rx_bytes: number;
  tx_bytes: number;
  total_bytes: number;
}

/** Top-talker ranges (spec 1 §9), default 1h. */
export const topTalkerRanges = ["1h", "3h", "12h", "1d", "3d", "1w"] as const;
export type TopTalkerRange = (typeof topTalkerRanges)[number];
export const topTalkerRangeMs: Record<TopTalkerRange, number> = {
  "1h": 3_600_000,
  "3h": 3 * 3_600_000,
  "12h": 12 * 3_600_000,
  "1d": 86_400_000,
  "3d": 3 * 86_400_000,
  "1w": 7 * 86_400_000,
};

/** A region of list-aws-regions / list-azure-regions. */
export interface CloudRegion {
  region: string;
  name: string;
}

/** Spec 2 §3 Service node group (list-service-node-group, list_service_node_group). */
export interface ServiceNodeGroup {
  service_node_group_id: string;
  service_node_group_name: string;
  external_certificate: boolean;
  created_at: string;
}

/** measure-app-service-latency: key/value pairs. */
export type LatencyResult = Record<string, string | number>;

/** Field limits. */
export const appServiceLimits = {
  name: 200,
  description: 2000,
  fqdn: 253,
  text: 500,
  email: 254,
  listItems: 100,
  portMin: 1,
  portMax: 65535,
  asnMin: 1,
  asnMax: 4294967295,
} as const;

/** The columns an app-service list may be sorted by; default: creation time. */
export const appServiceSortable = [
  "app_service_name",
  "app_service_id",
  "deployment",
  "admin_state",
  "op_state",
  "size",
  "health",
  "proto",
  "port",
  "created_at",
] as const;
export type AppServiceSortColumn = (typeof appServiceSortable)[number];
