import { X509Certificate } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appServices, endpoints, hostings } from "../db/schema.ts";
import { makeCertificateSet } from "../domain/certificates-make.ts";
import { serverUseProblems } from "../domain/certificates.ts";
import { newId } from "../lib/ids.ts";
import { execRows } from "../lib/list.ts";
import { malformedPayloads } from "../test/malformed.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";

/* Service nodes, service node groups and their external certificates (spec 2 §3–§5, §7; issue #28). */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (token: string, call: string, body: unknown) => p.call("POST", call, { token, body });
const get = (token: string, call: string, query: Record<string, string> = {}) => p.call("GET", call, { token, query });
const messages = (r: { body: { detail: unknown } }) => (Array.isArray(r.body.detail) ? r.body.detail.map((d: { msg: string }) => d.msg) : [r.body.detail]);

async function newServiceNode(a: TestAccount, name = "SN 1", group = `Group ${newId("g")}`) {
  const r = await post(a.token, "create-service-node", { service_node_name: name, new_service_node_group: true, service_node_group_name: group, description: "Rack 4" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { service_node_id: string; service_node_group_id: string };
}

describe("service nodes", () => {
  it("create, list, detail with app services and connected endpoints, remove", async () => {
    const a = await p.newAccount();
    const n = await newServiceNode(a, "Frankfurt 1", "DC");
    expect(n).toMatchObject({ service_node_id: expect.stringMatching(/^sn-/) });
    const other = await post(a.token, "create-service-node", { service_node_name: "Frankfurt 2", new_service_node_group: false, service_node_group_id: n.service_node_group_id });
    expect(other.body).toMatchObject({ detail: "Service Node created.", service_node_group_id: n.service_node_group_id });
    // An app service of the group, one hosted through it, and an endpoint.
    const app1 = newId("as");
    const app2 = newId("as");
    await p.deps.db.insert(appServices).values([
      { appServiceId: app1, accountId: a.accountId, appServiceName: "ERP", deployment: "onprem", fqdn: "erp.example.com", proto: "tcp", port: 443, serviceNodeGroupId: n.service_node_group_id },
      { appServiceId: app2, accountId: a.accountId, appServiceName: "CRM", deployment: "aws", fqdn: "crm.example.com", proto: "tcp", port: 8443 },
    ]);
    await p.deps.db.insert(hostings).values({ hostingId: newId("h"), appServiceId: app2, accountId: a.accountId, priorityId: 2, hostingType: "onprem", serviceProvider: "onprem", serviceNodeGroupId: n.service_node_group_id });
    const epId = newId("ep");
    await p.deps.db.insert(endpoints).values({ epId, accountId: a.accountId, epName: "Paris", deployment: "agent", appServiceId: app1, ipAddr: "10.9.9.9" });

    const list = (await get(a.token, "list_service_node")).body;
    expect(list.map((x: { service_node_name: string }) => x.service_node_name)).toEqual(["Frankfurt 2", "Frankfurt 1"]);
    expect(list[1]).toMatchObject({ service_node_group_name: "DC", description: "Rack 4", op_state: "unregistered", registered_at: null, form_factor: null, app_service_count: 2, endpoint_count: 1 });
    expect(list[1].private_ip).toMatch(/^10\./);
    const page = (await get(a.token, "list_service_node", { q: n.service_node_id, sort: "service_node_name" })).body;
    expect(page).toMatchObject({ total: 1, items: [{ service_node_id: n.service_node_id }] });
    const detail = (await get(a.token, "get_service_node_detail", { service_node_id: n.service_node_id })).body;
    // Oldest first, ties by id (both made by one statement here).
    expect(detail.app_services.map((x: { app_service_name: string }) => x.app_service_name).sort()).toEqual(["CRM", "ERP"]);
    expect(detail.app_services.find((x: { app_service_id: string }) => x.app_service_id === app1)).toMatchObject({ app_service_id: app1, deployment: "onprem", fqdn: "erp.example.com", proto: "tcp", port: 443 });
    expect(detail.endpoints).toEqual([expect.objectContaining({ ep_id: epId, ep_name: "Paris", app_service_id: app1, ip_addr: "10.9.9.9", fqdn: "erp.example.com" })]);

    expect((await post(a.token, "remove_service_node", { service_node_id: n.service_node_id })).body).toEqual({ detail: "Service Node removed." });
    expect((await get(a.token, "get_service_node_detail", { service_node_id: n.service_node_id })).status).toBe(404);
    expect((await get(a.token, "get-account-summary")).body).toMatchObject({ service_nodes: 1, endpoint_nodes: 0 });
  });

  it("refuses what spec 2 §5 refuses, 404 across accounts, 403 to readonly users, 4xx to malformed payloads", { timeout: 180_000 }, async () => {
    const a = await p.newAccount();
    const n = await newServiceNode(a);
    expect(messages(await post(a.token, "create-service-node", { service_node_name: "", new_service_node_group: true, service_node_group_name: "X" }))).toEqual(["Node name is required."]);
    expect(messages(await post(a.token, "create-service-node", { service_node_name: "N", new_service_node_group: false }))).toEqual(["Node group is required."]);
    expect(messages(await post(a.token, "create-service-node", { service_node_name: "N", new_service_node_group: false, service_node_group_id: "" }))).toEqual(["Node group is required."]);
    expect(messages(await post(a.token, "create-service-node", { service_node_name: "N", new_service_node_group: true }))).toEqual(["Node group name is required."]);
    const b = await p.newAccount();
    expect((await get(b.token, "get_service_node_detail", { service_node_id: n.service_node_id })).status).toBe(404);
    expect((await get(b.token, "get-service-node-group-details", { service_node_group_id: n.service_node_group_id })).status).toBe(404);
    expect((await post(b.token, "remove_service_node", { service_node_id: n.service_node_id })).status).toBe(404);
    expect((await post(b.token, "disable_external_certificate", { service_node_group_id: n.service_node_group_id })).status).toBe(404);
    expect((await post(b.token, "create-service-node", { service_node_name: "N", new_service_node_group: false, service_node_group_id: n.service_node_group_id })).status).toBe(404);
    expect((await get(b.token, "list_service_node_group")).body).toEqual([]);
    const ro = await p.newIamUser(a, "readonly");
    expect((await post(ro.token, "create-service-node", { service_node_name: "N", new_service_node_group: true, service_node_group_name: "Y" })).status).toBe(403);
    expect((await post(ro.token, "remove_service_node", { service_node_id: n.service_node_id })).status).toBe(403);
    expect((await post(ro.token, "disable_external_certificate", { service_node_group_id: n.service_node_group_id })).status).toBe(403);
    const set = makeCertificateSet("ro.example.com", 90);
    expect((await post(ro.token, "enable_external_certificate", { service_node_group_id: n.service_node_group_id, ...pick(set) })).status).toBe(403);
    expect((await get(ro.token, "list_service_node")).body).toHaveLength(1);
    const good = makeCertificateSet("m.example.com", 90);
    for (const [call, example] of [
      ["create-service-node", { service_node_name: "N", new_service_node_group: true, service_node_group_name: "Z" }],
      ["remove_service_node", { service_node_id: n.service_node_id }],
      ["enable_external_certificate", { service_node_group_id: n.service_node_group_id, ...pick(good) }],
      ["disable_external_certificate", { service_node_group_id: n.service_node_group_id }],
    ] as const) {
      for (const m of malformedPayloads(example)) {
        const r = await p.call("POST", call, { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
        expect(r.status, `${call} ${m.name}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${call} ${m.name}`).toBeLessThan(500);
      }
    }
  });
});

const pick = (s: { certificate: string; private_key: string; ca_chain: string }) => ({ certificate: s.certificate, private_key: s.private_key, ca_chain: s.ca_chain });

/** Bad sets made with openssl in a temporary directory. */
function opensslSets() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-certs-"));
  const f = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const key = (name: string) => ssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", f(name));
  key("root.key");
  ssl("req", "-x509", "-new", "-key", f("root.key"), "-subj", "/CN=Test Root", "-days", "365", "-out", f("root.pem"), "-addext", "basicConstraints=critical,CA:TRUE");
  key("other-root.key");
  ssl("req", "-x509", "-new", "-key", f("other-root.key"), "-subj", "/CN=Other Root", "-days", "365", "-out", f("other-root.pem"), "-addext", "basicConstraints=critical,CA:TRUE");
  key("leaf.key");
  ssl("req", "-new", "-key", f("leaf.key"), "-subj", "/CN=nodes.example.test", "-out", f("leaf.csr"));
  ssl("x509", "-req", "-in", f("leaf.csr"), "-CA", f("root.pem"), "-CAkey", f("root.key"), "-CAcreateserial", "-days", "90", "-out", f("leaf.pem"));
  // Certificates no TLS client accepts for a server (issue 63 item 29).
  const signed = (name: string, extensions: string) => {
    fs.writeFileSync(f(`${name}.ext`), extensions);
    ssl("x509", "-req", "-in", f("leaf.csr"), "-CA", f("root.pem"), "-CAkey", f("root.key"), "-CAcreateserial", "-days", "90", "-extfile", f(`${name}.ext`), "-out", f(`${name}.pem`));
  };
  signed("crl-only", "keyUsage=critical,cRLSign\nextendedKeyUsage=clientAuth\n");
  signed("ca-leaf", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,digitalSignature,keyCertSign\n");
  ssl("req", "-x509", "-new", "-key", f("leaf.key"), "-subj", "/CN=nodes.example.test", "-days", "90", "-out", f("self-ca.pem"), "-addext", "basicConstraints=critical,CA:TRUE");
  signed("server-ok", "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\n");
  key("stranger.key");
  ssl("pkey", "-in", f("leaf.key"), "-aes256", "-passout", "pass:secret", "-out", f("leaf-enc.key"));
  // Dated certificates: openssl ca takes explicit start and end dates.
  fs.writeFileSync(f("index.txt"), "");
  fs.writeFileSync(f("serial"), "1000\n");
  fs.writeFileSync(
    f("ca.cnf"),
    `[ca]\ndefault_ca=d\n[d]\ndir=${dir}\ndatabase=${f("index.txt")}\nnew_certs_dir=${dir}\nserial=${f("serial")}\ndefault_md=sha256\npolicy=p\nunique_subject=no\n[p]\ncommonName=supplied\n`,
  );
  const dated = (out: string, start: string, end: string) =>
    ssl("ca", "-batch", "-config", f("ca.cnf"), "-cert", f("root.pem"), "-keyfile", f("root.key"), "-in", f("leaf.csr"), "-out", f(out), "-startdate", start, "-enddate", end, "-notext");
  dated("expired.pem", "20200101000000Z", "20210101000000Z");
  dated("future.pem", "20990101000000Z", "20991231000000Z");
  const r = (name: string) => fs.readFileSync(f(name), "utf8");
  const good = { certificate: r("leaf.pem"), private_key: r("leaf.key"), ca_chain: r("root.pem") };
  const sets = {
    good,
    mismatch: { ...good, private_key: r("stranger.key") },
    encrypted: { ...good, private_key: r("leaf-enc.key") },
    expired: { ...good, certificate: r("expired.pem") },
    notYetValid: { ...good, certificate: r("future.pem") },
    wrongChain: { ...good, ca_chain: r("other-root.pem") },
    notPem: { ...good, certificate: "hello, I am a certificate" },
    crlOnlyClientAuth: { ...good, certificate: r("crl-only.pem") },
    caAsServer: { ...good, certificate: r("ca-leaf.pem") },
    selfSignedCa: { ...good, certificate: r("self-ca.pem"), ca_chain: r("self-ca.pem") },
    serverOk: { ...good, certificate: r("server-ok.pem") },
    tooLarge: { ...good, ca_chain: r("root.pem") + "\n".repeat(70 * 1024) },
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return sets;
}

describe("external certificates", () => {
  it("refuses each bad set with its own message, imports a good one, shows it, and disables it", async () => {
    const a = await p.newAccount();
    const n = await newServiceNode(a);
    const g = n.service_node_group_id;
    const sets = opensslSets();
    const enable = (s: object) => post(a.token, "enable_external_certificate", { service_node_group_id: g, ...s });
    const expectRefused = async (s: object, message: string | RegExp) => {
      const r = await enable(s);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(messages(r)).toEqual([expect.stringMatching(message)]);
    };
    await expectRefused(sets.mismatch, /^The private key does not match the certificate\.$/);
    await expectRefused(sets.encrypted, /^The private key is encrypted: give it unencrypted/);
    await expectRefused(sets.expired, /^The certificate has expired: it was valid until 2021-01-01T00:00:00\.000Z\.$/);
    await expectRefused(sets.notYetValid, /^The certificate is not valid yet: it is valid from 2099-01-01T00:00:00\.000Z\.$/);
    await expectRefused(sets.wrongChain, /^The CA chain does not verify the certificate: none of its certificates issued and signed it\.$/);
    await expectRefused(sets.notPem, /^The certificate is not PEM/);
    // Each use a TLS client refuses for a server is named (key usage, extended key usage, basic constraints).
    const refusedWith = async (set: object, expected: string[]) => {
      const r = await enable(set);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(messages(r)).toEqual(expected);
    };
    await refusedWith(sets.crlOnlyClientAuth, [
      "The certificate's key usage (cRLSign) does not allow a TLS server: it needs digitalSignature.",
      "The certificate's extended key usage (clientAuth) does not allow a TLS server: it needs serverAuth.",
    ]);
    await refusedWith(sets.caAsServer, ["The certificate is a CA certificate (basic constraints CA:TRUE): give the server's own certificate, and the CA's in the CA chain."]);
    await refusedWith(sets.selfSignedCa, ["The certificate is a CA certificate (basic constraints CA:TRUE): give the server's own certificate, and the CA's in the CA chain."]);
    // Sent with its content-length, as a client does (the harness's call leaves it out, and the
    // API log then reads a body over 64 KB without a length: see coord.md Requests).
    const big = JSON.stringify({ service_node_group_id: g, ...sets.tooLarge });
    const res = await p.app.fetch(
      new Request("http://platform.test/api/v1/enable_external_certificate", {
        method: "POST",
        headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(big)) },
        body: big,
      }),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { msg: string }[] }).detail.map((d) => d.msg)).toEqual(["The CA chain is larger than 64 KB."]);
    expect(messages(await enable({ certificate: "", private_key: " ", ca_chain: sets.good.ca_chain }))).toEqual(["The certificate is required.", "The private key is required."]);
    expect(messages(await post(a.token, "disable_external_certificate", { service_node_group_id: g }))).toEqual(["The Service Node Group has no External Certificate."]);

    // A certificate without the extensions (any use) passes as well as one made for a server.
    expect(serverUseProblems(new X509Certificate(sets.good.certificate))).toEqual([]);
    const ok = await enable(sets.serverOk);
    expect(ok.body).toEqual({ detail: "External Certificate imported." });
    expect((await enable(sets.good)).status).toBe(409);
    const detail = (await get(a.token, "get-service-node-group-details", { service_node_group_id: g })).body;
    expect(detail).toMatchObject({ external_certificate: true, node_count: 1, service_nodes: [{ service_node_id: n.service_node_id }] });
    expect(detail.certificate).toMatchObject({ subject: "CN=nodes.example.test", issuer: "CN=Test Root", expires_within_30_days: false });
    expect(detail.certificate.serial_number).toMatch(/^[0-9A-F]+$/);
    expect(JSON.stringify(detail)).not.toContain("PRIVATE KEY");
    // The key is stored encrypted.
    const rows = await execRows<{ k: string }>(p.deps.db, sql`select private_key_enc as k from service_node_group_certificates where service_node_group_id = ${g}`);
    expect(rows[0]!.k).toMatch(/^v1\./);
    expect(rows[0]!.k).not.toContain("PRIVATE KEY");
    const list = (await get(a.token, "list_service_node_group")).body;
    expect(list).toEqual([expect.objectContaining({ service_node_group_id: g, external_certificate: true, certificate: expect.objectContaining({ subject: "CN=nodes.example.test" }) })]);
    expect((await get(a.token, "list-service-node-group", { q: "group", sort: "-external_certificate" })).body).toMatchObject({ total: 1 });

    expect((await post(a.token, "disable_external_certificate", { service_node_group_id: g })).body).toEqual({ detail: "External Root CA disabled" });
    expect((await get(a.token, "get-service-node-group-details", { service_node_group_id: g })).body).toMatchObject({ external_certificate: false, certificate: null });
  });

  it("warns within 30 days of the expiry (a set made with node:crypto)", async () => {
    const a = await p.newAccount();
    const { service_node_group_id: g } = await newServiceNode(a);
    const set = makeCertificateSet("soon.example.com", 12);
    expect((await post(a.token, "enable_external_certificate", { service_node_group_id: g, ...pick(set) })).status).toBe(200);
    const cert = (await get(a.token, "get-service-node-group-details", { service_node_group_id: g })).body.certificate;
    expect(cert).toMatchObject({ subject: "O=Linkwise Demo, CN=soon.example.com", issuer: "O=Linkwise Demo, CN=Linkwise Demo Issuing CA", expires_within_30_days: true });
  });
});
