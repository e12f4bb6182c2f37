import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { endpointNodes, serviceNodes } from "../db/schema.ts";
import { createFleet, createFleetClock, createInProcessBus, createKindRegistry, type FleetEvent } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { healthOf, nodeKindSource } from "../domain/nodes-fleet.ts";
import { findNode } from "../domain/nodes-common.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/* Nodes on the fleet clock: registration, outages, metrics and the health check (issue #28, docs/fleet.md). */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});
// A test that sets Date (a time the fleet keeps the node up) starts it again.
afterEach(() => void vi.useRealTimers());

const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const get = (token: string, call: string, query: Record<string, string> = {}) => p.call("GET", call, { token, query });
const HOUR = 3_600_000;

async function node(a: TestAccount, kind: "endpoint" | "service", formFactor: "ami" | null) {
  const r =
    kind === "endpoint"
      ? await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: true, ep_node_group_name: `G ${Math.random()}` })
      : await post(a.token, "create-service-node", { service_node_name: "S", new_service_node_group: true, service_node_group_name: `G ${Math.random()}` });
  const id = (r.body.ep_node_id ?? r.body.service_node_id) as string;
  if (formFactor) expect((await post(a.token, `set-${kind}-node-form-factor`, { node_id: id, form_factor: formFactor })).status).toBe(200);
  return id;
}

function clockFor() {
  const kinds = createKindRegistry();
  kinds.register(nodeKindSource("endpoint_node"));
  kinds.register(nodeKindSource("service_node"));
  const bus = createInProcessBus();
  const events: FleetEvent[] = [];
  bus.subscribe((e) => void events.push(e));
  const clock = createFleetClock({ db: p.deps.db, fleet: fleetOf(p.deps), kinds, bus });
  return { clock, events };
}

describe("registration from the fleet clock", () => {
  it("registers a node with a form factor after its registration time; a skipped node stays unregistered", async () => {
    const a = await p.newAccount();
    const ep = await node(a, "endpoint", "ami");
    const sn = await node(a, "service", "ami");
    const skipped = await node(a, "endpoint", null);
    const [row] = await p.deps.db.select().from(endpointNodes).where(eq(endpointNodes.epNodeId, ep));
    // Deterministic: the fleet's registration effect of the time the form factor was set.
    expect(row!.registersAt!.toISOString()).toBe(fleetOf(p.deps).registrationEffect({ id: ep, kind: "endpoint_node" }, row!.formFactorSetAt!).registered_at);
    const { clock, events } = clockFor();
    await clock.tick(Date.now());
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: ep })).body).toMatchObject({ registered_at: null, op_state: "unregistered" });

    // Its time comes (moved into the past here rather than waited for).
    const at = new Date(Date.now() - 2 * 24 * HOUR);
    await p.deps.db.update(endpointNodes).set({ registersAt: at }).where(eq(endpointNodes.epNodeId, ep));
    await p.deps.db.update(serviceNodes).set({ registersAt: at }).where(eq(serviceNodes.serviceNodeId, sn));
    const now = Date.now();
    await clock.tick(now);
    const fleet = fleetOf(p.deps);
    for (const [id, kind, call, q] of [
      [ep, "endpoint_node", "get-endpoint-node-detail", "ep_node_id"],
      [sn, "service_node", "get_service_node_detail", "service_node_id"],
    ] as const) {
      const d = (await get(a.token, call, { [q]: id })).body;
      expect(d.registered_at).toBe(at.toISOString());
      expect(d.op_state).toBe(fleet.isDown({ id, kind }, now) ? "down" : "up");
      expect(events.filter((e) => e.type === "op_state_changed" && e.id === id)).toEqual([expect.objectContaining({ kind, account_id: a.accountId, before: "unregistered", after: d.op_state })]);
    }
    const s = (await get(a.token, "get-endpoint-node-detail", { ep_node_id: skipped })).body;
    expect(s).toMatchObject({ registered_at: null, op_state: "unregistered", form_factor: null });
    expect((await get(a.token, "list-endpoint-node", { q: skipped })).body.items[0].form_factor).toBeNull();
    expect((await get(a.token, "get-account-summary")).body).toMatchObject({ endpoint_nodes: 2, service_nodes: 1 });
  });

  it("goes down during its fleet outages and up after, one event each", async () => {
    const a = await p.newAccount();
    const ep = await node(a, "endpoint", "ami");
    await p.deps.db.update(endpointNodes).set({ registersAt: new Date(Date.now() - HOUR) }).where(eq(endpointNodes.epNodeId, ep));
    const { clock, events } = clockFor();
    const start = Date.now();
    await clock.tick(start);
    const obj = { id: ep, kind: "endpoint_node" as const };
    const outage = fleetOf(p.deps)
      .transitions(obj, start, start + 120 * 24 * HOUR)
      .find((t) => t.state === "down" && t.at > start + 1000)!;
    expect(outage).toBeDefined();
    await clock.tick(outage.at + 1000);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: ep })).body).toMatchObject({ op_state: "down", op_state_change_at: new Date(outage.at).toISOString() });
    await clock.tick(outage.outage.end + 1000);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: ep })).body).toMatchObject({ op_state: "up", op_state_change_at: new Date(outage.outage.end).toISOString() });
    const mine = events.filter((e) => e.type === "op_state_changed" && e.id === ep).map((e) => (e.type === "op_state_changed" ? [e.after, e.at] : []));
    expect(mine.slice(-2)).toEqual([
      ["down", new Date(outage.at).toISOString()],
      ["up", new Date(outage.outage.end).toISOString()],
    ]);
    // Put the node back at now for other readers of the shared database.
    await p.deps.db.execute(sql`update endpoint_nodes set op_state_change_at = now() where ep_node_id = ${ep}`);
  });
});

describe("metrics and health", () => {
  it("get-node-metrics answers the spec's series, zero before the node registered", async () => {
    const a = await p.newAccount();
    const reg = await node(a, "service", "ami");
    const unreg = await node(a, "service", null);
    // A down node reports zeros, and an outage (up to two hours) can cover the whole hour asked for
    // (all zeros when the call also falls on a whole minute): the calls are made, Date standing still,
    // at a time the fleet keeps the registered node up all that hour (now, unless an outage touched it).
    let at = Date.now();
    while (fleetOf(p.deps).outages({ id: reg, kind: "service_node" }, { start: at - HOUR, end: at }, at).length) at -= HOUR;
    vi.useFakeTimers({ now: at, toFake: ["Date"] });
    await p.deps.db.update(serviceNodes).set({ registersAt: new Date(Date.now() - 3 * 24 * HOUR), registeredAt: new Date(Date.now() - 3 * 24 * HOUR) }).where(eq(serviceNodes.serviceNodeId, reg));
    const range = { start_time: new Date(Date.now() - HOUR).toISOString(), end_time: new Date().toISOString() };
    const r = await get(a.token, "get-node-metrics", { id: reg, ...range });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThanOrEqual(60);
    expect(Object.keys(r.body[0]).sort()).toEqual(["@timestamp", "ambient", "cpu", "cpu.fan.rpm", "cpu_p", "disk", "mem.usage", "rx.bytes", "tx.bytes"].sort());
    for (const s of r.body) {
      for (const k of ["cpu_p", "mem.usage", "disk"]) {
        expect(s[k]).toBeGreaterThanOrEqual(0);
        expect(s[k]).toBeLessThanOrEqual(100);
      }
      expect(s["cpu.fan.rpm"]).toBeLessThanOrEqual(5000);
    }
    expect(r.body.some((s: { cpu_p: number }) => s.cpu_p > 0)).toBe(true);
    expect(r.body).toEqual(fleetOf(p.deps).nodeMetrics({ id: reg, kind: "service_node" }, { start: at - HOUR, end: at }, at));
    const none = await get(a.token, "get-node-metrics", { id: unreg, ...range });
    expect(none.body.every((s: { cpu_p: number; "tx.bytes": number }) => s.cpu_p === 0 && s["tx.bytes"] === 0)).toBe(true);
    expect((await get(a.token, "get-node-metrics", { id: reg, start_time: range.end_time, end_time: range.start_time })).status).toBe(422);
    expect((await get(a.token, "get-node-metrics", { id: "sn-unknown", ...range })).status).toBe(404);
  });

  it("run-health-check answers six checks, deterministic for a time", async () => {
    const a = await p.newAccount();
    const id = await node(a, "endpoint", null);
    const r = await post(a.token, "run-health-check", { node_id: id });
    expect(r.status).toBe(200);
    expect(r.body.checks.map((c: { name: string }) => c.name)).toEqual(["reachability", "tunnel", "cpu", "memory", "disk", "software_version"]);
    expect(r.body).toMatchObject({ node_id: id, status: "fail", checks: [{ label: "Reachability", status: "fail", detail: expect.stringContaining("skipped for now") }, {}, {}, {}, {}, {}] });
    await p.deps.db.update(endpointNodes).set({ registeredAt: new Date(Date.now() - 24 * HOUR) }).where(eq(endpointNodes.epNodeId, id));
    const ref = await findNode(p.deps.db, a.accountId, id);
    const fleet = createFleet(p.deps.config.fleetSeed);
    const now = Date.now();
    const one = healthOf(fleet, ref, now);
    expect(healthOf(fleet, ref, now)).toEqual(one);
    expect(one.checks.map((c) => c.label)).toEqual(["Reachability", "Tunnel to the PoP", "CPU", "Memory", "Disk", "Software version"]);
    for (const c of one.checks) expect(["pass", "warn", "fail"]).toContain(c.status);
    // Reachable and its software known, or, while the node is down (in its outages, ~3 a month: at
    // random times in a run), unreachable since the outage began and its software unknown.
    const outage = fleet.currentOutage({ id, kind: "endpoint_node" }, now);
    if (outage === null) {
      expect(one.checks[0]!.status).toBe("pass");
      expect(one.checks[5]!.detail).toMatch(/^Runs 4\.\d\.\d/);
    } else {
      expect(one.checks[0]).toMatchObject({ status: "fail", detail: expect.stringContaining(`since ${new Date(outage.start).toISOString()}`) });
      expect(one.checks[5]).toMatchObject({ status: "warn", detail: "Unknown while the node is unreachable." });
    }
  });
});

describe("demo seed", () => {
  it("makes nodes of every form factor in three groups of each kind, one certificate expiring within 30 days", async () => {
    const { seedNodes } = await import("../domain/nodes-seed.ts");
    const a = await p.newAccount();
    await seedNodes(p.deps, a.accountId);
    const eps = (await get(a.token, "list-endpoint-node")).body as { form_factor: string | null; ep_node_group_name: string; registered_at: string | null }[];
    const sns = (await get(a.token, "list_service_node")).body as { form_factor: string | null; service_node_group_name: string; registered_at: string | null }[];
    for (const list of [eps, sns]) {
      expect(new Set(list.map((n) => n.form_factor))).toEqual(new Set(["ova", "ami", "hw", "hosted_aws", null]));
      for (const n of list) expect(n.registered_at === null).toBe(n.form_factor === null);
    }
    expect(new Set(eps.map((n) => n.ep_node_group_name)).size).toBe(3);
    const groups = (await get(a.token, "list_service_node_group")).body as { certificate: { expires_within_30_days: boolean } | null }[];
    expect(groups).toHaveLength(3);
    expect(groups.filter((g) => g.certificate?.expires_within_30_days)).toHaveLength(1);
    expect((await get(a.token, "get-account-summary")).body).toMatchObject({ service_nodes: 5, endpoint_nodes: 5 });
  });
});
