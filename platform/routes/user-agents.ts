import { cachedValue } from "../lib/auth.ts";
import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { userAgentMessages, userAgentSortable } from "../contract/user-agents.ts";
import { agentId, CreateUserAgentBody, LinkBody, UserAgent, UserAgentCreated, UserAgentEndpoint, UserAgentIdBody, UserAgentPage } from "../contract/user-agents.shapes.ts";
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
import { ndjsonResponse, wantsPage } from "../lib/list.ts";
import { defineCall, defineChange, defineListCalls } from "../lib/openapi.ts";

// User agents of the caller's account (spec 2 §7 User agents; the /user-agents screen). Readonly
// IAM users may list; every change needs the owner or an admin IAM user.

const tags = ["User agents"];

export const { list: listRoute, export: exportRoute } = defineListCalls({
  tags, sortable: userAgentSortable, item: UserAgent, itemName: "UserAgent", page: UserAgentPage,
  list: { path: "/list_user_agent", summary: "User agents of the caller's account, with their state from the network (search: name, e-mail, id, description, app service id)", rows: ["user agent", "newest first"] },
  export: { path: "/export-user-agents", summary: "Every user agent the search selects, streamed", description: "The rows of list_user_agent with the same q and sort, all of them, as NDJSON (one UserAgent per line). Readonly users may export." },
});

export const unlinkedRoute = defineCall({
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
export const linkedRoute = defineCall({
  method: "get",
  path: "/user_agent_get_linked_ep",
  tags,
  summary: "The endpoints a user agent is linked to",
  description: "Sorted by name; unknown agent, or another account's: 404.",
  query: z.object({ user_agent_id: agentId() }),
  response: z.array(UserAgentEndpoint),
  errors: [404],
});

export const createRoute_ = defineChange({
  path: "/create_user_agent",
  tags,
  summary: "Create a user agent linked to an endpoint",
  description:
    "Answers 'User Agent created.' and the new user_agent_id. The agent takes the endpoint's app service. Unknown endpoint, or another account's: 404 'Endpoint not found'.",
  body: CreateUserAgentBody,
  response: UserAgentCreated,
});

const { linked, alreadyLinked, unlinked, noLinkedEndpoints, notLinked, removed } = userAgentMessages;
export const linkRoute = defineChange({
  path: "/link_user_agent_to_ep",
  tags,
  summary: "Link a user agent to one more endpoint",
  description: `Answers '${linked}'. Already linked: 409 '${alreadyLinked}'. Unknown agent or endpoint: 404.`,
  body: LinkBody,
  errors: [404, 409],
});
export const unlinkRoute = defineChange({
  path: "/unlink_user_agent_from_ep",
  tags,
  summary: "Unlink a user agent from an endpoint",
  description: `Answers '${unlinked}'. An agent linked to no endpoint: 400 '${noLinkedEndpoints}'; linked to others only: 404 '${notLinked}'.`,
  body: LinkBody,
  errors: [400, 404],
});
export const removeRoute = defineChange({ path: "/remove_user_agent", tags, summary: "Delete a user agent and its links", description: `Answers '${removed}'. Unknown agent, or another account's: 404.`, body: UserAgentIdBody });

export function registerUserAgentCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(await listUserAgents(c.get("deps"), caller(c).accountId, query, wantsPage(query), (compute) => cachedValue(c, compute)), 200);
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
