/*
 * The Private Access dashboard (spec 2 §3 'Dashboard', §7 'Dashboard', §9): the summary counts,
 * the objects whose traffic it charts, and get-net-stats' limits. Plain TypeScript: the console
 * imports these values; the zod shapes are in dashboard.shapes.ts.
 */
import { topTalkerRangeMs, topTalkerRanges } from "./app-services.ts";

export type { AccountSummary, DashboardObjects, DashboardEndpoint, DashboardAppService, NetStats, NetStatsSample } from "./dashboard.shapes.ts";

/** get-net-stats takes at most this many ids. */
export const NET_STATS_MAX_IDS = 100;
/** … and a window of at most this many days. */
export const NET_STATS_MAX_DAYS = 400;

/** The dashboard's time ranges: the spec shows none for it, so the shared list of §9 (Top Talkers' too); the first is the default. */
export const dashboardRanges = topTalkerRanges;
export type DashboardRange = (typeof dashboardRanges)[number];
export const dashboardRangeMs = topTalkerRangeMs;
