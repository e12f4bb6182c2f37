export type { AccountOps, OpsDelivery } from "../../../platform/contract/operations.ts";
export { opsLimits, opsMessages } from "../../../platform/contract/operations.ts";

export const TITLE = "Operations";
/** Rows of the delivery log on the page (the newest). */
export const LOG_SIZE = 25;

export const statusLabels: Record<string, string> = {
  pending: "Retrying",
  sending: "Sending",
  succeeded: "Succeeded",
  failed: "Failed",
};
