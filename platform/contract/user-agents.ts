/*
 * User agents (spec 2 §3 User agent, §5, §7 User agents, §8): the shapes, field limits and list
 * options shared by the platform (platform/routes/user-agents.ts) and the console
 * (app/routes/user-agents/*). Plain TypeScript without dependencies.
 */
import { appServiceMessages } from "./messages.ts";
export type { UserAgent, UserAgentEndpoint } from "./user-agents.shapes.ts";
export { type ListPage } from "./list.ts";

/** Field limits (characters). */
export const userAgentLimits = { name: 200, email: 254, description: 2000 } as const;

/** The columns list_user_agent sorts by (`sort=name`, `sort=-created_at`); default: newest first. */
export const userAgentSortable = ["name", "user_agent_id", "email", "app_service_id", "created_at"] as const;
export type UserAgentSortColumn = (typeof userAgentSortable)[number];

/** The spec's words (spec 2 §5, §8). */
export const userAgentMessages = {
  created: "User Agent created.",
  linked: "User agent linked to endpoint.",
  unlinked: "User agent unlinked from endpoint.",
  removed: "User Agent removed.",
  notFound: "User agent not found",
  alreadyLinked: "User agent is already linked to this endpoint.",
  notLinked: "User agent is not linked to this endpoint.",
  noEndpoints: "No endpoints available to link to user agent.",
  noLinkedEndpoints: "User agent has no endpoints linked.",
  selectEndpoint: appServiceMessages.selectEndpoint,
} as const;
