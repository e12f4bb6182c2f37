import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { fleetKinds, type Fleet, type FleetKindSource, type FleetObjectState } from "../fleet/index.ts";
import { execRows } from "../lib/list.ts";
import { healthCheckLabels, type HealthCheckName, type HealthStatus, type NodeHealth, type NodeMetricsSample } from "../contract/nodes.ts";
import { findNode, type NodeKind, type NodeRef } from "./nodes-common.ts";

/*
 * Nodes on the fleet clock (docs/fleet.md, issue #28): both kinds register in `fleetKinds`. A node
 * is listed to the clock once its registration time (`registers_at`, set with its first form
 * factor) has passed: the clock's reconcile then takes it up (registered_at filled) and its fleet
 * outages take it down and up again, each change an op_state_changed event. A node skipped for now
 * has no registers_at and stays unregistered (op state down). Metrics and the health check are
 * the fleet's, at the time asked.
 */

const tables: Record<NodeKind, { table: string; id: string; name: string }> = {
  service_node: { table: "service_nodes", id: "service_node_id", name: "service_node_name" },
  endpoint_node: { table: "endpoint_nodes", id: "ep_node_id", name: "ep_node_name" },
};

/** What a node serves, for an outage's "affected": service node — its group's app services and their endpoints; endpoint node — its endpoints. */
async function served(db: Db, kind: NodeKind, id: string) {
  if (kind === "endpoint_node") {
    const eps = await execRows<{ ep_id: string; app_service_id: string }>(db, sql`select ep_id, app_service_id from endpoints where ep_node_id = ${id} order by ep_id`);
    return { app_services: [...new Set(eps.map((e) => e.app_service_id))], endpoints: eps.map((e) => e.ep_id) };
  }
  const apps = await execRows<{ id: string }>(
    db,
    sql`select a.app_service_id as id from app_services a join service_nodes n on n.service_node_group_id = a.service_node_group_id and n.account_id = a.account_id
        where n.service_node_id = ${id}
        union select h.app_service_id from hostings h join service_nodes n on n.service_node_group_id = h.service_node_group_id and n.account_id = h.account_id
        where n.service_node_id = ${id} order by 1`,
  );
  const ids = apps.map((a) => a.id);
  const eps = ids.length
    ? await execRows<{ ep_id: string }>(db, sql`select ep_id from endpoints where app_service_id in (${sql.join(ids.map((x) => sql`${x}`), sql`, `)}) order by ep_id`)
    : [];
  return { app_services: ids, endpoints: eps.map((e) => e.ep_id) };
}

/** The fleet source of one node kind. */
export function nodeKindSource(kind: NodeKind): FleetKindSource {
  const t = sql.identifier(tables[kind].table);
  const id = sql.identifier(tables[kind].id);
  return {
    kind,
    async list(db) {
      const rows = await execRows<{ id: string; account_id: string; name: string; op_state: string; op_state_change_at: string | Date }>(
        db,
        sql`select ${id} as id, account_id, ${sql.identifier(tables[kind].name)} as name, op_state, op_state_change_at from ${t} where registers_at is not null and registers_at <= now()`,
      );
      return rows.map(
        (r): FleetObjectState => ({ id: r.id, accountId: r.account_id, name: r.name, opState: r.op_state, opStateChangeAt: new Date(r.op_state_change_at) }),
      );
    },
    async setOpState(db, nodeId, state, at) {
      // Compare-and-set by time (kinds.ts); the first change after registers_at registers the node.
      const rows = await execRows<{ id: string }>(
        db,
        sql`update ${t} set op_state = ${state}, op_state_change_at = greatest(${at.toISOString()}::timestamptz, registers_at),
              registered_at = coalesce(registered_at, registers_at)
            where ${id} = ${nodeId} and op_state is distinct from ${state}
              and (op_state_change_at is null or op_state_change_at < ${at.toISOString()}::timestamptz)
            returning ${id} as id`,
      );
      return rows.length > 0;
    },
    served: (db, nodeId) => served(db, kind, nodeId),
  };
}

fleetKinds.register(nodeKindSource("service_node"));
fleetKinds.register(nodeKindSource("endpoint_node"));

const zeroMetrics = (s: NodeMetricsSample): NodeMetricsSample => ({
  "@timestamp": s["@timestamp"],
  "tx.bytes": 0,
  "rx.bytes": 0,
  cpu_p: 0,
  "mem.usage": 0,
  "cpu.fan.rpm": 0,
  ambient: 0,
  cpu: 0,
  disk: 0,
});

/** get-node-metrics: the node's samples over [start, end] (end held at now); zero before it registered. */
export async function nodeMetricsOf(db: DbOrTx, fleet: Fleet, accountId: string, nodeId: string, start: Date, end: Date, now = Date.now()): Promise<NodeMetricsSample[]> {
  const node = await findNode(db, accountId, nodeId);
  const window = { start: start.getTime(), end: Math.max(start.getTime() + 1, Math.min(end.getTime(), now)) };
  const samples = fleet.nodeMetrics({ id: node.id, kind: node.kind }, window, now);
  const since = node.registeredAt?.getTime() ?? Infinity;
  return samples.map((s) => (Date.parse(s["@timestamp"]) >= since ? s : zeroMetrics(s)));
}

/** The software the platform ships, and the older release some nodes still run. */
export const nodeSoftware = { current: "4.2.7", previous: "4.1.3" } as const;

const r1 = (n: number) => Math.round(n * 10) / 10;
const worst = (statuses: HealthStatus[]): HealthStatus => (statuses.includes("fail") ? "fail" : statuses.includes("warn") ? "warn" : "pass");
const level = (pct: number): HealthStatus => (pct >= 90 ? "fail" : pct >= 80 ? "warn" : "pass");

/** run-health-check: the node's checks at `now`, from the fleet (deterministic). */
export async function nodeHealth(db: DbOrTx, fleet: Fleet, accountId: string, nodeId: string, now = Date.now()): Promise<NodeHealth> {
  const node = await findNode(db, accountId, nodeId);
  return healthOf(fleet, node, now);
}

export function healthOf(fleet: Fleet, node: NodeRef, now: number): NodeHealth {
  const checks: { name: HealthCheckName; status: HealthStatus; detail: string }[] = [];
  const add = (name: HealthCheckName, status: HealthStatus, detail: string) => checks.push({ name, status, detail });
  const obj = { id: node.id, kind: node.kind };
  if (!node.registeredAt || node.registeredAt.getTime() > now) {
    const why = node.formFactor ? "The node has not registered yet." : "The node has no form factor yet (skipped for now), so it cannot register.";
    add("reachability", "fail", why);
    add("tunnel", "fail", "No tunnel: the node has not registered.");
    for (const n of ["cpu", "memory", "disk"] as const) add(n, "warn", "No data: the node has not registered.");
    add("software_version", "warn", "Unknown until the node registers.");
  } else {
    const outage = fleet.currentOutage(obj, now);
    const latency = fleet.measureLatency(obj, now);
    if (outage) {
      const cause = ` (${outage.cause.replace(/_/g, " ")})`;
      add("reachability", "fail", `No answer from the node since ${new Date(outage.start).toISOString()}${cause}.`);
      add("tunnel", "fail", `Tunnel to ${latency.from_pop} is down.`);
      for (const n of ["cpu", "memory", "disk"] as const) add(n, "warn", "No data: the node is unreachable.");
      add("software_version", "warn", "Unknown while the node is unreachable.");
    } else {
      const m = fleet.nodeMetrics(obj, { start: now - 60_000, end: now }, now).at(-1);
      add("reachability", "pass", `The node answered over its management tunnel at ${new Date(now).toISOString()}.`);
      const loss = latency.loss_pct;
      add(
        "tunnel",
        loss >= 50 ? "fail" : loss > 0 ? "warn" : "pass",
        `Tunnel to ${latency.from_pop}: ${latency.received}/${latency.probes} probes answered${latency.avg_ms === null ? "" : `, ${latency.avg_ms} ms average`}.`,
      );
      const cpu = m?.cpu_p ?? 0;
      const mem = m?.["mem.usage"] ?? 0;
      const disk = m?.disk ?? 0;
      add("cpu", level(cpu), `${r1(cpu)} % load (warn at 80 %, fail at 90 %).`);
      add("memory", level(mem), `${r1(mem)} % in use (warn at 80 %, fail at 90 %).`);
      add("disk", level(disk), `${r1(disk)} % in use (warn at 80 %, fail at 90 %).`);
      // Some nodes (one in five, by id) still run the previous release.
      let h = 0;
      for (const ch of node.id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      if (h % 5 === 0) add("software_version", "warn", `Runs ${nodeSoftware.previous}; ${nodeSoftware.current} is available.`);
      else add("software_version", "pass", `Runs ${nodeSoftware.current}, the current release.`);
    }
  }
  return {
    node_id: node.id,
    checked_at: new Date(now).toISOString(),
    status: worst(checks.map((c) => c.status)),
    checks: checks.map((c) => ({ ...c, label: healthCheckLabels[c.name] })),
  };
}
