import { beforeAll, describe, expect, it } from "vitest";
import { appServices } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { createEndpointNode } from "../domain/nodes-endpoint.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

/** An app service of the account, written directly (its calls are another module's). */
async function appService(a: TestAccount, deployment: "aws" | "onprem" | "azure" | "network" = "onprem") {
  const id = newId("as");
  await p.deps.db.insert(appServices).values({ appServiceId: id, accountId: a.accountId, appServiceName: `svc ${id}`, deployment, fqdn: "app.example.com", proto: "tcp", port: 443 });
  return id;
}

async function nodeGroup(a: TestAccount, name = `group-${newId("g")}`) {
  const r = await post(a, "create-endpoint-node-group", { ep_node_group_name: name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ep_node_group_id as string;
}

/** The nodes bodies() names, in the group (Create Endpoint refuses a node that does not exist: issue 27 item 14). */
async function nodesOf(a: TestAccount, group: string) {
  for (const [name, id] of [["Office", `epn-office-${group}`], ["DC", `epn-dc-${group}`]]) {
    await createEndpointNode(p.deps.db, a.accountId, { ep_node_name: name!, new_ep_node_group: false, ep_node_group_id: group }, id);
  }
}

async function setup() {
  const a = await p.newAccount();
  const as = await appService(a);
  const group = await nodeGroup(a);
  await nodesOf(a, group);
  return { a, as, group };
}

const bodies = (as: string, group: string) => ({
  agent: { ep_name: "Laptops", app_service_id: as, deployment: "agent" },
  onprem: { ep_name: "Office", app_service_id: as, deployment: "onprem", ep_node_id: `epn-office-${group}`, ep_node_group_id: group },
  aws: { ep_name: "VPC", app_service_id: as, deployment: "aws", region: "us-east-1", consumer_principle: "arn:aws:iam::123456789012:root" },
  azure: { ep_name: "VNet", app_service_id: as, deployment: "azure", region: "eastus", consumer_principle: "00000000-0000-0000-0000-000000000000" },
  network: {
    ep_name: "DC",
    app_service_id: as,
    deployment: "network",
    real_subnets: "10.1.0.0/16, 10.2.0.0/24",
    ep_node_group_id: group,
    ep_node_id: `epn-dc-${group}`,
    bgp_enabled: true,
    bgp_local_asn: 65001,
    bgp_peer_asn: 4200000000,
    bgp_peer_ip: "192.0.2.1",
  },
});

async function create(a: TestAccount, body: Record<string, unknown>) {
  const r = await post(a, "create-endpoint", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.detail).toBe("Endpoint created.");
  return r.body.ep_id as string;
}

const messages = (r: { body: any }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: any) => d.msg) : [r.body.detail]);

describe("endpoints: create by deployment (spec 1 §5)", () => {
  it("creates one endpoint of each kind, stored with the fields of its kind", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const ids: Record<string, string> = {};
    for (const [kind, body] of Object.entries(b)) ids[kind] = await create(a, body);

    const list = (await get(a, "list-endpoint")).body as any[];
    expect(list.map((e) => e.deployment)).toEqual(["network", "azure", "aws", "onprem", "agent"]);
    const byKind = Object.fromEntries(list.map((e) => [e.deployment, e]));
    expect(byKind.agent).toMatchObject({ ep_name: "Laptops", app_service_id: as, ep_node_id: null, region: "", size: "small", approval_status: "pending", op_state: "up" });
    expect(byKind.onprem).toMatchObject({ ep_node_id: `epn-office-${group}`, ep_node_group_id: group, ep_node_group_name: expect.stringMatching(/^group-/) });
    expect(byKind.aws).toMatchObject({ region: "us-east-1", consumer_principle: "arn:aws:iam::123456789012:root", ep_node_group_id: null });
    expect(byKind.azure).toMatchObject({ region: "eastus", consumer_principle: "00000000-0000-0000-0000-000000000000" });
    expect(byKind.network).toMatchObject({
      real_subnets: ["10.1.0.0/16", "10.2.0.0/24"],
      network_mode_enabled: true,
      bgp_enabled: true,
      bgp_local_asn: 65001,
      bgp_peer_asn: 4200000000,
      bgp_peer_ip: "192.0.2.1",
    });
    expect(byKind.agent.ip_addr).toMatch(/^100\.\d+\.\d+\.\d+$/);
    expect(byKind.agent.app_service_name).toMatch(/^svc /);

    const detail = await get(a, "get-endpoint-detail", { ep_id: ids.network! });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ ...byKind.network, user_agents: [] });
  });

  it("network without BGP needs no ASNs; fields of other kinds are not stored", async () => {
    const { a, as, group } = await setup();
    const id = await create(a, { ep_name: "Plain", app_service_id: as, deployment: "network", real_subnets: "10.9.0.0/16", ep_node_group_id: group, ep_node_id: `epn-dc-${group}`, region: "x" });
    const ep = (await get(a, "get-endpoint-detail", { ep_id: id })).body;
    expect(ep).toMatchObject({ bgp_enabled: false, bgp_local_asn: null, region: "" });
  });

  it("refuses each missing required field with its message", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...b.agent, ep_name: " " }, "Endpoint name is required."],
      [{ ...b.agent, app_service_id: "" }, "App Service id is required."],
      [{ ...b.onprem, ep_node_id: undefined }, "Node is required."],
      [{ ...b.onprem, ep_node_group_id: undefined }, "Node group is required."],
      [{ ...b.aws, region: "" }, "Region is required."],
      [{ ...b.aws, consumer_principle: undefined }, "Allowed principal is required."],
      [{ ...b.azure, region: undefined }, "Region is required."],
      [{ ...b.azure, consumer_principle: "" }, "Subscription id is required."],
      [{ ...b.network, real_subnets: "" }, "Real subnets are required."],
      [{ ...b.network, real_subnets: "10.0.0.0/33" }, "Not a valid CIDR (address/prefix, e.g. 10.0.0.0/24): 10.0.0.0/33"],
      [{ ...b.network, ep_node_group_id: undefined }, "Node group is required."],
      [{ ...b.network, ep_node_id: undefined }, "Node is required."],
      [{ ...b.network, bgp_local_asn: undefined }, "Local ASN is required when BGP is on."],
      [{ ...b.network, bgp_peer_asn: undefined }, "Peer ASN is required when BGP is on."],
      [{ ...b.network, bgp_peer_ip: undefined }, "Peer IP is required when BGP is on."],
      [{ ...b.network, bgp_peer_asn: "65002" }, "Peer ASN must be a whole number from 1 to 4294967295"],
      [{ ...b.network, bgp_local_asn: 0 }, "Local ASN must be a whole number from 1 to 4294967295"],
      [{ ...b.network, bgp_local_asn: 4294967296 }, "Local ASN must be a whole number from 1 to 4294967295"],
      [{ ...b.network, bgp_peer_ip: "300.1.1.1" }, "Not a valid IP address: 300.1.1.1"],
      [{ ...b.agent, deployment: "moon" }, "Deployment must be one of: agent, onprem, aws, azure, network"],
    ];
    for (const [body, message] of cases) {
      const r = await post(a, "create-endpoint", JSON.parse(JSON.stringify(body)));
      expect(r.status, message).toBe(422);
      expect(messages(r), message).toContain(message);
    }
    expect((await get(a, "list-endpoint")).body).toEqual([]);
  });

  it("unknown or foreign app service and node group: 404", async () => {
    const { a, as, group } = await setup();
    const other = await setup();
    const b = bodies(as, group);
    expect((await post(a, "create-endpoint", { ...b.agent, app_service_id: other.as })).status).toBe(404);
    expect((await post(a, "create-endpoint", { ...b.onprem, ep_node_group_id: other.group })).status).toBe(404);
    expect((await get(a, "list-endpoint")).body).toEqual([]);
  });
});

describe("endpoints: list in SQL", () => {
  it("searches, sorts, pages and filters by ids", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const ids: string[] = [];
    for (const name of ["Charlie", "alpha", "Bravo"]) ids.push(await create(a, { ...b.aws, ep_name: name }));
    const page = await get(a, "list-endpoint", { sort: "ep_name", size: "2" });
    expect(page.body.total).toBe(3);
    expect(page.body.items.map((e: any) => e.ep_name)).toEqual(["alpha", "Bravo"]);
    const second = await get(a, "list-endpoint", { sort: "-ep_name", page: "2", size: "2" });
    expect(second.body.items.map((e: any) => e.ep_name)).toEqual(["alpha"]);
    expect((await get(a, "list-endpoint", { q: "brav" })).body.items.map((e: any) => e.ep_name)).toEqual(["Bravo"]);
    expect((await get(a, "list-endpoint", { ids: ids[0]! })).body.total).toBe(1);
    expect((await get(a, "list-endpoint", { sort: "nope" })).status).toBe(422);
    const other = await p.newAccount();
    expect((await get(other, "list-endpoint", { q: "brav" })).body).toEqual({ items: [], total: 0 });
  });

  it("exports NDJSON of the search", async () => {
    const { a, as, group } = await setup();
    await create(a, { ...bodies(as, group).agent, ep_name: "Exported" });
    const r = await get(a, "export-endpoints", { q: "exported" });
    expect(r.status).toBe(200);
    // One line of NDJSON parses as one JSON object.
    const rows = typeof r.body === "string" ? r.body.trim().split("\n").map((l) => JSON.parse(l)) : [r.body];
    expect(rows.map((e) => e.ep_name)).toEqual(["Exported"]);
  });
});

describe("endpoints: row actions", () => {
  it("renames, describes, edits agent details, proxies, resets, removes", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const agent = await create(a, b.agent);
    const aws = await create(a, b.aws);
    const detail = async (id: string) => (await get(a, "get-endpoint-detail", { ep_id: id })).body;

    expect((await post(a, "set-endpoint-name", { ep_id: agent, ep_name: "Renamed" })).body.detail).toBe("Endpoint name updated.");
    expect((await post(a, "set-endpoint-description", { ep_id: agent, description: "Two\nlines" })).status).toBe(200);
    expect(await detail(agent)).toMatchObject({ ep_name: "Renamed", description: "Two\nlines" });

    const edit = await post(a, "edit-endpoint", { ep_id: agent, user_agent_dns_servers: "10.0.0.2, 2001:db8::53", user_agent_cidrs: "10.0.0.0/8,192.168.0.0/16" });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await detail(agent)).toMatchObject({ user_agent_dns_servers: ["10.0.0.2", "2001:db8::53"], user_agent_cidrs: ["10.0.0.0/8", "192.168.0.0/16"] });
    const badDns = await post(a, "edit-endpoint", { ep_id: agent, user_agent_dns_servers: "10.0.0.2, dns.example", user_agent_cidrs: "" });
    expect(badDns.status).toBe(422);
    expect(messages(badDns)).toContain("Not a valid IP address: dns.example");
    const badCidr = await post(a, "edit-endpoint", { ep_id: agent, user_agent_dns_servers: "", user_agent_cidrs: "10.0.0.0" });
    expect(messages(badCidr)).toContain("Not a valid CIDR (address/prefix, e.g. 10.0.0.0/24): 10.0.0.0");
    const notAgent = await post(a, "edit-endpoint", { ep_id: aws, user_agent_dns_servers: "10.0.0.2", user_agent_cidrs: "" });
    expect(notAgent).toEqual({ status: 400, body: { detail: "Agent details apply to agent endpoints only." } });

    expect((await post(a, "configure-endpoint-proxying", { ep_id: aws, enabled: true })).body.detail).toBe("Configured visibility successfully.");
    expect((await detail(aws)).proxying_enabled).toBe(true);
    await post(a, "configure-endpoint-proxying", { ep_id: aws, enabled: false });
    expect((await detail(aws)).proxying_enabled).toBe(false);

    const before = (await detail(aws)).op_state_change_at;
    await new Promise((r) => setTimeout(r, 5));
    expect((await post(a, "reset-endpoint", { ep_id: aws })).body.detail).toBe("Endpoint reset.");
    const after = await detail(aws);
    expect(after.op_state).toBe("up");
    expect(Date.parse(after.op_state_change_at)).toBeGreaterThan(Date.parse(before));

    expect((await post(a, "remove-endpoint", { ep_id: aws })).body.detail).toBe("Endpoint removed.");
    expect((await get(a, "get-endpoint-detail", { ep_id: aws })).status).toBe(404);
    expect((await post(a, "remove-endpoint", { ep_id: aws })).status).toBe(404);
  });

  it("resizes within the documented steps, refuses past the ends and for onprem", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const aws = await create(a, b.aws);
    const onprem = await create(a, b.onprem);
    const down = await post(a, "resize-endpoint-throughput", { ep_id: aws, direction: "down" });
    expect(down).toEqual({ status: 400, body: { detail: "The endpoint is already at the smallest size (small)." } });
    for (const size of ["medium", "large", "xlarge"]) {
      expect((await post(a, "resize-endpoint-throughput", { ep_id: aws, direction: "up" })).body).toEqual({ detail: "Resized Endpoint successfully.", size });
    }
    expect((await post(a, "resize-endpoint-throughput", { ep_id: aws, direction: "up" })).body.detail).toBe("The endpoint is already at the largest size (xlarge).");
    expect((await post(a, "resize-endpoint-throughput", { ep_id: aws, direction: "down" })).body.size).toBe("large");
    // Without a direction: up, as resize-app-service (spec 1: default up).
    expect((await post(a, "resize-endpoint-throughput", { ep_id: aws })).body).toEqual({ detail: "Resized Endpoint successfully.", size: "xlarge" });
    expect((await post(a, "resize-endpoint-throughput", { ep_id: onprem, direction: "up" })).body).toEqual({ detail: "An onprem endpoint cannot be resized." });
    expect((await post(a, "resize-endpoint-throughput", { ep_id: aws, direction: "sideways" })).status).toBe(422);
  });

  it("sets contacts and answers them by endpoint", async () => {
    const { a, as, group } = await setup();
    const ep = await create(a, bodies(as, group).aws);
    await post(a, "create_entity", { entity_name: "HQ", description: "", parent_entity_name: "" });
    const c1 = (await post(a, "create-contact", { email: "ada@example.com", contact_type: "business", entity_name: "HQ", first_name: "Ada", last_name: "Lovelace" })).body.contact_id;
    const c2 = (await post(a, "create-contact", { email: "grace@example.com", contact_type: "technical", entity_name: "HQ", first_name: "Grace", last_name: "Hopper" })).body.contact_id;
    expect((await get(a, "get-contact-by-ep-id", { ep_id: ep })).body).toEqual([]);
    expect((await post(a, "set-endpoint-contact", { ep_id: ep, primary_contact_id: c1, secondary_contact_id: c2 })).status).toBe(200);
    const contacts = (await get(a, "get-contact-by-ep-id", { ep_id: ep })).body as any[];
    expect(contacts.map((c) => [c.contact_id, c.contact_type])).toEqual([
      [c1, "business"],
      [c2, "technical"],
    ]);
    expect((await get(a, "get-endpoint-detail", { ep_id: ep })).body).toMatchObject({ primary_contact: "Ada Lovelace", secondary_contact: "Grace Hopper" });
    await post(a, "set-endpoint-contact", { ep_id: ep, primary_contact_id: "", secondary_contact_id: c2 });
    expect(((await get(a, "get-contact-by-ep-id", { ep_id: ep })).body as any[]).map((c) => c.contact_id)).toEqual([c2]);
    const other = await setup();
    expect((await post(a, "set-endpoint-contact", { ep_id: ep, primary_contact_id: "con-nope", secondary_contact_id: "" })).status).toBe(404);
    expect((await get(other.a, "get-contact-by-ep-id", { ep_id: ep })).status).toBe(404);
  });
});

describe("endpoints: traffic from the fleet", () => {
  it("measures latency, lists open flows and netflows; agent endpoints have no reachability or flows", async () => {
    const { a, as, group } = await setup();
    const b = bodies(as, group);
    const aws = await create(a, b.aws);
    const agent = await create(a, b.agent);
    const latency = await post(a, "measure-endpoint-latency", { ep_id: aws });
    expect(latency.status).toBe(200);
    expect(latency.body).toMatchObject({ ep_id: aws, probes: 10 });
    expect((await post(a, "measure-endpoint-latency", { ep_id: agent })).body.detail).toBe("Test Reachability is not available for agent endpoints.");
    const sessions = await get(a, "get-endpoint-sessions", { ep_id: aws });
    expect(sessions.status).toBe(200);
    for (const s of sessions.body) expect(Object.keys(s).sort()).toEqual(["dst_address", "established", "ports", "protocol", "rx_bytes", "src_address", "tx_bytes"]);
    expect((await get(a, "get-endpoint-sessions", { ep_id: agent })).status).toBe(400);
    const end = new Date();
    const start = new Date(end.getTime() - 3600_000);
    const flows = await get(a, "get-ep-sessions", { ep_id: agent, start_time: start.toISOString(), end_time: end.toISOString() });
    expect(flows.status).toBe(200);
    expect(flows.body.length).toBeGreaterThan(0);
    expect(Object.keys(flows.body[0]).sort()).toEqual(["app_name", "dst_addr", "dst_port", "end_time", "proto", "rx_bytes", "src_addr", "src_port", "start_time", "tx_bytes"]);
    // The same range gives the same rows.
    expect((await get(a, "get-ep-sessions", { ep_id: agent, start_time: start.toISOString(), end_time: end.toISOString() })).body).toEqual(flows.body);
    expect((await get(a, "get-ep-sessions", { ep_id: agent, start_time: end.toISOString(), end_time: start.toISOString() })).status).toBe(422);
    expect((await get(a, "get-ep-sessions", { ep_id: agent, start_time: "yesterday", end_time: end.toISOString() })).status).toBe(422);
  });
});

describe("endpoint node groups", () => {
  it("creates and lists groups; a repeated name is a conflict", async () => {
    const a = await p.newAccount();
    expect((await get(a, "list-endpoint-node-group")).body).toEqual([]);
    const id = await nodeGroup(a, "Branch nodes");
    expect((await get(a, "list-endpoint-node-group")).body).toEqual([
      expect.objectContaining({ ep_node_group_id: id, ep_node_group_name: "Branch nodes", dhcp_relay_enabled: false, vrrp_enabled: false }),
    ]);
    expect((await post(a, "create-endpoint-node-group", { ep_node_group_name: "Branch nodes" })).status).toBe(409);
    expect(messages(await post(a, "create-endpoint-node-group", { ep_node_group_name: "" }))).toContain("Node group name is required.");
  });
});

describe("endpoints: isolation and roles", () => {
  it("another account's endpoint ids answer 404 on every call", async () => {
    const { a, as, group } = await setup();
    const ep = await create(a, bodies(as, group).aws);
    const other = await p.newAccount();
    const end = new Date().toISOString();
    const start = new Date(Date.now() - 3600_000).toISOString();
    for (const [call, q] of [
      ["get-endpoint-detail", { ep_id: ep }],
      ["get-endpoint-sessions", { ep_id: ep }],
      ["get-ep-sessions", { ep_id: ep, start_time: start, end_time: end }],
      ["get-contact-by-ep-id", { ep_id: ep }],
    ] as const) {
      expect((await get(other, call, q)).status, call).toBe(404);
    }
    for (const [call, body] of mutations(ep)) expect((await post(other, call, body)).status, call).toBe(404);
    expect((await post(other, "measure-endpoint-latency", { ep_id: ep })).status).toBe(404);
    expect((await get(a, "get-endpoint-detail", { ep_id: ep })).status).toBe(200);
  });

  it("a readonly IAM user reads but gets 403 on every mutation", async () => {
    const { a, as, group } = await setup();
    const ep = await create(a, bodies(as, group).aws);
    const ro = await p.newIamUser(a, "readonly");
    expect((await get(ro, "list-endpoint")).body.map((e: any) => e.ep_id)).toEqual([ep]);
    expect((await get(ro, "get-endpoint-detail", { ep_id: ep })).status).toBe(200);
    expect((await post(ro, "measure-endpoint-latency", { ep_id: ep })).status).toBe(200);
    const all: Array<[string, unknown]> = [
      ...mutations(ep),
      ["create-endpoint", bodies(as, group).aws],
      ["create-endpoint-node-group", { ep_node_group_name: "ro" }],
    ];
    for (const [call, body] of all) expect((await post(ro, call, body)).status, call).toBe(403);
    // Nothing changed.
    expect((await get(a, "list-endpoint")).body).toHaveLength(1);
    expect((await get(a, "list-endpoint-node-group")).body).toHaveLength(1);
    const admin = await p.newIamUser(a, "admin");
    expect((await post(admin, "set-endpoint-name", { ep_id: ep, ep_name: "By admin" })).status).toBe(200);
  });
});

function mutations(ep: string): Array<[string, Record<string, unknown>]> {
  return [
    ["set-endpoint-name", { ep_id: ep, ep_name: "x" }],
    ["set-endpoint-description", { ep_id: ep, description: "x" }],
    ["edit-endpoint", { ep_id: ep, user_agent_dns_servers: "10.0.0.1", user_agent_cidrs: "" }],
    ["resize-endpoint-throughput", { ep_id: ep, direction: "up" }],
    ["configure-endpoint-proxying", { ep_id: ep, enabled: true }],
    ["set-endpoint-contact", { ep_id: ep, primary_contact_id: "", secondary_contact_id: "" }],
    ["reset-endpoint", { ep_id: ep }],
    ["remove-endpoint", { ep_id: ep }],
  ];
}

describe("endpoints: malformed payloads", () => {
  const cases: Array<{ call: string; valid: (x: { ep: string; as: string; group: string }) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    {
      call: "create-endpoint",
      valid: ({ as, group }) => bodies(as, group).network,
      // bgp_enabled left out is valid only without BGP fields... they are then ignored; description is optional.
      validVariant: (m) => validVariants({})(m) || m.name === 'field "bgp_enabled": missing' || m.name === 'field "bgp_enabled": wrong type (boolean false)',
    },
    { call: "set-endpoint-name", valid: ({ ep }) => ({ ep_id: ep, ep_name: "New" }), validVariant: validVariants({}) },
    { call: "set-endpoint-description", valid: ({ ep }) => ({ ep_id: ep, description: "New" }), validVariant: validVariants({ emptyAllowed: ["description"], multiline: ["description"] }) },
    {
      call: "edit-endpoint",
      valid: ({ ep }) => ({ ep_id: ep, user_agent_dns_servers: "10.0.0.1", user_agent_cidrs: "10.0.0.0/8" }),
      validVariant: validVariants({ emptyAllowed: ["user_agent_dns_servers", "user_agent_cidrs"] }),
    },
    // direction defaults to up (spec 1), as resize-app-service's does: leaving it out is a valid body.
    { call: "resize-endpoint-throughput", valid: ({ ep }) => ({ ep_id: ep, direction: "up" }), validVariant: validVariants({ optional: ["direction"] }) },
    { call: "configure-endpoint-proxying", valid: ({ ep }) => ({ ep_id: ep, enabled: true }), validVariant: validVariants({}) },
    {
      call: "set-endpoint-contact",
      valid: ({ ep }) => ({ ep_id: ep, primary_contact_id: "", secondary_contact_id: "" }),
      validVariant: (m) => /^field "(primary|secondary)_contact_id": empty string$/.test(m.name),
    },
    { call: "reset-endpoint", valid: ({ ep }) => ({ ep_id: ep }), validVariant: validVariants({}) },
    { call: "remove-endpoint", valid: ({ ep }) => ({ ep_id: ep }), validVariant: validVariants({}) },
    { call: "create-endpoint-node-group", valid: () => ({ ep_node_group_name: "Malformed" }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: the generated malformed bodies all get a 4xx`, async () => {
      const { a, as, group } = await setup();
      const ep = await create(a, bodies(as, group).agent);
      const payloads = malformedPayloads(valid({ ep, as, group })).filter((m) => !validVariant(m));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const notRefused: string[] = [];
      for (const m of payloads) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      // The agent endpoint is still there, and nothing else was created.
      expect(((await get(a, "list-endpoint")).body as any[]).map((e) => e.ep_id)).toEqual([ep]);
    });
  }
});

describe("endpoints: demo data", () => {
  it("seeds an endpoint of every kind, with user agents on the agent endpoint", async () => {
    const { seedEndpoints } = await import("../domain/endpoints-seed.ts");
    const a = await p.newAccount();
    await seedEndpoints(p.deps, a.accountId);
    const list = (await get(a, "list-endpoint")).body as any[];
    expect(list.map((e) => e.deployment).sort()).toEqual(["agent", "aws", "azure", "network", "onprem"]);
    const agent = list.find((e) => e.deployment === "agent");
    const detail = (await get(a, "get-endpoint-detail", { ep_id: agent.ep_id })).body;
    expect(detail.user_agents.map((u: any) => u.name)).toEqual(["Alice Laptop", "Bob Laptop"]);
    for (const u of detail.user_agents) {
      expect(["up", "down"]).toContain(u.op_state);
      expect(["success", "failed"]).toContain(u.last_auth_status);
    }
    expect((await get(a, "list-endpoint-node-group")).body.map((g: any) => g.ep_node_group_name)).toEqual(["Branch Nodes", "HQ Nodes"]);
  });
});
