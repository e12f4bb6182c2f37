/*
 * App services (spec 1 §3 AppService, Hosting, Top talker; §5; §7 'App services'): the shapes,
 * enumerations, limits and list options shared by the platform (platform/routes/app-services.ts)
 * and the console (app/routes/app-services/*). Plain TypeScript without dependencies.
 */
export type { AppService, Hosting, TopTalker, CloudRegion, ServiceNodeGroup } from "./app-services.shapes.ts";
export { type ListPage } from "./list.ts";
import { deploymentMessages } from "./messages.ts";

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

/** The switches of a create-app-service that change what its deployment requires. */
export type CreateAppServiceSwitches = { open_ai_private_link?: boolean; address_translation_enabled?: boolean; bgp_enabled?: boolean };

/**
 * What create-app-service requires of each deployment beside the name (spec 1 §5), in the create
 * form's order, each with its message: the platform's rules (createAppServiceRules of
 * ./app-services.shapes.ts), the console's form (the same rules) and its Create button's enabled
 * state (app/routes/app-services/model.ts) read it.
 */
export function createAppServiceRequired(location: AppServiceDeployment, on: CreateAppServiceSwitches): readonly (readonly [string, string])[] {
  const m = deploymentMessages;
  switch (location) {
    case "aws":
      return [["region", m.regionRequired], ["cloud_endpoint_service_name", m.endpointServiceNameRequired], ["port", m.portRequired]];
    case "onprem":
      return [["fqdn", m.fqdnRequired], ["service_node_group_id", m.serviceNodeGroupRequired], ["proto", m.protocolRequired], ["port", m.portRequired]];
    case "azure":
      return [
        ["region", m.regionRequired],
        ["proto", m.protocolRequired],
        ["port", m.portRequired],
        ...(on.open_ai_private_link
          ? ([["private_endpoint_ip_address", m.privateEndpointIpRequired], ["remote_vnet_resource_id", m.remoteVnetResourceIdRequired], ["azure_user_email", m.customerUserEmailRequired]] as const)
          : ([["cloud_endpoint_service_name", m.privateLinkServiceIdRequired]] as const)),
      ];
    case "network":
      return [
        ["real_subnets", m.realSubnetsRequired],
        ["service_node_group_id", m.serviceNodeGroupRequired],
        ...(on.address_translation_enabled ? ([["virtual_subnet_pools", m.virtualPoolsRequired]] as const) : []),
        ...(on.bgp_enabled ? ([["bgp_local_asn", m.localAsnRequired], ["bgp_peer_asn", m.peerAsnRequired], ["bgp_peer_ip", m.peerIpRequired]] as const) : []),
      ];
  }
}

/** The fields a deployment requires whatever its switches (the create form marks them `required`). */
export function alwaysRequired(required: (on: CreateAppServiceSwitches) => readonly (readonly [string, string])[]): string[] {
  const on = new Set(required({ open_ai_private_link: true, address_translation_enabled: true, bgp_enabled: true }).map(([f]) => f));
  return required({}).map(([f]) => f).filter((f) => on.has(f));
}

/** What add-app-service-hosting requires of each location (spec 1 §5), with its messages. */
export function addHostingRequired(location: "aws" | "azure" | "onprem"): readonly (readonly [string, string])[] {
  const m = deploymentMessages;
  if (location === "onprem") return [["fqdn", m.fqdnRequired], ["service_node_group_id", m.nodeGroupRequired]];
  return [["region", m.regionRequired], ["cloud_endpoint_service_name", location === "aws" ? m.endpointServiceNameRequired : m.privateLinkServiceIdRequired]];
}
