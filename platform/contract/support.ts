/*
 * Support Center and the change log (spec 3 §2.12, §2.13, §3 Ticket and Api log, §5): the shapes,
 * limits and choices shared by the platform (platform/routes/support.ts) and the console
 * (app/routes/support/, app/routes/histories/). Plain TypeScript without dependencies.
 */
export type { Ticket, Correspondence, DeviceNames, ApiLogEntry, ApiLogPage } from "./support.shapes.ts";
import type { ApiLogEntry } from "./support.shapes.ts";
export { type ListPage } from "./list.ts";

/** GET get_ticket_priority, in order. */
export const ticketPriorities = ["Low", "Medium", "High", "Urgent"] as const;
/** GET get_ticket_category, in order. */
export const ticketCategories = ["Technical", "Billing", "Account", "Device", "Other"] as const;
/** A ticket's state: Open until resolved, then Closed for good (spec 3 §4). */
export const ticketStates = ["Open", "Closed"] as const;
export type TicketState = (typeof ticketStates)[number];

/** Spec 3 §5: subject up to 250, description and a reply up to 8000 characters. */
export const ticketLimits = { title: 250, description: 8000, correspondence: 8000 } as const;

/** The columns a ticket list may be sorted by; default: newest first. */
export const ticketSortable = ["ticket_id", "title", "priority", "category", "state", "created_at"] as const;

/** The change log sorts by time only (newest first by default): every order is an index range. */
export const apiLogSortable = ["created_at"] as const;

/**
 * Without list parameters get_api_log answers the spec's plain array of the newest entries, at
 * most this many (an account may hold millions; the export call has them all).
 */
export const apiLogPlainMax = 1000;

/**
 * A filtered (or searched) change log counts its rows up to this many; beyond it `total` is this
 * number and `total_capped` is true (counting a million matching rows on every page view would
 * cost seconds). Unfiltered, the total is exact (a kept per-account counter).
 */
export const apiLogCountCap = 2_000;

/** The username shown: the IAM user's when one acted, else the account's (spec 3 §2.13). */
export const logUsername = (e: Pick<ApiLogEntry, "iam_user_username" | "account_username">) => e.iam_user_username || e.account_username;

/** The Command column: the request path without the API version prefix (spec 3 §2.13). */
export const logCommand = (e: Pick<ApiLogEntry, "url_path">) => e.url_path.replace(/^\/?(api\/)?v\d+(?=\/)/, "");
