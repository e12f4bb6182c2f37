import { z } from "@hono/zod-openapi";
import { createdOf, isoTime, pageOf } from "./common.shapes.ts";

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
