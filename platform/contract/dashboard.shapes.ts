import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";

/** get-account-summary: how many of each object the account has (spec 2 §3; the field names are the platform's). */
export const AccountSummary = z
  .object({
    app_services: z.number().int(),
    endpoints: z.number().int(),
    service_nodes: z.number().int(),
    endpoint_nodes: z.number().int(),
    user_agents: z.number().int(),
  })
  .openapi("AccountSummary");
export type AccountSummary = z.infer<typeof AccountSummary>;

export const DashboardEndpoint = z.object({ ep_id: z.string(), ep_name: z.string(), app_service_id: z.string() }).openapi("DashboardEndpoint");
export type DashboardEndpoint = z.infer<typeof DashboardEndpoint>;
export const DashboardAppService = z.object({ app_service_id: z.string(), app_service_name: z.string() }).openapi("DashboardAppService");
export type DashboardAppService = z.infer<typeof DashboardAppService>;

/** list-endpoint-dashboard: the objects whose traffic the dashboard charts, oldest first. */
export const DashboardObjects = z.object({ endpoints: z.array(DashboardEndpoint), app_services: z.array(DashboardAppService) }).openapi("DashboardObjects");
export type DashboardObjects = z.infer<typeof DashboardObjects>;

/** One bucket: bytes per second sent (tx) and received (rx), averaged over the bucket. */
export const NetStatsSample = z
  .object({
    timestamp: isoTime().openapi({ description: "Start of the bucket (UTC)" }),
    tx_bytes: z.number().openapi({ description: "Bytes per second sent" }),
    rx_bytes: z.number().openapi({ description: "Bytes per second received" }),
  })
  .openapi("NetStatsSample");
export type NetStatsSample = z.infer<typeof NetStatsSample>;

/** get-net-stats: a series per id of the caller's account (others' ids are left out). */
export const NetStats = z.record(z.string(), z.array(NetStatsSample)).openapi("NetStats");
export type NetStats = z.infer<typeof NetStats>;
