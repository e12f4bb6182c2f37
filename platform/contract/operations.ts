/*
 * Operations (spec 2 §2 /operations, §3 Account operations settings, §7 Operations): the shapes,
 * limits, messages and list options shared by the platform and the console. Plain TypeScript.
 */
export type { AccountOps, AccountOpsSaved, OpsDelivery } from "./operations.shapes.ts";
export { type ListPage } from "./list.ts";

export const opsLimits = { webhookUrl: 2000, email: 254 } as const;

export const opsMessages = {
  updated: "Account Operations updated.",
  rotated: "Signing secret rotated. The previous one also signs deliveries for 24 hours.",
  testSent: "Test event sent.",
  /** Issue 63 item 8: a test event to a disabled endpoint would never be sent. */
  testDisabled: "Webhook deliveries are disabled, so no test event was sent. Select Enable deliveries at the top of this page, then send the test event again.",
  redelivered: "Delivery queued again.",
  enabled: "Webhook deliveries enabled again.",
  notSet: "Save the operations settings first.",
  noWebhook: "Set a webhook address first.",
  notFailed: "Only a failed delivery can be redelivered.",
} as const;

/** The delivery log is sorted by these columns; default: newest first. */
export const opsDeliverySortable = ["created_at", "event_type", "status", "attempt", "http_status", "latency_ms", "next_attempt_at"] as const;
export type OpsDeliverySortColumn = (typeof opsDeliverySortable)[number];

/** The event types a webhook receives (docs/operations-events.md). */
export const opsEventTypeNames = [
  "op_state.changed",
  "outage.started",
  "outage.ended",
  "ticket.created",
  "ticket.replied",
  "ticket.resolved",
  "webhook.test",
] as const;
