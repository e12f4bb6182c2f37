import { beforeAll, describe, expect, it } from "vitest";
import { malformedPayloads } from "../test/malformed.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { eq } from "drizzle-orm";
import { appServices, endpointNodes, endpoints } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";

/* Endpoint nodes and endpoint node groups (spec 2 §3, §5, §7; issue #28). */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const get = (token: string, call: string, query: Record<string, string> = {}) => p.call("GET", call, { token, query });
const messages = (r: { body: { detail: unknown } }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: { msg: string }) => d.msg) : [r.body.detail]);

export async function newEndpointNode(a: TestAccount, name = "Branch node", group = `Group ${newId("g")}`) {
  const r = await post(a.token, "create-endpoint-node", { ep_node_name: name, new_ep_node_group: true, ep_node_group_name: group });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { ep_node_id: string; ep_node_group_id: string; detail: string };
}

describe("endpoint nodes", () => {
  it("creates in a new group and in an existing one, lists, pages, searches and shows the detail", async () => {
    const a = await p.newAccount();
    const first = await newEndpointNode(a, "Head office", "HQ");
    expect(first).toEqual({ ep_node_id: expect.stringMatching(/^epn-/), ep_node_group_id: expect.stringMatching(/^epg-/), detail: "Endpoint Node created." });
    const second = await post(a.token, "create-endpoint-node", { ep_node_name: "Branch", new_ep_node_group: false, ep_node_group_id: first.ep_node_group_id });
    expect(second.status).toBe(200);
    expect(second.body.ep_node_group_id).toBe(first.ep_node_group_id);

    const all = await get(a.token, "list-endpoint-node");
    expect(all.body.map((n: { ep_node_name: string }) => n.ep_node_name)).toEqual(["Branch", "Head office"]);
    const node = all.body[1];
    expect(node).toMatchObject({
      ep_node_group_name: "HQ",
      admin_state: "up",
      op_state: "unregistered",
      registered_at: null,
      form_factor: null,
      secondary_ips: [],
      lan_interface_enabled: false,
      endpoint_count: 0,
      account_id: a.accountId,
      ova_prepared: false,
      node_url: null,
    });
    expect(node.primary_ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
    const page = await get(a.token, "list-endpoint-node", { q: "head", size: "10", sort: "ep_node_name" });
    expect(page.body).toMatchObject({ total: 1, items: [{ ep_node_name: "Head office" }] });
    const byGroup = await get(a.token, "list-endpoint-node", { ep_node_group_id: first.ep_node_group_id, sort: "-ep_node_name" });
    expect(byGroup.body.items.map((n: { ep_node_name: string }) => n.ep_node_name)).toEqual(["Head office", "Branch"]);
    const detail = await get(a.token, "get-endpoint-node-detail", { ep_node_id: first.ep_node_id });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ ep_node_id: first.ep_node_id, endpoints: [] });
  });

  it("refuses what spec 2 §5 refuses", async () => {
    const a = await p.newAccount();
    const noName = await post(a.token, "create-endpoint-node", { ep_node_name: " ", new_ep_node_group: true, ep_node_group_name: "G" });
    expect(noName.status).toBe(422);
    expect(messages(noName)).toContain("Node name is required.");
    const noGroupName = await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: true });
    expect(messages(noGroupName)).toContain("Node group name is required.");
    const noGroupId = await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: false });
    expect(messages(noGroupId)).toContain("Node group is required.");
    // A blank id says the same sentence, with its stop (the id field's own words, built from its name).
    expect(messages(await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: false, ep_node_group_id: "" }))).toEqual(["Node group is required."]);
    expect(messages(await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: true, ep_node_group_name: " " }))).toEqual(["Node group name is required."]);
    const unknownGroup = await post(a.token, "create-endpoint-node", { ep_node_name: "N", new_ep_node_group: false, ep_node_group_id: "epg-nope" });
    expect(unknownGroup.status).toBe(404);
    await newEndpointNode(a, "N", "Taken");
    const taken = await post(a.token, "create-endpoint-node", { ep_node_name: "N2", new_ep_node_group: true, ep_node_group_name: "Taken" });
    expect(taken.status).toBe(409);
  });

  it("adds secondary IPs, naming duplicates and the primary", async () => {
    const a = await p.newAccount();
    const n = await newEndpointNode(a);
    const ok = await post(a.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "192.168.1.10, 192.168.1.11" });
    expect(ok.body).toEqual({ detail: "Secondary IPs added.", secondary_ips: ["192.168.1.10", "192.168.1.11"] });
    const { primary_ip } = (await get(a.token, "get-endpoint-node-detail", { ep_node_id: n.ep_node_id })).body;
    // A repeat is the request's refusal (the dialog's too); the node's own addresses the call's.
    const repeat = await post(a.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "192.168.1.12,192.168.1.12" });
    expect(messages(repeat)).toEqual(["Entered more than once: 192.168.1.12"]);
    const bad = await post(a.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: `192.168.1.12,${primary_ip},192.168.1.10` });
    expect(bad.status).toBe(422);
    expect(messages(bad)).toEqual([`The node's primary IP cannot be a secondary IP: ${primary_ip}`, "Already secondary IPs of the node: 192.168.1.10"]);
    const notIp = await post(a.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "192.168.1.300" });
    expect(messages(notIp)).toEqual(["Not a valid IPv4 address: 192.168.1.300"]);
    const empty = await post(a.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: " " });
    expect(messages(empty)).toEqual(["Secondary IPs are required."]);
  });

  it("configures the LAN interface with an address and prefix", async () => {
    const a = await p.newAccount();
    const n = await newEndpointNode(a);
    const on = await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: true, primary_ipv4_address: "192.168.50.1/24" });
    expect(on.body).toEqual({ detail: "LAN Interface enabled." });
    const d = (await get(a.token, "get-endpoint-node-detail", { ep_node_id: n.ep_node_id })).body;
    expect(d).toMatchObject({ lan_interface_enabled: true, lan_interface_ipaddress: "192.168.50.1/24" });
    const noPrefix = await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: true, primary_ipv4_address: "192.168.50.1" });
    expect(noPrefix.status).toBe(422);
    expect(messages(noPrefix)[0]).toMatch(/^LAN interface address must be an IPv4 address with its prefix, such as 192\.168\.1\.1\/24/);
    const missing = await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: true });
    expect(messages(missing)).toEqual(["An IPv4 address is required when the LAN interface is on."]);
    const off = await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: false });
    expect(off.body).toEqual({ detail: "LAN Interface disabled." });
    // The form sends the address field empty: one message when it is needed, none when it is not (issue 63 item 26).
    expect(messages(await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: true, primary_ipv4_address: "" }))).toEqual(["An IPv4 address is required when the LAN interface is on."]);
    expect((await post(a.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: false, primary_ipv4_address: "" })).body).toEqual({ detail: "LAN Interface disabled." });
  });

  it("refuses to remove a node endpoints use, with a list detail, then removes it", async () => {
    const a = await p.newAccount();
    const n = await newEndpointNode(a);
    const app = newId("as");
    await p.deps.db.insert(appServices).values({ appServiceId: app, accountId: a.accountId, appServiceName: "App", deployment: "onprem", fqdn: "app.example.com", proto: "tcp", port: 443 });
    const epId = newId("ep");
    await p.deps.db.insert(endpoints).values({ epId, accountId: a.accountId, epName: "Office LAN", deployment: "onprem", appServiceId: app, epNodeId: n.ep_node_id, epNodeGroupId: n.ep_node_group_id });
    const refused = await post(a.token, "remove-endpoint-node", { ep_node_id: n.ep_node_id, ep_node_group_id: n.ep_node_group_id });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toEqual([{ loc: ["body", "ep_node_id"], msg: `Endpoint Office LAN (${epId}) still uses this Endpoint Node: remove it first.`, type: "in_use" }]);
    const detail = (await get(a.token, "get-endpoint-node-detail", { ep_node_id: n.ep_node_id })).body;
    expect(detail.endpoints).toEqual([expect.objectContaining({ ep_id: epId, ep_name: "Office LAN" })]);
    expect(detail.endpoint_count).toBe(1);
    await p.deps.db.delete(endpoints).where(eq(endpoints.epId, epId));
    const removed = await post(a.token, "remove-endpoint-node", { ep_node_id: n.ep_node_id, ep_node_group_id: n.ep_node_group_id });
    expect(removed.body).toEqual({ detail: "Endpoint Node removed." });
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: n.ep_node_id })).status).toBe(404);
  });
});

describe("endpoint node groups", () => {
  it("lists (array and page), shows the detail, and toggles DHCP relay and VRRP", async () => {
    const a = await p.newAccount();
    const n = await newEndpointNode(a, "N", "Zeta");
    await newEndpointNode(a, "M", "Alpha");
    const all = await get(a.token, "list-endpoint-node-group");
    expect(all.body.map((g: { ep_node_group_name: string }) => g.ep_node_group_name)).toEqual(["Alpha", "Zeta"]);
    const page = await get(a.token, "list-endpoint-node-group", { q: "zet" });
    expect(page.body).toMatchObject({ total: 1, items: [{ ep_node_group_id: n.ep_node_group_id }] });
    const detail = await get(a.token, "get-endpoint-node-group-details", { ep_node_group_id: n.ep_node_group_id });
    expect(detail.body).toMatchObject({ ep_node_group_name: "Zeta", ep_nodes: [{ ep_node_id: n.ep_node_id, ep_node_name: "N", op_state: "unregistered" }] });

    expect((await post(a.token, "configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: true, server_ip: "10.1.1.5" })).body).toEqual({ detail: "DHCP Relay enabled." });
    expect((await post(a.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: true, virtual_ip: "10.1.1.254" })).body).toEqual({ detail: "VRRP enabled." });
    const g = (await get(a.token, "get-endpoint-node-group-details", { ep_node_group_id: n.ep_node_group_id })).body;
    expect(g).toMatchObject({ dhcp_relay_enabled: true, dhcp_relay_server_ip: "10.1.1.5", vrrp_enabled: true, vrrp_virtual_ip: "10.1.1.254" });
    expect((await post(a.token, "configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: false })).body).toEqual({ detail: "DHCP Relay disabled." });
    expect((await post(a.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: false })).body).toEqual({ detail: "VRRP disabled." });

    expect(messages(await post(a.token, "configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: true }))).toEqual(["DHCP server IP is required when DHCP relay is on."]);
    expect(messages(await post(a.token, "configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: true, server_ip: "" }))).toEqual(["DHCP server IP is required when DHCP relay is on."]);
    expect(messages(await post(a.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: true, virtual_ip: "" }))).toEqual(["Virtual IP is required when VRRP is on."]);
    expect((await post(a.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: false, virtual_ip: "" })).body).toEqual({ detail: "VRRP disabled." });
    expect(messages(await post(a.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: true, virtual_ip: "10.1.1" }))).toEqual(["Not a valid IPv4 address: 10.1.1"]);
  });

  it("pages, sorts and searches both group lists in SQL, as the group screens ask", async () => {
    const a = await p.newAccount();
    for (const name of ["Gamma", "Alpha", "Beta"]) {
      await newEndpointNode(a, `N ${name}`, name);
      expect((await post(a.token, "create-service-node", { service_node_name: `S ${name}`, new_service_node_group: true, service_node_group_name: name })).status).toBe(200);
    }
    const names = (r: { body: { items: Record<string, string>[] } }, key: string) => r.body.items.map((g) => g[key]);
    const ep = await get(a.token, "list-endpoint-node-group", { sort: "-ep_node_group_name", page: "1", size: "2" });
    expect(ep.body.total).toBe(3);
    expect(names(ep, "ep_node_group_name")).toEqual(["Gamma", "Beta"]);
    expect(names(await get(a.token, "list-endpoint-node-group", { sort: "-ep_node_group_name", page: "2", size: "2" }), "ep_node_group_name")).toEqual(["Alpha"]);
    const sn = await get(a.token, "list_service_node_group", { sort: "service_node_group_name", size: "2" });
    expect(sn.body.total).toBe(3);
    expect(names(sn, "service_node_group_name")).toEqual(["Alpha", "Beta"]);
    expect(names(await get(a.token, "list_service_node_group", { q: "gam" }), "service_node_group_name")).toEqual(["Gamma"]);
    // Without list parameters: the spec's plain arrays (the create dialogs' selects read them).
    expect((await get(a.token, "list_service_node_group")).body.map((g: { service_node_group_name: string }) => g.service_node_group_name)).toEqual(["Gamma", "Alpha", "Beta"]);
  });
});

describe("endpoint node access", () => {
  it("answers 404 for another account's ids and 403 to readonly users", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const n = await newEndpointNode(a);
    expect((await get(b.token, "get-endpoint-node-detail", { ep_node_id: n.ep_node_id })).status).toBe(404);
    expect((await get(b.token, "get-endpoint-node-group-details", { ep_node_group_id: n.ep_node_group_id })).status).toBe(404);
    expect((await post(b.token, "remove-endpoint-node", { ep_node_id: n.ep_node_id, ep_node_group_id: n.ep_node_group_id })).status).toBe(404);
    expect((await post(b.token, "configure-lan-interface", { node_id: n.ep_node_id, enabled: false })).status).toBe(404);
    expect((await post(b.token, "add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "1.2.3.4" })).status).toBe(404);
    expect((await post(b.token, "configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: false })).status).toBe(404);
    expect((await post(b.token, "configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: false })).status).toBe(404);
    expect((await post(b.token, "create-endpoint-node", { ep_node_name: "X", new_ep_node_group: false, ep_node_group_id: n.ep_node_group_id })).status).toBe(404);
    expect((await get(b.token, "list-endpoint-node")).body).toEqual([]);

    const ro = await p.newIamUser(a, "readonly");
    expect((await get(ro.token, "list-endpoint-node")).body).toHaveLength(1);
    for (const [call, body] of [
      ["create-endpoint-node", { ep_node_name: "X", new_ep_node_group: true, ep_node_group_name: "Y" }],
      ["remove-endpoint-node", { ep_node_id: n.ep_node_id, ep_node_group_id: n.ep_node_group_id }],
      ["configure-lan-interface", { node_id: n.ep_node_id, enabled: false }],
      ["add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "1.2.3.4" }],
      ["configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: false }],
      ["configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: false }],
    ] as const) {
      expect((await post(ro.token, call, body)).status, call).toBe(403);
    }
    const rows = await p.deps.db.select().from(endpointNodes).where(eq(endpointNodes.accountId, a.accountId));
    expect(rows).toHaveLength(1);
  });

  it("answers 4xx to malformed payloads", { timeout: 180_000 }, async () => {
    const a = await p.newAccount();
    const n = await newEndpointNode(a);
    for (const [call, example] of [
      ["create-endpoint-node", { ep_node_name: "X", new_ep_node_group: true, ep_node_group_name: "Y" }],
      ["configure-lan-interface", { node_id: n.ep_node_id, enabled: true, primary_ipv4_address: "192.168.1.1/24" }],
      ["add-endpoint-node-secondary-ips", { ep_node_id: n.ep_node_id, secondary_ips: "1.2.3.4" }],
      ["configure-dhcp-relay", { node_group_id: n.ep_node_group_id, enabled: true, server_ip: "10.0.0.1" }],
      ["configure-vrrp", { node_group_id: n.ep_node_group_id, enabled: true, virtual_ip: "10.0.0.1" }],
      ["remove-endpoint-node", { ep_node_id: n.ep_node_id, ep_node_group_id: n.ep_node_group_id }],
    ] as const) {
      for (const m of malformedPayloads(example)) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        expect(r.status, `${call} ${m.name}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${call} ${m.name}`).toBeLessThan(500);
      }
    }
  });
});
