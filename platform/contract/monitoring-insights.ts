/*
 * /main-dashboard tabs 4–6 (Application Visibility, Application Performance Insights, DDoS
 * Protection Suite): the answers' types (declared once, as zod, in monitoring-insights.shapes.ts)
 * and the constants the console may import as values.
 */
export type {
  AppFlowReport,
  AppFlows,
  AppSession,
  AppVisibility,
  BlockedEntry,
  BlockedHistory,
  DdosNode,
  DdosProtection,
  DosAttack,
  GeoEntry,
  MitigationSample,
} from "./monitoring-insights.shapes.ts";
import { pcapMessages } from "./messages.ts";

/** From this score a source counts as malicious (and is blocked when blocking is on): the fleet's rule. */
export const MALICIOUS_SCORE = 70;

/** The flow report of a session that is not among the device's flows of the range. */
export const flowNotFound = pcapMessages.noTestData;
