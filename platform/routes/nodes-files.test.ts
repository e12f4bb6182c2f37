import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import tar from "tar-stream";
import { parse as parseYaml } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { endpointNodes, nodeRegistrationTokens } from "../db/schema.ts";
import { wireguardPublicKey } from "../domain/node-files-build.ts";
import { execRows } from "../lib/list.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/* The form factors' files and the registration tokens (issue #28). */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const get = (token: string, call: string, query: Record<string, string> = {}) => p.call("GET", call, { token, query });
const messages = (r: { body: { detail: unknown } }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: { msg: string }) => d.msg) : [r.body.detail]);

async function newNode(a: TestAccount, kind: "endpoint" | "service" = "endpoint", name = "Edge 1") {
  const r =
    kind === "endpoint"
      ? await post(a.token, "create-endpoint-node", { ep_node_name: name, new_ep_node_group: true, ep_node_group_name: `G ${Math.random()}` })
      : await post(a.token, "create-service-node", { service_node_name: name, new_service_node_group: true, service_node_group_name: `G ${Math.random()}` });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.ep_node_id ?? r.body.service_node_id) as string;
}

/** A raw download through the app (status, headers, bytes). */
async function download(token: string | null, path: string) {
  const res = await p.app.fetch(new Request(`http://platform.test${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

async function untar(data: Buffer) {
  const members: { name: string; data: Buffer; type: string }[] = [];
  const extract = tar.extract();
  await new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => {
        if (Buffer.isBuffer(c)) chunks.push(c);
      });
      stream.on("end", () => {
        members.push({ name: header.name, data: Buffer.concat(chunks), type: header.type ?? "file" });
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
    Readable.from([data]).pipe(extract);
  });
  return members;
}

const register = (node_id: string, registration_token: string) => p.call("POST", "register-node", { body: { node_id, registration_token } });

describe("Download OVA", () => {
  it("is a USTAR tar: OVF descriptor, manifest with matching digests, disk; its token registers once", async () => {
    const a = await p.newAccount();
    const id = await newNode(a, "endpoint", "Branch <Paris> & Co");
    const r = await get(a.token, "prepare-epn-ova", { ep_node_id: id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ detail: "OVA prepared.", node_url: expect.stringMatching(/^\/api\/v1\/download-node-ova\/.+\.ova$/) });
    const node = (await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body;
    expect(node).toMatchObject({ form_factor: "ova", ova_prepared: true, node_url: r.body.node_url });

    const file = await download(a.token, r.body.node_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${r.body.file_name}"`);
    expect(file.data.subarray(257, 262).toString("latin1")).toBe("ustar");
    const members = await untar(file.data);
    expect(members.map((m) => m.name.replace(/^.*\./, ""))).toEqual(["ovf", "mf", "vmdk"]);
    const [ovf, mf, disk] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    expect(XMLValidator.validate(ovf.data.toString("utf8"))).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(ovf.data.toString("utf8"));
    const system = doc.Envelope.VirtualSystem;
    expect(system.Name).toBe("Branch <Paris> & Co");
    const props = Object.fromEntries((system.ProductSection.Property as Record<string, string>[]).map((x) => [x["@ovf:key"], x]));
    expect(props.node_id!["@ovf:value"]).toBe(id);
    expect(props.platform_url!["@ovf:value"]).toBe("http://console.test/api/v1");
    expect(props.registration_token!["@ovf:password"]).toBe("true");
    const token = props.registration_token!["@ovf:value"]!;
    expect(doc.Envelope.References.File["@ovf:href"]).toBe(disk.name);
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    expect(mf.data.toString("utf8")).toBe(`SHA256(${ovf.name})= ${sha(ovf.data)}\nSHA256(${disk.name})= ${sha(disk.data)}\n`);
    // An empty streamOptimized VMDK: header (version 3, grain directory at the end), descriptor,
    // grain directory marker and table, footer marker, footer (pointing at the directory), end of stream.
    expect(disk.data.subarray(0, 4).toString("latin1")).toBe("KDMV");
    expect(disk.data.readUInt32LE(4)).toBe(3);
    expect(disk.data.readBigUInt64LE(56)).toBe(0xffffffffffffffffn);
    expect(disk.data.subarray(512, 512 + 21).toString("latin1")).toBe("# Disk DescriptorFile");
    expect(disk.data.length % 512).toBe(0);
    const sectors = disk.data.length / 512;
    const footer = disk.data.subarray((sectors - 2) * 512, (sectors - 1) * 512);
    expect(footer.subarray(0, 4).toString("latin1")).toBe("KDMV");
    const gd = Number(footer.readBigUInt64LE(56));
    expect(disk.data.readUInt32LE((gd - 1) * 512 + 12)).toBe(2); // the grain directory's marker
    expect(disk.data.readUInt32LE((sectors - 3) * 512 + 12)).toBe(3); // the footer's marker
    expect(disk.data.subarray((sectors - 1) * 512).every((b) => b === 0)).toBe(true);

    // Only the token's hash is kept.
    const stored = await p.deps.db.select().from(nodeRegistrationTokens).where(eq(nodeRegistrationTokens.nodeId, id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).toBe(sha(Buffer.from(token)));
    const ok = await register(id, token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ detail: "Node registered.", node_id: id, node_kind: "endpoint_node" });
    expect((await register(id, token)).status).toBe(401);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body.registered_at).toBe(ok.body.registered_at);

    // Owner only.
    const b = await p.newAccount();
    expect((await download(b.token, r.body.node_url)).status).toBe(404);
    expect((await download(null, r.body.node_url)).status).toBe(401);
  });

  it("prepares a service node's OVA too", async () => {
    const a = await p.newAccount();
    const id = await newNode(a, "service");
    const r = await get(a.token, "prepare-sn-ova", { service_node_id: id });
    expect(r.status).toBe(200);
    const members = await untar((await download(a.token, r.body.node_url)).data);
    expect(members[0]!.data.toString()).toContain(`ovf:key="node_kind" ovf:type="string" ovf:userConfigurable="false" ovf:value="service_node"`);
    expect((await get(a.token, "get_service_node_detail", { service_node_id: id })).body.form_factor).toBe("ova");
  });
});

describe("registration tokens", () => {
  it("work once under concurrent use, and not after they expire", async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const { cloud_init_data } = (await post(a.token, "generate-node-cloud-init-data", { node_id: id })).body;
    const token = /REGISTRATION_TOKEN=(\S+)/.exec(cloud_init_data)![1]!;
    const results = await Promise.all(Array.from({ length: 8 }, () => register(id, token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);

    const second = (await post(a.token, "generate-node-cloud-init-data", { node_id: id })).body.cloud_init_data as string;
    const expired = /REGISTRATION_TOKEN=(\S+)/.exec(second)![1]!;
    await p.deps.db.execute(sql`update node_registration_tokens set expires_at = now() - interval '1 second' where token_hash = ${createHash("sha256").update(expired).digest("hex")}`);
    expect((await register(id, expired)).status).toBe(401);
    expect((await register(id, "lwreg_not-a-token")).status).toBe(401);
    const other = await newNode(a);
    const third = /REGISTRATION_TOKEN=(\S+)/.exec((await post(a.token, "generate-node-cloud-init-data", { node_id: other })).body.cloud_init_data)![1]!;
    expect((await register(id, third)).status).toBe(401); // another node's token
  });
});

describe("AWS AMI", () => {
  it("generates a #cloud-config with a 0600 file of the node id and token, and runcmd", async () => {
    const a = await p.newAccount();
    const id = await newNode(a, "service");
    const r = await post(a.token, "generate-node-cloud-init-data", { node_id: id });
    expect(r.status).toBe(200);
    const text = r.body.cloud_init_data as string;
    expect(text.split("\n")[0]).toBe("#cloud-config");
    const doc = parseYaml(text);
    expect(doc.write_files).toHaveLength(1);
    expect(doc.write_files[0]).toMatchObject({ path: "/etc/linkwise/node.env", permissions: "0600" });
    expect(doc.write_files[0].content).toContain(`NODE_ID=${id}\n`);
    expect(doc.write_files[0].content).toMatch(/REGISTRATION_TOKEN=lwreg_[A-Za-z0-9_-]{43}\n/);
    expect(doc.runcmd).toContainEqual(["systemctl", "enable", "--now", "linkwise-node-agent.service"]);
    expect(r.body.file_name).toBe(`user-data-${id}.yaml`);
    expect(Date.parse(r.body.expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect((await get(a.token, "get_service_node_detail", { service_node_id: id })).body.form_factor).toBe("ami");
  });
});

describe("Hosted Node", () => {
  const hosted = { hosted_region: "us-east-1", hosted_vpc_cidr: "10.100.0.0/24", hosted_peer_ip: "169.254.10.2", hosted_peer_prefix: 30 };

  it("makes a WireGuard configuration whose private key is only in the file", async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const r = await post(a.token, "generate-hsn-vpn-config", { node_id: id, form_factor: "hosted_aws", ...hosted });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // wg-quick names the interface after the file: at most 15 characters of [A-Za-z0-9_=+.-].
    expect(r.body.file_name).toMatch(/^[A-Za-z0-9_=+.-]{1,15}\.conf$/);
    const file = await download(a.token, `/api/v1/download-hsn-vpn-config/${r.body.file_name}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${r.body.file_name}"`);
    const conf = file.data.toString("utf8");
    expect(conf).toMatch(/^\[Interface\]$/m);
    expect(conf).toMatch(/^\[Peer\]$/m);
    const priv = /^PrivateKey = (\S+)$/m.exec(conf)![1]!;
    const peer = /^PublicKey = (\S+)$/m.exec(conf)![1]!;
    for (const k of [priv, peer]) expect(k).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(wireguardPublicKey(priv)).toBe(r.body.public_key);
    expect(conf).toMatch(/^Address = 169\.254\.10\.2\/30$/m);
    expect(conf).toMatch(/^AllowedIPs = 10\.100\.0\.0\/24$/m);
    expect(conf).toMatch(/^Endpoint = \S+:51820$/m);
    expect(conf).toMatch(/^PersistentKeepalive = 25$/m);
    // The file says the truth about the copy the platform keeps.
    expect(conf).not.toContain("does not keep");
    expect(conf).toContain("The platform keeps it encrypted");
    // Nowhere in the database in clear.
    const hits = await execRows<{ n: number }>(p.deps.db, sql`select count(*)::int as n from node_files where content_enc like ${`%${priv}%`}`);
    expect(Number(hits[0]!.n)).toBe(0);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body).toMatchObject({ form_factor: "hosted_aws", ...hosted, vpn_config_file: r.body.file_name });
    const b = await p.newAccount();
    expect((await download(b.token, `/api/v1/download-hsn-vpn-config/${r.body.file_name}`)).status).toBe(404);
  });

  it("validates the hosted fields and the hardware address", async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const bad = await post(a.token, "generate-hsn-vpn-config", { node_id: id, form_factor: "hosted_aws", hosted_region: "mars-1", hosted_vpc_cidr: "10.100.0.1/24", hosted_peer_ip: "x", hosted_peer_prefix: 40 });
    expect(bad.status).toBe(422);
    expect(messages(bad)).toEqual([
      "Choose a region of list-aws-regions",
      "VPC CIDR must be a network address (host bits zero), such as 10.0.0.0/24: 10.100.0.1/24",
      "Not a valid IPv4 address: x",
      "Peer prefix must be a whole number from 1 to 32.",
    ]);
    // A blank or missing field in the console's words (nodes-forms: the Hosted Node tab is this request).
    const blank = await post(a.token, "generate-hsn-vpn-config", { node_id: id, form_factor: "hosted_aws", hosted_region: "us-east-1", hosted_vpc_cidr: "", hosted_peer_ip: "" });
    expect(messages(blank)).toEqual(["VPC CIDR is required.", "Peer IP is required.", "Peer prefix is required."]);
    const hw = await post(a.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "hw", shipping_addr: "  " });
    expect(messages(hw)).toEqual(["Shipping address is required."]);
    const missing = await post(a.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "hosted_aws" });
    expect(messages(missing)).toEqual(["Region is required.", "VPC CIDR is required.", "Peer IP is required.", "Peer prefix is required."]);
    const ok = await post(a.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "hw", shipping_addr: "1 Main St\nSpringfield" });
    expect(ok.body).toEqual({ detail: "Form Factor saved." });
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body).toMatchObject({ form_factor: "hw", shipping_addr: "1 Main St\nSpringfield" });
    const sid = await newNode(a, "service");
    expect((await post(a.token, "set-service-node-form-factor", { node_id: sid, form_factor: "hosted_aws", ...hosted })).status).toBe(200);
    expect((await post(a.token, "set-service-node-form-factor", { node_id: id, form_factor: "ami" })).status).toBe(404); // an endpoint node
    const [row] = await p.deps.db.select({ registersAt: endpointNodes.registersAt }).from(endpointNodes).where(eq(endpointNodes.epNodeId, id));
    expect(row!.registersAt!.getTime() - Date.now()).toBeGreaterThan(0);
    expect(row!.registersAt!.getTime() - Date.now()).toBeLessThan(61_000);
  });

  it("ignores another form factor's blank fields and says each of its own once", async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const blankHosted = { hosted_region: " ", hosted_vpc_cidr: "", hosted_peer_ip: "" };
    // hw: the hosted fields left blank (a JSON client posting every field of the form) are ignored, as the call says.
    const hw = await post(a.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "hw", shipping_addr: "1 Main St", ...blankHosted });
    expect(hw.status).toBe(200);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body).toMatchObject({ form_factor: "hw", shipping_addr: "1 Main St", hosted_vpc_cidr: "", hosted_peer_ip: "" });
    // hosted_aws: its own blank fields are refused, each once in its words.
    const hosted = await post(a.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "hosted_aws", shipping_addr: "", ...blankHosted });
    expect(hosted.status).toBe(422);
    expect(messages(hosted)).toEqual(["Region is required.", "VPC CIDR is required.", "Peer IP is required.", "Peer prefix is required."]);
  });
});

describe("node file calls: access", () => {
  it("answer 404 for another account's nodes and 403 to readonly users", async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const sid = await newNode(a, "service");
    const b = await p.newAccount();
    expect((await get(b.token, "prepare-epn-ova", { ep_node_id: id })).status).toBe(404);
    expect((await get(b.token, "prepare-sn-ova", { service_node_id: sid })).status).toBe(404);
    expect((await post(b.token, "generate-node-cloud-init-data", { node_id: id })).status).toBe(404);
    expect((await post(b.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "ami" })).status).toBe(404);
    expect((await post(b.token, "set-service-node-form-factor", { node_id: sid, form_factor: "ami" })).status).toBe(404);
    expect((await post(b.token, "run-health-check", { node_id: id })).status).toBe(404);
    const now = new Date().toISOString();
    expect((await get(b.token, "get-node-metrics", { id, start_time: new Date(Date.now() - 3_600_000).toISOString(), end_time: now })).status).toBe(404);
    const vpn = { node_id: id, form_factor: "hosted_aws", hosted_region: "us-east-1", hosted_vpc_cidr: "10.1.0.0/24", hosted_peer_ip: "10.2.0.2", hosted_peer_prefix: 30 };
    expect((await post(b.token, "generate-hsn-vpn-config", vpn)).status).toBe(404);

    const ro = await p.newIamUser(a, "readonly");
    expect((await get(ro.token, "prepare-epn-ova", { ep_node_id: id })).status).toBe(403);
    expect((await get(ro.token, "prepare-sn-ova", { service_node_id: sid })).status).toBe(403);
    expect((await post(ro.token, "generate-node-cloud-init-data", { node_id: id })).status).toBe(403);
    expect((await post(ro.token, "generate-hsn-vpn-config", vpn)).status).toBe(403);
    expect((await post(ro.token, "set-endpoint-node-form-factor", { node_id: id, form_factor: "ami" })).status).toBe(403);
    expect((await post(ro.token, "set-service-node-form-factor", { node_id: sid, form_factor: "ami" })).status).toBe(403);
    // A health check and metrics change nothing: readonly users may read them.
    expect((await post(ro.token, "run-health-check", { node_id: id })).status).toBe(200);
    expect((await get(ro.token, "get-node-metrics", { id, start_time: new Date(Date.now() - 3_600_000).toISOString(), end_time: now })).status).toBe(200);
    expect((await get(a.token, "get-endpoint-node-detail", { ep_node_id: id })).body.form_factor).toBeNull();
    // Files that hold secrets (an OVA's live registration token, a WireGuard private key) are for writers only.
    const ova = await get(a.token, "prepare-epn-ova", { ep_node_id: id });
    const conf = await post(a.token, "generate-hsn-vpn-config", vpn);
    expect((await download(ro.token, ova.body.node_url)).status).toBe(403);
    expect((await download(ro.token, `/api/v1/download-hsn-vpn-config/${conf.body.file_name}`)).status).toBe(403);
    expect((await download(a.token, ova.body.node_url)).status).toBe(200);
  });
});

describe("node file calls: malformed payloads", () => {
  it("answer 4xx to every generated malformed payload", { timeout: 180_000 }, async () => {
    const a = await p.newAccount();
    const id = await newNode(a);
    const sid = await newNode(a, "service");
    const { malformedPayloads } = await import("../test/malformed.ts");
    const hosted = { hosted_region: "us-east-1", hosted_vpc_cidr: "10.1.0.0/24", hosted_peer_ip: "10.2.0.2", hosted_peer_prefix: 30 };
    for (const [call, example] of [
      ["set-endpoint-node-form-factor", { node_id: id, form_factor: "hw", shipping_addr: "1 Main St" }],
      ["set-service-node-form-factor", { node_id: sid, form_factor: "hosted_aws", ...hosted }],
      ["generate-node-cloud-init-data", { node_id: id }],
      ["generate-hsn-vpn-config", { node_id: sid, form_factor: "hosted_aws", ...hosted }],
      ["run-health-check", { node_id: id }],
      ["register-node", { node_id: id, registration_token: "lwreg_x" }],
    ] as const) {
      // A shipping address has lines: its newline variant is a legitimate address.
      for (const m of malformedPayloads(example).filter((x) => !(x.name.includes('"shipping_addr"') && x.name.includes("newline")))) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        expect(r.status, `${call} ${m.name}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${call} ${m.name}`).toBeLessThan(500);
      }
    }
  });
});
