/*
 * App services (spec 1 §3 AppService, Hosting, Top talker; §5; §7 'App services'): the shapes,
 * enumerations, limits and list options shared by the platform (platform/routes/app-services.ts)
 * and the console (app/routes/app-services/*). Plain TypeScript without dependencies.
 */
export type { AppService, Hosting, TopTalker, CloudRegion, ServiceNodeGroup } from "./app-services.shapes.ts";
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
