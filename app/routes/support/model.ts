/*
 * The Support Center's data shapes and texts (spec 3 §2.12, §3 Ticket, §5). The form schemas are
 * in schemas.server.ts: only the action uses them (zod stays out of the page's JavaScript).
 */
import { supportMessages } from "../../../platform/contract/messages.ts";
export type { Correspondence, DeviceNames, Ticket } from "../../../platform/contract/support.ts";
export { ticketLimits } from "../../../platform/contract/support.ts";

/** The confirm dialog of 'Resolve ticket' (spec 3 §2.12), word for word. */
export const CLOSE_TITLE = "Close the ticket";
export const closeText = (ticket: string) =>
  `Are you certain you wish to proceed with closing ${ticket}? Please note that this action is irreversible.`;

export const REPLY_SENT = supportMessages.replySent;
