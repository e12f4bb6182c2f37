/* The User Agents screen's constants (spec 2 §5, §8): shared by the dialogs and the server schemas. */

export type { UserAgent, UserAgentEndpoint } from "../../../platform/contract/user-agents.ts";
export { userAgentLimits, userAgentMessages } from "../../../platform/contract/user-agents.ts";
/** A dialog opened on a user agent removed meanwhile. */
export const USER_AGENT_GONE = "This user agent no longer exists.";
