import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { appServices, endpointNodes, endpoints, serviceNodes, userAgents } from "../db/schema.ts";
import type { AccountSummary, DashboardObjects, NetStats } from "../contract/dashboard.ts";
import type { Fleet } from "../fleet/index.ts";
import type { FleetObject } from "../fleet/model.ts";
import { endpointFleetObject } from "./app-services.ts";
import { execRows } from "../lib/list.ts";
import type { DbOrTx } from "./entities.ts";

/*
 * The Private Access dashboard (spec 2 §3, §7 'Dashboard'): the account's counts from SQL, the
 * objects it charts, and their traffic from the fleet (docs/fleet.md, `netStats`).
 */

const countOf = (table: typeof appServices | typeof endpoints | typeof userAgents | typeof serviceNodes | typeof endpointNodes, accountId: string) =>
  sql<number>`(select count(*)::int from ${table} where ${table.accountId} = ${accountId})`;

/** get-account-summary: one query, a count per kind. */
export async function accountSummary(db: DbOrTx, accountId: string): Promise<AccountSummary> {
  const [row = { app_services: 0, endpoints: 0, service_nodes: 0, endpoint_nodes: 0, user_agents: 0 }] = await execRows<AccountSummary>(
    db,
    sql`select ${countOf(appServices, accountId)} as app_services, ${countOf(endpoints, accountId)} as endpoints, ${countOf(serviceNodes, accountId)} as service_nodes,
      ${countOf(endpointNodes, accountId)} as endpoint_nodes, ${countOf(userAgents, accountId)} as user_agents`,
  );
  return {
    app_services: Number(row.app_services),
    endpoints: Number(row.endpoints),
    service_nodes: Number(row.service_nodes),
    endpoint_nodes: Number(row.endpoint_nodes),
    user_agents: Number(row.user_agents),
  };
}

/** list-endpoint-dashboard: the endpoints and app services of the account, oldest first. */
export async function dashboardObjects(db: DbOrTx, accountId: string): Promise<DashboardObjects> {
  const [eps, services] = await Promise.all([
    db
      .select({ ep_id: endpoints.epId, ep_name: endpoints.epName, app_service_id: endpoints.appServiceId })
      .from(endpoints)
      .where(eq(endpoints.accountId, accountId))
      .orderBy(asc(endpoints.createdAt), asc(endpoints.epId)),
    db
      .select({ app_service_id: appServices.appServiceId, app_service_name: appServices.appServiceName })
      .from(appServices)
      .where(eq(appServices.accountId, accountId))
      .orderBy(asc(appServices.createdAt), asc(appServices.appServiceId)),
  ]);
  return { endpoints: eps, app_services: services };
}

/**
 * get-net-stats: the traffic of each id of the caller's account over [start, end) (the end held
 * at now). Ids of another account, or unknown ones, are left out of the answer.
 */
export async function netStats(db: DbOrTx, fleet: Fleet, accountId: string, ids: readonly string[], start: Date, end: Date, now = Date.now()): Promise<NetStats> {
  if (ids.length === 0) return {};
  const unique = [...new Set(ids)];
  const [eps, services, members] = await Promise.all([
    db
      .select({ ep_id: endpoints.epId, size: endpoints.size })
      .from(endpoints)
      .where(and(eq(endpoints.accountId, accountId), inArray(endpoints.epId, unique))),
    db
      .select({ id: appServices.appServiceId })
      .from(appServices)
      .where(and(eq(appServices.accountId, accountId), inArray(appServices.appServiceId, unique))),
    db
      .select({ as: endpoints.appServiceId, ep: endpoints.epId })
      .from(endpoints)
      .where(and(eq(endpoints.accountId, accountId), inArray(endpoints.appServiceId, unique))),
  ]);
  const objects: FleetObject[] = [
    ...eps.map(endpointFleetObject),
    ...services.map((s) => ({ id: s.id, kind: "app_service" as const, members: members.filter((m) => m.as === s.id).map((m) => m.ep) })),
  ];
  if (objects.length === 0) return {};
  const window = { start: start.getTime(), end: Math.max(start.getTime() + 1, Math.min(end.getTime(), now)) };
  const series = fleet.netStats(objects, window, now);
  // In the order asked for.
  const out: NetStats = {};
  for (const id of unique) if (series[id]) out[id] = series[id];
  return out;
}
