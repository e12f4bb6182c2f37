import { expect, type Download, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import tar from "tar-stream";
import { parse as parseYaml } from "yaml";
import type { Account, Api } from "./fixtures.ts";

/*
 * Helpers of the node specs (nodes-*.spec.ts, issue 28): the row menu's dialogs, the downloaded
 * files checked as a hypervisor, cloud-init and WireGuard would read them, and certificate sets
 * made with openssl (good, and each kind of bad).
 */

/** Opens a row's menu and follows one of its items to its dialog. */
export async function rowAction(page: Page, name: string, item: string, dialogName = item): Promise<Locator> {
  const summary = page.locator(`summary[aria-label="Actions for ${name}"]`);
  const link = page.locator("details[open]").getByRole("link", { name: item, exact: true });
  const dialog = page.getByRole("dialog", { name: dialogName });
  // Right after a dialog closes (JS) the table's rows may be written again while the menu opens:
  // the menu then closes under the click, and the item's click goes nowhere (seen under load in a
  // full run). Open the menu and press the item until the dialog shows.
  await expect(async () => {
    if (await dialog.isVisible()) return;
    if (!(await link.isVisible())) await summary.click();
    await link.click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  return dialog;
}

export const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

export async function createGroup(api: Api, account: Account, kind: "endpoint" | "service", name: string): Promise<string> {
  const res =
    kind === "endpoint"
      ? await api(account, "POST", "create-endpoint-node-group", { ep_node_group_name: name })
      : await api(account, "POST", "create-service-node-group", { service_node_group_name: name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (kind === "endpoint" ? res.body.ep_node_group_id : res.body.service_node_group_id) as string;
}

export async function createNode(api: Api, account: Account, kind: "endpoint" | "service", name: string, groupId: string): Promise<string> {
  const res =
    kind === "endpoint"
      ? await api(account, "POST", "create-endpoint-node", { ep_node_name: name, ep_node_group_id: groupId, new_ep_node_group: false })
      : await api(account, "POST", "create-service-node", { service_node_name: name, service_node_group_id: groupId, new_service_node_group: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (kind === "endpoint" ? res.body.ep_node_id : res.body.service_node_id) as string;
}

export async function downloaded(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFileSync(file);
}

/** The OVA: a USTAR tar, the OVF descriptor first, then the manifest with every other member's SHA-256, then the disk. */
export async function checkOva(page: Page, ova: Buffer, nodeId: string) {
  expect(ova.subarray(257, 262).toString("latin1")).toBe("ustar");
  const members: { name: string; data: Buffer }[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => void chunks.push(c as Buffer));
      stream.on("end", () => {
        members.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
      stream.resume();
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  Readable.from(ova).pipe(extract);
  await done;
  expect(members.length).toBeGreaterThanOrEqual(3);
  expect(members[0]!.name).toMatch(/\.ovf$/);
  expect(members[1]!.name).toMatch(/\.mf$/);
  const ovf = members[0]!.data.toString("utf8");
  expect(ovf).toContain(nodeId);
  // The descriptor parses as XML (the browser's parser: no <parsererror>) and is an OVF Envelope.
  const parsed = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    return { error: doc.getElementsByTagName("parsererror").length, root: doc.documentElement.localName, props: doc.getElementsByTagNameNS("*", "Property").length };
  }, ovf);
  expect(parsed).toMatchObject({ error: 0, root: "Envelope" });
  expect(parsed.props).toBeGreaterThan(0);
  const manifest = members[1]!.data.toString("utf8").trim().split(/\r?\n/);
  const others = members.filter((_, i) => i !== 1);
  expect(manifest).toHaveLength(others.length);
  for (const m of others) {
    expect(manifest).toContain(`SHA256(${m.name})= ${createHash("sha256").update(m.data).digest("hex")}`);
  }
}

/** The cloud-init user data: '#cloud-config', YAML, write_files with a 0600 file holding the node id, runcmd. */
export function checkCloudInit(text: string, nodeId: string) {
  expect(text.split("\n")[0]).toBe("#cloud-config");
  const doc = parseYaml(text) as { write_files?: { path: string; permissions?: string; content: string }[]; runcmd?: unknown[] };
  expect(Array.isArray(doc.write_files)).toBe(true);
  const file = doc.write_files!.find((f) => f.content.includes(nodeId));
  expect(file, "a written file holds the node id").toBeTruthy();
  expect(String(file!.permissions)).toMatch(/^0?600$/);
  expect(Array.isArray(doc.runcmd) && doc.runcmd.length > 0).toBe(true);
}

const X25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");

/** The WireGuard file: [Interface] PrivateKey, Address; [Peer] PublicKey, AllowedIPs = the VPC CIDR, Endpoint, PersistentKeepalive. */
export function checkWireGuard(text: string, vpcCidr: string) {
  const section = (name: string) => {
    const m = text.match(new RegExp(`\\[${name}\\]([\\s\\S]*?)(?=\\n\\[|$)`));
    expect(m, `[${name}]`).toBeTruthy();
    return Object.fromEntries(
      m![1]!
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"))
        .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()]),
    );
  };
  const iface = section("Interface");
  const peer = section("Peer");
  for (const key of [iface.PrivateKey, peer.PublicKey]) expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  expect(iface.Address).toBeTruthy();
  expect(peer.AllowedIPs).toContain(vpcCidr);
  expect(peer.Endpoint).toMatch(/:\d+$/);
  expect(peer.PersistentKeepalive).toMatch(/^\d+$/);
  // The private key is an X25519 key: node:crypto derives its public key.
  const raw = Buffer.from(iface.PrivateKey, "base64");
  expect(raw).toHaveLength(32);
  const key = createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, raw]), format: "der", type: "pkcs8" });
  const pub = createPublicKey(key).export({ format: "jwk" }).x!;
  expect(Buffer.from(pub, "base64url")).toHaveLength(32);
  expect(Buffer.from(pub, "base64url").toString("base64")).not.toBe(peer.PublicKey);
}

/* Certificates ----------------------------------------------------------------------------------- */

export interface CertSet {
  certificate: string;
  private_key: string;
  ca_chain: string;
}

/** A CA and certificates signed by it, made by openssl in a temporary directory: the good set and each kind of bad one. */
export function makeCertificates() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nodes-pki-"));
  const f = (name: string) => path.join(dir, name);
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const read = (name: string) => fs.readFileSync(f(name), "utf8");
  const ec = (out: string) => run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", f(out));
  const root = (name: string, cn: string) => {
    ec(`${name}.key`);
    run("req", "-x509", "-new", "-key", f(`${name}.key`), "-out", f(`${name}.pem`), "-days", "3650", "-subj", `/CN=${cn}`, "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  };
  root("ca", "Linkwise Test Root CA");
  root("other", "Another Root CA");
  ec("leaf.key");
  ec("stranger.key");
  run("req", "-new", "-key", f("leaf.key"), "-subj", "/CN=nodes.example.com/O=Example Corp", "-out", f("leaf.csr"));
  const sign = (out: string, days: string) => run("x509", "-req", "-in", f("leaf.csr"), "-CA", f("ca.pem"), "-CAkey", f("ca.key"), "-CAcreateserial", "-days", days, "-out", f(out));
  sign("good.pem", "365");
  sign("soon.pem", "10");
  // Past and future validity: `openssl ca` takes explicit dates.
  fs.writeFileSync(f("index.txt"), "");
  fs.writeFileSync(f("serial"), "1000\n");
  fs.writeFileSync(
    f("ca.cnf"),
    `[ca]\ndefault_ca=d\n[d]\ndatabase=${f("index.txt")}\nnew_certs_dir=${dir}\nserial=${f("serial")}\ndefault_md=sha256\npolicy=p\nunique_subject=no\n[p]\ncommonName=supplied\norganizationName=optional\n`,
  );
  const dated = (out: string, start: string, end: string) =>
    run("ca", "-batch", "-config", f("ca.cnf"), "-cert", f("ca.pem"), "-keyfile", f("ca.key"), "-in", f("leaf.csr"), "-startdate", start, "-enddate", end, "-notext", "-out", f(out));
  dated("expired.pem", "20200101000000Z", "20210101000000Z");
  dated("future.pem", "20400101000000Z", "20410101000000Z");
  run("pkey", "-in", f("leaf.key"), "-aes256", "-passout", "pass:secret", "-out", f("encrypted.key"));
  const good: CertSet = { certificate: read("good.pem"), private_key: read("leaf.key"), ca_chain: read("ca.pem") };
  const sets = {
    good,
    soon: { ...good, certificate: read("soon.pem") },
    mismatch: { ...good, private_key: read("stranger.key") },
    encrypted: { ...good, private_key: read("encrypted.key") },
    expired: { ...good, certificate: read("expired.pem") },
    future: { ...good, certificate: read("future.pem") },
    chain: { ...good, ca_chain: read("other.pem") },
    notPem: { ...good, certificate: "this is not a certificate" },
    big: { ...good, ca_chain: `${good.ca_chain}\n${"#".repeat(70 * 1024)}\n` },
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return sets;
}
