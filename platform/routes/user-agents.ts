import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { userAgentLimits, userAgentMessages, userAgentSortable } from "../contract/user-agents.ts";
import { UserAgent, UserAgentCreated, UserAgentEndpoint, UserAgentPage } from "../contract/user-agents.shapes.ts";
import {
  createUserAgent,
  exportUserAgents,
  linkUserAgent,
  listUserAgents,
  removeUserAgent,
  unlinkUserAgent,
  userAgentEndpointChoices,
} from "../domain/user-agents.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { body, emailField, expects, idField, isSingleLine, junkMessage, limits, maxMessage, multiline, requiredName } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse, wantsPage } from "../lib/list.ts";
import { defineCall, defineExportCall, defineListCall, DetailSchema } from "../lib/openapi.ts";

// User agents of the caller's account (spec 2 §7 User agents; the /user-agents screen). Readonly
// IAM users may list; every change needs the owner or an admin IAM user.

const agentId = () => idField("User agent id");
/** The endpoint to link: spec 2 §5 'an endpoint must be chosen'. */
const epId = () =>
  z
    .string({ error: expects("a valid string") })
    .min(1, userAgentMessages.selectEndpoint)
    .max(limits.id, maxMessage(limits.id))
    .refine(isSingleLine, junkMessage);

const CreateUserAgentBody = body({
  name: requiredName("Name", userAgentLimits.name),
  email: emailField(),
  description: multiline(userAgentLimits.description).optional(),
  ep_id: epId(),
}).openapi("CreateUserAgentRequest");

const LinkBody = body({ user_agent_id: agentId(), ep_id: epId() }).openapi("UserAgentEndpointRequest");
const UserAgentIdBody = body({ user_agent_id: agentId() }).openapi("UserAgentIdRequest");

const tags = ["User agents"];

const listRoute = defineListCall({
  path: "/list_user_agent",
  tags,
  summary: "User agents of the caller's account, with their state from the network (search: name, e-mail, id, description, app service id)",
  rows: ["user agent", "newest first"],
  query: z.object({ ...listQuery(userAgentSortable), ids: idsFilter }),
  item: UserAgent,
  page: UserAgentPage,
});

const exportRoute = defineExportCall({
  path: "/export-user-agents",
  tags,
  summary: "Every user agent the search selects, streamed",
  description: "The rows of list_user_agent with the same q and sort, all of them, as NDJSON (one UserAgent per line). Readonly users may export.",
  query: z.object(exportQuery(userAgentSortable)),
  item: UserAgent,
  itemName: "UserAgent",
});

const unlinkedRoute = defineCall({
  method: "get",
  path: "/user_agent_get_unlinked_ep",
  tags,
  summary: "The endpoints a user agent may be linked to",
  description:
    "With user_agent_id: the account's endpoints that agent is not linked to (unknown agent: 404). Without: every endpoint of the account (a new agent). Sorted by name. Empty: the console says 'No endpoints available to link to user agent.'.",
  query: z.object({ user_agent_id: agentId().optional() }),
  response: z.array(UserAgentEndpoint),
  errors: [404],
});

const linkedRoute = defineCall({
  method: "get",
  path: "/user_agent_get_linked_ep",
  tags,
  summary: "The endpoints a user agent is linked to",
  description: "Sorted by name; unknown agent, or another account's: 404.",
  query: z.object({ user_agent_id: agentId() }),
  response: z.array(UserAgentEndpoint),
  errors: [404],
});

const createRoute_ = defineCall({
  method: "post",
  path: "/create_user_agent",
  tags,
  summary: "Create a user agent linked to an endpoint",
  description:
    "Answers 'User Agent created.' and the new user_agent_id. The agent takes the endpoint's app service. Unknown endpoint, or another account's: 404 'Endpoint not found'.",
  only: "writer",
  body: CreateUserAgentBody,
  response: UserAgentCreated,
  errors: [404],
});

const linkRoute = defineCall({
  method: "post",
  path: "/link_user_agent_to_ep",
  tags,
  summary: "Link a user agent to one more endpoint",
  description: `Answers '${userAgentMessages.linked}'. Already linked: 409 '${userAgentMessages.alreadyLinked}'. Unknown agent or endpoint: 404.`,
  only: "writer",
  body: LinkBody,
  response: DetailSchema,
  errors: [404, 409],
});

const unlinkRoute = defineCall({
  method: "post",
  path: "/unlink_user_agent_from_ep",
  tags,
  summary: "Unlink a user agent from an endpoint",
  description: `Answers '${userAgentMessages.unlinked}'. An agent linked to no endpoint: 400 '${userAgentMessages.noLinkedEndpoints}'; linked to others only: 404 '${userAgentMessages.notLinked}'.`,
  only: "writer",
  body: LinkBody,
  response: DetailSchema,
  errors: [400, 404],
});

const removeRoute = defineCall({
  method: "post",
  path: "/remove_user_agent",
  tags,
  summary: "Delete a user agent and its links",
  description: `Answers '${userAgentMessages.removed}'. Unknown agent, or another account's: 404.`,
  only: "writer",
  body: UserAgentIdBody,
  response: DetailSchema,
  errors: [404],
});

export function registerUserAgentCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(await listUserAgents(c.get("deps"), caller(c).accountId, query, wantsPage(query)), 200);
  });

  app.openapi(exportRoute, async (c) => {
    const who = caller(c);
    return ndjsonResponse(exportUserAgents(c.get("deps"), who.accountId, c.req.valid("query")), c.req.raw.signal);
  });

  app.openapi(unlinkedRoute, answerQuery(unlinkedRoute, (deps, who, q) => userAgentEndpointChoices(deps.db, who.accountId, q.user_agent_id, false)));
  app.openapi(linkedRoute, answerQuery(linkedRoute, (deps, who, q) => userAgentEndpointChoices(deps.db, who.accountId, q.user_agent_id, true)));

  app.openapi(
    createRoute_,
    answerChange(createRoute_, (deps, who, b) => createUserAgent(deps.db, who.accountId, b), (id) => ({ user_agent_id: id, detail: userAgentMessages.created })),
  );
  app.openapi(linkRoute, answerDetail(linkRoute, (deps, who, b) => linkUserAgent(deps.db, who.accountId, b), userAgentMessages.linked));
  app.openapi(unlinkRoute, answerDetail(unlinkRoute, (deps, who, b) => unlinkUserAgent(deps.db, who.accountId, b), userAgentMessages.unlinked));
  app.openapi(removeRoute, answerDetail(removeRoute, (deps, who, b) => removeUserAgent(deps.db, who.accountId, b.user_agent_id), userAgentMessages.removed));
}
