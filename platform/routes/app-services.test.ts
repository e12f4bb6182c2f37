import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appServices, endpoints } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants, type MalformedPayload } from "../test/malformed.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

const subscription = "0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9";
const plsId = `/subscriptions/${subscription}/resourceGroups/rg-apps/providers/Microsoft.Network/privateLinkServices/pls-crm`;
const vnetId = `/subscriptions/${subscription}/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet-hub`;

const awsBody = { app_service_name: "CRM", location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 };
const azureBody = { app_service_name: "ERP", location: "azure", proto: "tcp", port: 8443, region: "westeurope", cloud_endpoint_service_name: plsId };
const onpremBody = (sng: string) => ({ app_service_name: "Wiki", location: "onprem", fqdn: "wiki.corp.example", service_node_group_id: sng, proto: "ftp", port: 21 });
const networkBody = (sng: string) => ({
  app_service_name: "Branch LAN",
  location: "network",
  real_subnets: ["10.20.1.0/24", "10.20.2.0/25"],
  service_node_group_id: sng,
  address_translation_enabled: true,
  virtual_subnet_pools: ["100.64.0.0/16"],
  bgp_enabled: true,
  bgp_local_asn: 65001,
  bgp_peer_asn: 4200000000,
  bgp_peer_ip: "192.0.2.1",
});

async function group(a: TestAccount, name = "Core") {
  const r = await post(a, "create-service-node-group", { service_node_group_name: name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.service_node_group_id as string;
}

async function create(a: TestAccount, body: Record<string, unknown>) {
  const r = await post(a, "create-app-service", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.detail).toBe("App Service created.");
  return r.body.app_service_id as string;
}

// Each endpoint a millisecond after the last: PGlite's clock ticks in milliseconds, and two inserts
// within one would tie on created_at (then the random ids decide "oldest first").
let lastInsert = 0;
async function insertEndpoint(a: TestAccount, appServiceId: string, name = "Laptop fleet") {
  const epId = newId("ep");
  lastInsert = Math.max(Date.now(), lastInsert + 1);
  await p.deps.db.insert(endpoints).values({ epId, accountId: a.accountId, epName: name, deployment: "agent", appServiceId, createdAt: new Date(lastInsert) });
  return epId;
}

const messages = (r: { body: any }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: any) => `${d.loc.at(-1)}: ${d.msg}`) : [r.body.detail]);

describe("app services: create by deployment (spec 1 §5)", () => {
  it("creates one of each deployment with a primary hosting, and lists them", async () => {
    const a = await p.newAccount();
    const sng = await group(a);
    const aws = await create(a, awsBody);
    const azure = await create(a, azureBody);
    const onprem = await create(a, onpremBody(sng));
    const network = await create(a, networkBody(sng));
    const azureOpenAi = await create(a, {
      app_service_name: "OpenAI",
      location: "azure",
      proto: "udp",
      port: 443,
      region: "eastus",
      open_ai_private_link: true,
      private_endpoint_ip_address: "10.1.0.5",
      remote_vnet_resource_id: vnetId,
      azure_user_email: "cloud@example.com",
    });
    const list = (await get(a, "list-app-service")).body as any[];
    expect(list.map((x) => x.app_service_id)).toEqual([aws, azure, onprem, network, azureOpenAi]);
    expect(list[0]).toMatchObject({ deployment: "aws", proto: "tcp", port: 443, region: "us-east-1", size: "small", op_state: "up", admin_state: "up" });
    expect(list[0].health).toBeGreaterThanOrEqual(0);
    expect(list[2]).toMatchObject({ deployment: "onprem", proto: "ftp", fqdn: "wiki.corp.example", service_node_group_id: sng });
    expect(list[3]).toMatchObject({
      deployment: "network",
      proto: "",
      port: null,
      network_mode_enabled: true,
      real_subnets: ["10.20.1.0/24", "10.20.2.0/25"],
      virtual_subnets: ["100.64.0.0/24", "100.64.1.0/25"],
      bgp_local_asn: 65001,
      bgp_peer_asn: 4200000000,
    });
    expect(list[4]).toMatchObject({ open_ai_private_link: true, private_endpoint_ip_address: "10.1.0.5", cloud_endpoint_service_name: "" });
    const hosting = (await get(a, "app-service-get-hosting", { app_service_id: aws })).body;
    expect(hosting).toEqual([expect.objectContaining({ priority_id: 1, hosting_type: "cloud", service_provider: "aws", region: "us-east-1", size: "small" })]);
    expect((await get(a, "app-service-get-hosting", { app_service_id: onprem, hosting_type: "onprem" })).body).toHaveLength(1);
    expect((await get(a, "app-service-get-hosting", { app_service_id: onprem, hosting_type: "cloud" })).body).toHaveLength(0);
    expect((await get(a, "get-app-service-detail", { app_service_id: network })).body.app_service_name).toBe("Branch LAN");
  });

  it("refuses each missing required field and each malformed value with a clear message", async () => {
    const a = await p.newAccount();
    const sng = await group(a);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...awsBody, app_service_name: " " }, "app_service_name: Name is required."],
      [{ ...awsBody, region: undefined }, "region: Region is required."],
      [{ ...awsBody, region: "mars-1" }, "region: Choose a region of list-aws-regions"],
      [{ ...awsBody, cloud_endpoint_service_name: undefined }, "cloud_endpoint_service_name: Endpoint service name is required."],
      [{ ...awsBody, cloud_endpoint_service_name: "my-service" }, "cloud_endpoint_service_name: Endpoint service name must look like com.amazonaws.vpce.{region}.vpce-svc-{id}"],
      [{ ...awsBody, port: undefined }, "port: Port is required."],
      [{ ...awsBody, port: 0 }, "port: Port must be a whole number from 1 to 65535"],
      [{ ...awsBody, port: 65536 }, "port: Port must be a whole number from 1 to 65535"],
      [{ ...awsBody, port: 80.5 }, "port: Port must be a whole number from 1 to 65535"],
      [{ ...awsBody, proto: "udp" }, "proto: An aws App Service is TCP only"],
      [{ ...onpremBody(sng), fqdn: "" }, "fqdn: FQDN is required."],
      [{ ...onpremBody(sng), fqdn: "not a host" }, "fqdn: Not a valid FQDN or IP address: not a host"],
      [{ ...onpremBody(sng), service_node_group_id: undefined }, "service_node_group_id: Service node group is required."],
      [{ ...onpremBody(sng), proto: undefined }, "proto: Protocol is required."],
      [{ ...onpremBody(sng), proto: "icmp" }, "proto: Protocol must be one of: tcp, udp, ftp"],
      [{ ...azureBody, proto: "ftp" }, "proto: Protocol must be one of: tcp, udp"],
      [{ ...azureBody, region: "us-east-1" }, "region: Choose a region of list-azure-regions"],
      [{ ...azureBody, cloud_endpoint_service_name: undefined }, "cloud_endpoint_service_name: Private link service id is required."],
      [{ ...azureBody, cloud_endpoint_service_name: "/subscriptions/x/foo" }, expect.stringContaining("cloud_endpoint_service_name: Not a valid Azure resource id") as any],
      [{ ...azureBody, open_ai_private_link: true }, "private_endpoint_ip_address: Private endpoint IP is required."],
      [{ ...azureBody, open_ai_private_link: true, private_endpoint_ip_address: "10.1.0.300", remote_vnet_resource_id: vnetId, azure_user_email: "x@example.com" }, "private_endpoint_ip_address: Not a valid IP address: 10.1.0.300"],
      [{ ...azureBody, open_ai_private_link: true, private_endpoint_ip_address: "10.1.0.3", remote_vnet_resource_id: "vnet-hub", azure_user_email: "x@example.com" }, expect.stringContaining("remote_vnet_resource_id: Not a valid Azure resource id") as any],
      [{ ...azureBody, open_ai_private_link: true, private_endpoint_ip_address: "10.1.0.3", remote_vnet_resource_id: vnetId }, "azure_user_email: Customer user email is required."],
      [{ ...networkBody(sng), real_subnets: [] }, "real_subnets: Real subnets are required."],
      [{ ...networkBody(sng), real_subnets: ["10.0.0.0/33"] }, "0: Not a valid CIDR (address/prefix, e.g. 10.0.0.0/24): 10.0.0.0/33"],
      [{ ...networkBody(sng), service_node_group_id: undefined }, "service_node_group_id: Service node group is required."],
      [{ ...networkBody(sng), virtual_subnet_pools: [] }, "virtual_subnet_pools: Virtual subnet pools are required when address translation is on."],
      [{ ...networkBody(sng), bgp_local_asn: undefined }, "bgp_local_asn: Local ASN is required when BGP is on."],
      [{ ...networkBody(sng), bgp_peer_asn: 4294967296 }, "bgp_peer_asn: ASN must be a whole number from 1 to 4294967295"],
      [{ ...networkBody(sng), bgp_peer_asn: 0 }, "bgp_peer_asn: ASN must be a whole number from 1 to 4294967295"],
      [{ ...networkBody(sng), bgp_peer_ip: undefined }, "bgp_peer_ip: Peer IP is required when BGP is on."],
      [{ ...networkBody(sng), bgp_peer_ip: "192.0.2" }, "bgp_peer_ip: Not a valid IP address: 192.0.2"],
      [{ ...awsBody, location: "gcp" }, "location: Location must be one of: aws, onprem, azure, network"],
    ];
    for (const [body, message] of cases) {
      const r = await post(a, "create-app-service", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(messages(r), JSON.stringify(body)).toContainEqual(message);
    }
    // Optional features off: their fields are not needed.
    await create(a, { ...networkBody(sng), address_translation_enabled: false, virtual_subnet_pools: undefined, bgp_enabled: false, bgp_local_asn: undefined, bgp_peer_asn: undefined, bgp_peer_ip: undefined });
    await create(a, { ...onpremBody(sng), fqdn: "10.0.0.8" });
    await create(a, { ...awsBody, port: 65535 });
    await create(a, { ...networkBody(sng), bgp_local_asn: 1, bgp_peer_asn: 4294967295, bgp_peer_ip: "2001:db8::1" });
    // Another account's node group: 404.
    const b = await p.newAccount();
    expect((await post(b, "create-app-service", onpremBody(sng))).status).toBe(404);
    expect((await get(a, "list-app-service")).body).toHaveLength(4);
  });
});

describe("app services: list, edit, contacts, resize, delete", () => {
  it("pages, searches and sorts in SQL", async () => {
    const a = await p.newAccount();
    for (const [name, port] of [["Alpha", 443], ["beta", 80], ["Gamma", 8080]] as const) await create(a, { ...awsBody, app_service_name: name, port });
    const page = (await get(a, "list-app-service", { sort: "-port", size: "2" })).body;
    expect(page.total).toBe(3);
    expect(page.items.map((x: any) => x.app_service_name)).toEqual(["Gamma", "Alpha"]);
    expect((await get(a, "list-app-service", { q: "BETA" })).body.items.map((x: any) => x.port)).toEqual([80]);
    expect((await get(a, "list-app-service", { sort: "app_service_name", page: "2", size: "2" })).body.items.map((x: any) => x.app_service_name)).toEqual(["Gamma"]);
    expect((await get(a, "list-app-service", { sort: "nope" })).status).toBe(422);
    const exported = await p.app.request("/api/v1/export-app-services?q=a", { headers: { authorization: `Bearer ${a.token}` } });
    expect((await exported.text()).trim().split("\n")).toHaveLength(3);
  });

  it("renames, describes, edits protocol/port/fqdn by the deployment's rules", async () => {
    const a = await p.newAccount();
    const sng = await group(a);
    const onprem = await create(a, onpremBody(sng));
    const aws = await create(a, awsBody);
    expect((await post(a, "set-app-service-name", { app_service_id: onprem, app_service_name: "Wiki 2" })).status).toBe(200);
    expect((await post(a, "set-app-service-name", { app_service_id: onprem, app_service_name: "" })).status).toBe(422);
    expect((await post(a, "set-app-service-description", { app_service_id: onprem, description: "Docs\nfor all" })).status).toBe(200);
    expect((await post(a, "edit-app-service", { app_service_id: onprem, proto: "udp", port: 5353, fqdn: "docs.corp.example" })).body).toEqual({ detail: "App Service updated." });
    const d = (await get(a, "get-app-service-detail", { app_service_id: onprem })).body;
    expect(d).toMatchObject({ app_service_name: "Wiki 2", description: "Docs\nfor all", proto: "udp", port: 5353, fqdn: "docs.corp.example" });
    expect(messages(await post(a, "edit-app-service", { app_service_id: aws, proto: "udp" }))).toEqual(["proto: Protocol must be one of: tcp"]);
    expect(messages(await post(a, "edit-app-service", { app_service_id: aws, fqdn: "x.example.com" }))).toEqual(["fqdn: Only an onprem App Service has an FQDN."]);
    expect((await post(a, "edit-app-service", { app_service_id: aws, port: 70000 })).status).toBe(422);
    expect((await post(a, "edit-app-service", { app_service_id: onprem, fqdn: "bad host" })).status).toBe(422);
  });

  it("sets contacts, or says 'Missing Contacts' when the account has none", async () => {
    const a = await p.newAccount();
    const aws = await create(a, awsBody);
    const none = await post(a, "set-app-service-contact", { app_service_id: aws, primary_contact_id: "con-x", secondary_contact_id: "con-y" });
    expect(none.status).toBe(400);
    expect(none.body.detail).toMatch(/^Missing Contacts/);
    await post(a, "create_entity", { entity_name: "HQ", description: "", parent_entity_name: "" });
    const c1 = (await post(a, "create-contact", { first_name: "Ada", last_name: "L", email: "ada@example.com", contact_type: "business", entity_name: "HQ" })).body.contact_id;
    const c2 = (await post(a, "create-contact", { first_name: "Grace", last_name: "H", email: "g@example.com", contact_type: "technical", entity_name: "HQ" })).body.contact_id;
    expect((await post(a, "set-app-service-contact", { app_service_id: aws, primary_contact_id: c1, secondary_contact_id: c2 })).status).toBe(200);
    expect((await get(a, "get-app-service-detail", { app_service_id: aws })).body).toMatchObject({ primary_contact_id: c1, primary_contact: "Ada L", secondary_contact: "Grace H" });
    expect((await post(a, "set-app-service-contact", { app_service_id: aws, primary_contact_id: "con-missing" })).status).toBe(404);
    const b = await p.newAccount();
    await post(b, "create_entity", { entity_name: "HQ", description: "", parent_entity_name: "" });
    await post(b, "create-contact", { email: "b@example.com", contact_type: "business", entity_name: "HQ" });
    expect((await post(b, "set-app-service-contact", { app_service_id: aws, primary_contact_id: c1 })).status).toBe(404);
  });

  it("resizes one step within small…xlarge, refuses past the ends, onprem, and without a hosting", async () => {
    const a = await p.newAccount();
    const sng = await group(a);
    const aws = await create(a, awsBody);
    const onprem = await create(a, onpremBody(sng));
    const [h] = (await get(a, "app-service-get-hosting", { app_service_id: aws })).body;
    const resize = (direction?: string) => post(a, "resize-app-service", { app_service_id: aws, hosting_id: h.hosting_id, ...(direction ? { direction } : {}) });
    expect((await resize("down")).body).toEqual({ detail: "The hosting is already at the smallest size (small)." });
    expect((await resize()).body).toEqual({ detail: "Resized App Service successfully." });
    expect((await resize("up")).status).toBe(200);
    expect((await resize("up")).status).toBe(200);
    expect((await get(a, "get-app-service-detail", { app_service_id: aws })).body.size).toBe("xlarge");
    expect((await resize("up")).body).toEqual({ detail: "The hosting is already at the largest size (xlarge)." });
    expect((await resize("sideways")).status).toBe(422);
    expect(messages(await post(a, "resize-app-service", { app_service_id: aws, hosting_id: "" }))).toEqual(["hosting_id: Please select a hosting location."]);
    const [oh] = (await get(a, "app-service-get-hosting", { app_service_id: onprem })).body;
    expect((await post(a, "resize-app-service", { app_service_id: onprem, hosting_id: oh.hosting_id, direction: "up" })).status).toBe(400);
    expect((await post(a, "resize-app-service", { app_service_id: aws, hosting_id: oh.hosting_id, direction: "down" })).status).toBe(404);
  });

  it("delete is refused with a list naming the endpoints that use the service; approve/reject act on one endpoint", async () => {
    const a = await p.newAccount();
    const aws = await create(a, awsBody);
    const ep1 = await insertEndpoint(a, aws, "Laptops");
    const ep2 = await insertEndpoint(a, aws, "Branch");
    const eps = (await get(a, "get-app-service-endpoints", { app_service_id: aws })).body;
    expect(eps.map((e: any) => [e.ep_id, e.approval_status])).toEqual([[ep1, "pending"], [ep2, "pending"]]);
    expect((await post(a, "approve-endpoint", { ep_id: ep1 })).body).toEqual({ detail: "Endpoint approved." });
    expect((await post(a, "reject-endpoint", { ep_id: ep2 })).body).toEqual({ detail: "Endpoint rejected." });
    expect((await get(a, "get-app-service-endpoints", { app_service_id: aws })).body.map((e: any) => e.approval_status)).toEqual(["approved", "rejected"]);
    const refused = await post(a, "remove-app-service", { app_service_id: aws });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toHaveLength(2);
    expect(refused.body.detail[0].msg).toBe(`Endpoint Laptops (${ep1}) still uses this App Service: remove it first.`);
    await p.deps.db.delete(endpoints).where(eq(endpoints.appServiceId, aws));
    expect((await post(a, "remove-app-service", { app_service_id: aws })).body).toEqual({ detail: "App Service removed." });
    expect((await get(a, "list-app-service")).body).toEqual([]);
    expect((await post(a, "remove-app-service", { app_service_id: aws })).status).toBe(404);
  });
});

describe("app services: hostings, traffic, regions, node groups", () => {
  it("adds and removes hostings by location; the primary stays", async () => {
    const a = await p.newAccount();
    const sng = await group(a);
    const aws = await create(a, awsBody);
    const add = (body: Record<string, unknown>) => post(a, "app-service-add-hosting", { app_service_id: aws, ...body });
    const azureH = await add({ location: "azure", region: "northeurope", cloud_endpoint_service_name: plsId });
    expect(azureH.body.detail).toBe("Hosting added.");
    const onpremH = await add({ location: "onprem", fqdn: "crm.dc2.example", service_node_group_id: sng });
    expect(onpremH.status).toBe(200);
    expect(messages(await add({ location: "aws" }))).toEqual(["region: Region is required.", "cloud_endpoint_service_name: Endpoint service name is required."]);
    expect(messages(await add({ location: "onprem" }))).toEqual(["fqdn: FQDN is required.", "service_node_group_id: Node group is required."]);
    expect((await add({ location: "onprem", fqdn: "x.example.com", service_node_group_id: "sng-other" })).status).toBe(404);
    const list = (await get(a, "app-service-get-hosting", { app_service_id: aws })).body;
    expect(list.map((h: any) => [h.priority_id, h.service_provider])).toEqual([[1, "aws"], [2, "azure"], [3, "onprem"]]);
    expect((await post(a, "app-service-remove-hosting", { app_service_id: aws, hosting_id: list[0].hosting_id })).status).toBe(400);
    expect((await post(a, "app-service-remove-hosting", { app_service_id: aws, hosting_id: azureH.body.hosting_id })).body).toEqual({ detail: "Hosting removed." });
    expect((await post(a, "app-service-remove-hosting", { app_service_id: aws, hosting_id: azureH.body.hosting_id })).status).toBe(404);
    expect((await get(a, "app-service-get-hosting", { app_service_id: aws })).body).toHaveLength(2);
  });

  it("top talkers and latency come from the fleet for the service's endpoints", async () => {
    const a = await p.newAccount();
    const aws = await create(a, awsBody);
    const end = new Date();
    const start = new Date(end.getTime() - 3_600_000);
    const q = { app_service_id: aws, start_time: start.toISOString(), end_time: end.toISOString() };
    expect((await get(a, "get-top-talker-ep", q)).body).toEqual([]);
    const ep1 = await insertEndpoint(a, aws);
    const ep2 = await insertEndpoint(a, aws);
    const talkers = (await get(a, "get-top-talker-ep", q)).body as any[];
    expect(talkers.map((t) => t.epid).sort()).toEqual([ep1, ep2].sort());
    for (const t of talkers) expect(t.total_bytes).toBe(t.rx_bytes + t.tx_bytes);
    expect(talkers[0].total_bytes).toBeGreaterThanOrEqual(talkers[1].total_bytes);
    expect((await get(a, "get-top-talker-ep", { ...q, start_time: q.end_time, end_time: q.start_time })).status).toBe(422);
    expect((await get(a, "get-top-talker-ep", { ...q, start_time: "yesterday" })).status).toBe(422);
    const m = await post(a, "measure-app-service-latency", { app_service_id: aws });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ app_service_id: aws, probes: 10 });
    expect(typeof m.body.from_pop).toBe("string");
  });

  it("lists regions and service node groups in both spellings", async () => {
    const a = await p.newAccount();
    expect((await get(a, "list-aws-regions")).body).toContainEqual({ region: "eu-central-1", name: "Europe (Frankfurt)" });
    expect((await get(a, "list-azure-regions")).body).toContainEqual({ region: "westeurope", name: "West Europe" });
    expect((await get(a, "list-service-node-group")).body).toEqual([]);
    const sng = await group(a, "Edge");
    for (const path of ["list-service-node-group", "list_service_node_group"]) {
      // The nodes area (#28) adds the group's certificate and node count.
      expect((await get(a, path)).body).toEqual([{ service_node_group_id: sng, service_node_group_name: "Edge", external_certificate: false, created_at: expect.any(String), certificate: null, node_count: 0 }]);
    }
    expect((await post(a, "create-service-node-group", { service_node_group_name: "Edge" })).status).toBe(409);
  });
});

describe("app services: other accounts and readonly users", () => {
  it("another account's ids answer 404 on every call", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const aws = await create(a, awsBody);
    const ep = await insertEndpoint(a, aws);
    const [h] = (await get(a, "app-service-get-hosting", { app_service_id: aws })).body;
    const id = { app_service_id: aws };
    const now = new Date().toISOString();
    const reads: Array<[string, Record<string, string>]> = [
      ["get-app-service-detail", id],
      ["get-app-service-endpoints", id],
      ["app-service-get-hosting", id],
      ["get-top-talker-ep", { ...id, start_time: new Date(Date.now() - 3_600_000).toISOString(), end_time: now }],
    ];
    for (const [call, q] of reads) expect((await get(b, call, q)).status, call).toBe(404);
    const writes: Array<[string, Record<string, unknown>]> = [
      ["set-app-service-name", { ...id, app_service_name: "x" }],
      ["set-app-service-description", { ...id, description: "x" }],
      ["edit-app-service", { ...id, port: 80 }],
      ["resize-app-service", { ...id, hosting_id: h.hosting_id, direction: "up" }],
      ["measure-app-service-latency", id],
      ["remove-app-service", id],
      ["approve-endpoint", { ep_id: ep }],
      ["reject-endpoint", { ep_id: ep }],
      ["app-service-add-hosting", { ...id, location: "aws", region: "us-east-2", cloud_endpoint_service_name: awsBody.cloud_endpoint_service_name }],
      ["app-service-remove-hosting", { ...id, hosting_id: h.hosting_id }],
    ];
    for (const [call, body] of writes) expect((await post(b, call, body)).status, call).toBe(404);
    await post(b, "create_entity", { entity_name: "HQ", description: "", parent_entity_name: "" });
    await post(b, "create-contact", { email: "b@example.com", contact_type: "business", entity_name: "HQ" });
    expect((await post(b, "set-app-service-contact", { ...id, primary_contact_id: "" })).status).toBe(404);
    const [row] = await p.deps.db.select().from(appServices).where(eq(appServices.appServiceId, aws));
    expect(row).toMatchObject({ appServiceName: "CRM", size: "small" });
  });

  it("a readonly IAM user reads but gets 403 on every mutation", async () => {
    const a = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const aws = await create(a, awsBody);
    const ep = await insertEndpoint(a, aws);
    const [h] = (await get(a, "app-service-get-hosting", { app_service_id: aws })).body;
    expect((await get(ro, "list-app-service")).body).toHaveLength(1);
    const id = { app_service_id: aws };
    const writes: Array<[string, Record<string, unknown>]> = [
      ["create-app-service", awsBody],
      ["set-app-service-name", { ...id, app_service_name: "x" }],
      ["set-app-service-description", { ...id, description: "x" }],
      ["edit-app-service", { ...id, port: 80 }],
      ["set-app-service-contact", { ...id, primary_contact_id: "" }],
      ["resize-app-service", { ...id, hosting_id: h.hosting_id, direction: "up" }],
      ["remove-app-service", id],
      ["approve-endpoint", { ep_id: ep }],
      ["reject-endpoint", { ep_id: ep }],
      ["app-service-add-hosting", { ...id, location: "aws", region: "us-east-2", cloud_endpoint_service_name: awsBody.cloud_endpoint_service_name }],
      ["app-service-remove-hosting", { ...id, hosting_id: h.hosting_id }],
      ["create-service-node-group", { service_node_group_name: "x" }],
    ];
    for (const [call, body] of writes) expect((await post(ro, call, body)).status, call).toBe(403);
    expect((await get(a, "list-app-service")).body).toHaveLength(1);
  });
});

describe("app services: malformed payloads", () => {
  const cases: Array<{ call: string; valid: (ids: { as: string; hosting: string; ep: string; sng: string }) => Record<string, unknown>; validVariant: (m: MalformedPayload) => boolean }> = [
    { call: "create-app-service", valid: () => ({ ...awsBody, description: "CRM for sales" }), validVariant: validVariants({ optional: ["description"], multiline: ["description"] }) },
    { call: "set-app-service-name", valid: ({ as }) => ({ app_service_id: as, app_service_name: "CRM 2" }), validVariant: validVariants({}) },
    { call: "set-app-service-description", valid: ({ as }) => ({ app_service_id: as, description: "x" }), validVariant: validVariants({ emptyAllowed: ["description"], multiline: ["description"] }) },
    { call: "edit-app-service", valid: ({ as }) => ({ app_service_id: as, proto: "tcp", port: 8443 }), validVariant: validVariants({ optional: ["proto", "port"] }) },
    { call: "resize-app-service", valid: ({ as, hosting }) => ({ app_service_id: as, hosting_id: hosting, direction: "up" }), validVariant: validVariants({ optional: ["direction"] }) },
    { call: "app-service-add-hosting", valid: ({ as }) => ({ app_service_id: as, location: "aws", region: "us-west-2", cloud_endpoint_service_name: awsBody.cloud_endpoint_service_name }), validVariant: validVariants({}) },
    { call: "app-service-remove-hosting", valid: ({ as, hosting }) => ({ app_service_id: as, hosting_id: hosting }), validVariant: validVariants({}) },
    { call: "approve-endpoint", valid: ({ ep }) => ({ ep_id: ep }), validVariant: validVariants({}) },
    { call: "remove-app-service", valid: ({ as }) => ({ app_service_id: as }), validVariant: validVariants({}) },
  ];
  for (const { call, valid, validVariant } of cases) {
    it(`${call}: every malformed body gets a 4xx and changes nothing`, async () => {
      const a = await p.newAccount();
      const sng = await group(a);
      const as = await create(a, awsBody);
      const extra = await create(a, { ...awsBody, app_service_name: "Extra" });
      const [h] = (await get(a, "app-service-get-hosting", { app_service_id: as })).body;
      const added = (await post(a, "app-service-add-hosting", { app_service_id: as, location: "azure", region: "eastus", cloud_endpoint_service_name: plsId })).body.hosting_id;
      const ep = await insertEndpoint(a, extra);
      const example = valid({ as, hosting: call === "app-service-remove-hosting" ? added : h.hosting_id, ep, sng });
      const payloads = malformedPayloads(example).filter((m) => !validVariant(m));
      expect(payloads.length).toBeGreaterThanOrEqual(15);
      const snapshot = async () => [(await get(a, "list-app-service")).body, (await get(a, "app-service-get-hosting", { app_service_id: as })).body, (await get(a, "get-app-service-endpoints", { app_service_id: extra })).body];
      const before = await snapshot();
      const notRefused: string[] = [];
      for (const m of payloads) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        if (r.status < 400 || r.status >= 500) notRefused.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      expect(notRefused).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect((await post(a, call, example)).status).toBe(200);
    });
  }
});
