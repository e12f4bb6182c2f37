export type { AccountOps, AccountOpsSaved, OpsDelivery } from "../../../platform/contract/operations.ts";
export { opsLimits, opsMessages } from "../../../platform/contract/operations.ts";

export const TITLE = "Operations";
/** The `?dialog=` of the confirmation of 'Rotate secret'. */
export const ROTATE_DIALOG = "rotate-secret";
/** Rows of the delivery log on the page (the newest). */
export const LOG_SIZE = 25;

export const statusLabels: Record<string, string> = {
  pending: "Retrying",
  sending: "Sending",
  succeeded: "Succeeded",
  failed: "Failed",
};

/**
 * The line above the delivery log: how much of it is shown, or, while it is empty, what brings the
 * first delivery (a webhook address to save, or the test event to send), for those who may.
 */
export function deliveryCountText(total: number, opts: { webhook: boolean; canWrite: boolean }): string {
  if (total === 0) {
    if (!opts.canWrite) return "No deliveries yet.";
    return opts.webhook
      ? "No deliveries yet: events are listed here as they are sent. 'Send test event' sends one now."
      : "No deliveries yet: save a webhook address above, and the events sent to it are listed here.";
  }
  if (total === 1) return "1 delivery.";
  if (total <= LOG_SIZE) return `All ${total} deliveries.`;
  return `The last ${LOG_SIZE} of ${total} deliveries.`;
}
