import { z } from "@hono/zod-openapi";
import { body, emailField, expects, idField, limits, maxMessage, multiline, plainText, text } from "../lib/fields.ts";
import { createdOf, isoTime, pageOf } from "./common.shapes.ts";
import { fieldMessages } from "./messages.ts";
import { userAgentLimits, userAgentMessages } from "./user-agents.ts";

/** A user agent as list_user_agent answers it (spec 2 §3); its state and last authentication from the fleet. */
export const UserAgent = z
  .object({
    user_agent_id: z.string().openapi({ example: "ua-5q2w8e1r4t6y" }),
    name: z.string(),
    email: z.string(),
    description: z.string(),
    app_service_id: z.string().openapi({ description: "The app service of the endpoint it was created on ('' when that app service is gone)" }),
    op_state: z.string().openapi({ description: "up while the agent is connected, else down" }),
    op_state_change_at: isoTime(),
    last_auth_status: z.string().openapi({ description: "success or failed" }),
    last_auth_time: isoTime(),
    created_at: isoTime(),
    ep_ids: z.array(z.string()).openapi({ description: "The endpoints it is linked to, in the order they were linked" }),
  })
  .openapi("UserAgent");
export type UserAgent = z.infer<typeof UserAgent>;

/** An endpoint a user agent is linked to, or may be linked to (user_agent_get_linked_ep, user_agent_get_unlinked_ep). */
export const UserAgentEndpoint = z
  .object({
    ep_id: z.string(),
    ep_name: z.string(),
    deployment: z.string(),
    app_service_id: z.string(),
  })
  .openapi("UserAgentEndpoint");
export type UserAgentEndpoint = z.infer<typeof UserAgentEndpoint>;

export const UserAgentPage = pageOf(UserAgent, "UserAgentPage");
export const UserAgentCreated = createdOf("UserAgentCreated", "user_agent_id");

// The calls' requests: the platform validates with them; the console's User Agents forms are
// these schemas (app/routes/user-agents/schemas.server.ts).

/** A user agent's id (bodies and queries). */
export const agentId = () => idField("User agent id", "ua-9k4l8z2x6c0v");
/** The endpoint to link: spec 2 §5 'an endpoint must be chosen'. */
const epId = () =>
  z
    .string({ error: expects("a valid string") })
    .min(1, userAgentMessages.selectEndpoint)
    .max(limits.id, maxMessage(limits.id))
    .apply(plainText);

export const CreateUserAgentBody = body({
  name: text(userAgentLimits.name, { min: 1, minMessage: fieldMessages.nameRequired }),
  email: emailField(),
  description: multiline(userAgentLimits.description).optional(),
  ep_id: epId(),
}).openapi("CreateUserAgentRequest");

export const LinkBody = body({ user_agent_id: agentId(), ep_id: epId() }).openapi("UserAgentEndpointRequest");
export const UserAgentIdBody = body({ user_agent_id: agentId() }).openapi("UserAgentIdRequest");
