/*
 * The monitoring feeds of /main-dashboard (spec 3 §2.14, §3). Plain TypeScript: the console imports
 * these values; the zod shapes are in monitoring.shapes.ts.
 */
export type { DashboardSummary, SummaryDevice, SummaryRegion, WanLinkHealth, WanLinkUtilization, DeviceRoute, PostMortem, OutageHistoryEntry } from "./monitoring.shapes.ts";

/** The device tabs' time ranges: the devices' Monitoring tab's list (spec 2 §9's shared list). */
export { monitoringRanges, type MonitoringRange } from "./devices.ts";

/** dashboard_get_summary's Global items, in the order of Map View's count cards. */
export const summaryItems = [
  "Internet NIDs",
  "Metro Ethernet NIDs",
  "Devices Up",
  "Devices Down",
  "App Services",
  "Endpoints",
  "Service Nodes",
  "Endpoint Nodes",
  "User Agents",
] as const;
export type SummaryItem = (typeof summaryItems)[number];

/** The post-mortem stream's events (text/event-stream): `chunk` (data: JSON string, id: the offset after it), then `end`. */
export const POST_MORTEM_EVENTS = { chunk: "chunk", end: "end" } as const;
