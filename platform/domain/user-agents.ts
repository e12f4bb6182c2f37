import { and, eq, sql } from "drizzle-orm";
import { pgErrorCode, type Db, type DbOrTx } from "../db/client.ts";
import { endpoints, userAgentEndpoints, userAgents } from "../db/schema.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { badRequest, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, execRows, isoText, jsonLines, listTable, textColumn, type ListPage, type ListQuery } from "../lib/list.ts";
import { userAgentMessages, type UserAgent, type UserAgentEndpoint, type UserAgentSortColumn } from "../contract/user-agents.ts";
import { endpointNotFound } from "./endpoints.ts";
import { deleteOwnRow, readOwnRow, requireOwnRow } from "../lib/own-rows.ts";

/*
 * User agents of an account (spec 2 §3, §4, §5, §7 User agents) and their links to endpoints (a
 * user agent may be linked to several; the endpoint's Agents tab lists them: endpointUserAgents in
 * ./endpoints.ts). The tables are user_agents and user_agent_endpoints (platform/db/schema.ts).
 * What the network says about an agent (op state, its change, the last authentication and its
 * result) is not stored: it is the fleet's `userAgentStatus` at the time of the read, a pure
 * function of (seed, id, time), as the Agents tab shows it.
 */

export const userAgentNotFound = () => notFound(userAgentMessages.notFound);

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

/** A user agent as its tables hold it (the list's SQL builds it); the fleet adds the rest. */
type StoredAgent = Omit<UserAgent, "op_state" | "op_state_change_at" | "last_auth_status" | "last_auth_time">;

/** The row as one JSON object (alias u: user_agents), its linked endpoints oldest link first. */
const agentJson = sql`json_build_object(
  'user_agent_id', u.user_agent_id,
  'name', u.name,
  'email', u.email,
  'description', u.description,
  'app_service_id', coalesce(u.app_service_id, ''),
  'created_at', ${isoText(sql`u.created_at`)},
  'ep_ids', coalesce((select json_agg(l.ep_id order by l.created_at, l.ep_id) from user_agent_endpoints l where l.user_agent_id = u.user_agent_id), '[]'::json)
)`;

/** The account's user agents: searched in name, e-mail, id, description and app service id; newest first. */
const storedList = defineList<StoredAgent, UserAgentSortColumn>({
  ...listTable("user_agents", "u", "user_agent_id"),
  search: [sql`lower(u.name)`, sql`lower(u.email)`, sql`lower(u.user_agent_id)`, sql`lower(u.description)`, sql`lower(coalesce(u.app_service_id, ''))`],
  sortable: {
    ...columns("text", "u", ["name", "user_agent_id", "email"]),
    app_service_id: textColumn(sql`coalesce(u.app_service_id, '')`),
    ...columns("time", "u", ["created_at"]),
  },
  defaultSort: "-created_at",
  json: agentJson,
  idOf: (u) => u.user_agent_id,
  notFound: userAgentNotFound,
  all: (db, accountId) =>
    jsonLines<StoredAgent>(db, sql`select (${agentJson})::text as j from user_agents u where u.account_id = ${accountId} order by u.created_at desc, u.user_agent_id desc`),
  // The fleet's figures change with time: listUserAgents adds them after the (cached) stored rows.
  cached: false,
});

/** The stored agents with what the fleet says of them at `now`, in the shape's field order. */
function withStatus(deps: Deps, rows: StoredAgent[], now = Date.now()): UserAgent[] {
  const fleet = fleetOf(deps);
  return rows.map((r) => {
    const s = fleet.userAgentStatus({ id: r.user_agent_id, kind: "user_agent" }, now);
    return {
      user_agent_id: r.user_agent_id,
      name: r.name,
      email: r.email,
      description: r.description,
      app_service_id: r.app_service_id,
      op_state: s.op_state,
      op_state_change_at: s.op_state_change_at,
      last_auth_status: s.last_auth_status,
      last_auth_time: s.last_auth_time,
      created_at: r.created_at,
      ep_ids: r.ep_ids,
    };
  });
}

/** list_user_agent: a page `{items, total}` when `paged`, else the spec's plain array. */
/**
 * list_user_agent: the stored rows (through `remember`, the read cache: they change only through
 * this platform's writes) with the fleet's state at the time of the read added after.
 */
export async function listUserAgents(
  deps: Deps,
  accountId: string,
  query: ListQuery,
  paged: boolean,
  remember: <T>(compute: () => Promise<T>) => Promise<T> = (compute) => compute(),
): Promise<ListPage<UserAgent> | UserAgent[]> {
  if (!paged) return withStatus(deps, await remember(() => storedList.all(deps.db, accountId, query)));
  const page = await remember(() => storedList.page(deps.db, accountId, query));
  return { items: withStatus(deps, page.items), total: page.total };
}

/** Every user agent the search selects, in the list's order, in batches (CSV export). */
export async function* exportUserAgents(deps: Deps, accountId: string, query: ListQuery): AsyncGenerator<UserAgent[]> {
  for await (const batch of storedList.batches(deps.db, accountId, query)) yield withStatus(deps, batch);
}

const requireAgent = (db: DbOrTx, accountId: string, userAgentId: string) => requireOwnRow(db, userAgents, userAgents.userAgentId, accountId, userAgentId, userAgentNotFound);

const requireEndpoint = (db: DbOrTx, accountId: string, epId: string) => readOwnRow(db, endpoints, endpoints.epId, accountId, epId, { appServiceId: endpoints.appServiceId }, endpointNotFound);

/**
 * user_agent_get_linked_ep (linked) and user_agent_get_unlinked_ep: the account's endpoints the
 * agent is (or is not) linked to, by name. Without an agent (creation), every endpoint of the
 * account may be linked.
 */
export async function userAgentEndpointChoices(db: DbOrTx, accountId: string, userAgentId: string | undefined, linked: boolean): Promise<UserAgentEndpoint[]> {
  if (userAgentId !== undefined) await requireAgent(db, accountId, userAgentId);
  const link = sql`exists (select 1 from user_agent_endpoints l where l.ep_id = e.ep_id and l.user_agent_id = ${userAgentId ?? ""})`;
  const which = userAgentId === undefined ? sql`true` : linked ? link : sql`not ${link}`;
  return execRows<UserAgentEndpoint>(
    db,
    sql`select e.ep_id, e.ep_name, e.deployment, e.app_service_id from endpoints e
      where e.account_id = ${accountId} and ${which} order by lower(e.ep_name), e.ep_id`,
  );
}

/** Whether a failed write hit a foreign key (the agent or the endpoint was removed meanwhile). */
const goneMeanwhile = (err: unknown) => pgErrorCode(err) === "23503";

/** create_user_agent: the agent, of the chosen endpoint's app service, linked to it; answers its id. */
export async function createUserAgent(db: Db, accountId: string, input: { name: string; email: string; description?: string; ep_id: string }): Promise<string> {
  const userAgentId = newId("ua");
  try {
    await db.transaction(async (tx) => {
      const ep = await requireEndpoint(tx, accountId, input.ep_id);
      await tx.insert(userAgents).values({ userAgentId, accountId, name: input.name, email: input.email, description: input.description ?? "", appServiceId: ep.appServiceId });
      await tx.insert(userAgentEndpoints).values({ userAgentId, epId: input.ep_id });
    });
  } catch (err) {
    if (goneMeanwhile(err)) throw endpointNotFound();
    throw err;
  }
  return userAgentId;
}

/** link_user_agent_to_ep: one link per agent and endpoint (the primary key): a second one, even a concurrent one, is a 409. */
export async function linkUserAgent(db: Db, accountId: string, input: { user_agent_id: string; ep_id: string }) {
  await requireAgent(db, accountId, input.user_agent_id);
  await requireEndpoint(db, accountId, input.ep_id);
  let added: unknown[];
  try {
    added = await db
      .insert(userAgentEndpoints)
      .values({ userAgentId: input.user_agent_id, epId: input.ep_id })
      .onConflictDoNothing()
      .returning({ id: userAgentEndpoints.epId });
  } catch (err) {
    if (goneMeanwhile(err)) {
      await requireAgent(db, accountId, input.user_agent_id);
      throw endpointNotFound();
    }
    throw err;
  }
  if (added.length === 0) throw conflict(userAgentMessages.alreadyLinked);
}

/** unlink_user_agent_from_ep: an agent without links answers 400 'User agent has no endpoints linked.' (spec 2 §5). */
export async function unlinkUserAgent(db: Db, accountId: string, input: { user_agent_id: string; ep_id: string }) {
  await requireAgent(db, accountId, input.user_agent_id);
  const removed = await db
    .delete(userAgentEndpoints)
    .where(and(eq(userAgentEndpoints.userAgentId, input.user_agent_id), eq(userAgentEndpoints.epId, input.ep_id)))
    .returning({ id: userAgentEndpoints.epId });
  if (removed.length > 0) return;
  const [left] = await db.select({ id: userAgentEndpoints.epId }).from(userAgentEndpoints).where(eq(userAgentEndpoints.userAgentId, input.user_agent_id)).limit(1);
  if (!left) throw badRequest(userAgentMessages.noLinkedEndpoints);
  await requireEndpoint(db, accountId, input.ep_id);
  throw notFound(userAgentMessages.notLinked);
}

/** remove_user_agent: the agent and its links (ON DELETE CASCADE). */
export const removeUserAgent = (db: Db, accountId: string, userAgentId: string) => deleteOwnRow(db, userAgents, userAgents.userAgentId, accountId, userAgentId, userAgentNotFound);
