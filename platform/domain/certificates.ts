import { X509Certificate, createPrivateKey, type KeyObject } from "node:crypto";
import { eq } from "drizzle-orm";
import { pgErrorCode, type Db } from "../db/client.ts";
import { serviceNodeGroupCertificates, serviceNodeGroups } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { ApiError, conflict, type DetailItem } from "../lib/errors.ts";
import { sealSecret, secretsKey } from "./node-files-crypto.ts";
import { serviceNodeGroupNotFound } from "./nodes-service.ts";
import { ownRow, readOwnRow } from "../lib/own-rows.ts";

/*
 * External certificates of service node groups (enable_external_certificate,
 * disable_external_certificate; spec 2 §4, §5). The set is checked as a TLS server would load it
 * (node:crypto): PEM, an unencrypted private key that matches the certificate, a certificate valid
 * now, and a CA chain that verifies it up to a self-signed root. Only what passed is stored, the key
 * encrypted at rest (node-files-crypto.ts); it is never answered.
 */

export interface CertificateSet {
  certificate: string;
  private_key: string;
  ca_chain: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?\r?\n?-----END \1-----/g;
const issue = (field: keyof CertificateSet, msg: string, type = "value_error"): DetailItem => ({ loc: ["body", field], msg, type });
const refuse = (items: DetailItem[]) => new ApiError(422, items);

function blocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1]!, pem: m[0] }));
}

/** Checks the form of the three items (what the request schema also checks): PEM and the labels each must carry. */
export function pemIssues(set: CertificateSet): DetailItem[] {
  const out: DetailItem[] = [];
  const cert = blocks(set.certificate);
  if (cert.length === 0 || cert.some((b) => b.label !== "CERTIFICATE")) out.push(issue("certificate", "The certificate is not PEM: it must be one '-----BEGIN CERTIFICATE-----' block."));
  else if (cert.length > 1) out.push(issue("certificate", "Give one certificate here, and its CA certificates in the CA chain."));
  const key = blocks(set.private_key);
  if (key.length === 1 && (key[0]!.label === "ENCRYPTED PRIVATE KEY" || /Proc-Type:\s*4,ENCRYPTED/.test(key[0]!.pem))) {
    out.push(issue("private_key", "The private key is encrypted: give it unencrypted (PEM without a passphrase)."));
  } else if (key.length !== 1 || !/^(RSA |EC )?PRIVATE KEY$/.test(key[0]!.label)) {
    out.push(issue("private_key", "The private key is not PEM: it must be one '-----BEGIN PRIVATE KEY-----' block (PKCS #8, or RSA / EC)."));
  }
  const chain = blocks(set.ca_chain);
  if (chain.length === 0 || chain.some((b) => b.label !== "CERTIFICATE")) out.push(issue("ca_chain", "The CA chain is not PEM: it must be one or more '-----BEGIN CERTIFICATE-----' blocks."));
  return out;
}

const names = (dn: string) => dn.split("\n").filter(Boolean).join(", ");

export interface CheckedCertificate {
  cert: X509Certificate;
  key: KeyObject;
  chainPem: string;
}

/** Every check of a certificate set at `now`; throws 422 with each failed check's own message. */
export function checkCertificateSet(set: CertificateSet, now = new Date()): CheckedCertificate {
  const form = pemIssues(set);
  if (form.length) throw refuse(form);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(blocks(set.certificate)[0]!.pem);
  } catch {
    throw refuse([issue("certificate", "The certificate could not be read: it is not a valid X.509 certificate.")]);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: blocks(set.private_key)[0]!.pem, format: "pem" });
  } catch {
    throw refuse([issue("private_key", "The private key could not be read: it is not a valid unencrypted private key.")]);
  }
  const chain: X509Certificate[] = [];
  for (const [i, b] of blocks(set.ca_chain).entries()) {
    try {
      chain.push(new X509Certificate(b.pem));
    } catch {
      throw refuse([issue("ca_chain", `CA certificate ${i + 1} of the chain could not be read: it is not a valid X.509 certificate.`)]);
    }
  }
  const problems: DetailItem[] = [];
  if (!cert.checkPrivateKey(key)) problems.push(issue("private_key", "The private key does not match the certificate."));
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now < from) problems.push(issue("certificate", `The certificate is not valid yet: it is valid from ${from.toISOString()}.`));
  if (now > to) problems.push(issue("certificate", `The certificate has expired: it was valid until ${to.toISOString()}.`));
  problems.push(...serverUseProblems(cert));
  const chainProblem = verifyChain(cert, chain, now);
  if (chainProblem) problems.push(issue("ca_chain", chainProblem));
  if (problems.length) throw refuse(problems);
  return { cert, key, chainPem: blocks(set.ca_chain).map((b) => b.pem).join("\n") + "\n" };
}

const KEY_USAGE_NAMES = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"];
const EKU_NAMES: Record<string, string> = {
  "1.3.6.1.5.5.7.3.1": "serverAuth",
  "1.3.6.1.5.5.7.3.2": "clientAuth",
  "1.3.6.1.5.5.7.3.3": "codeSigning",
  "1.3.6.1.5.5.7.3.4": "emailProtection",
  "1.3.6.1.5.5.7.3.8": "timeStamping",
  "1.3.6.1.5.5.7.3.9": "OCSPSigning",
};

/**
 * What keeps a TLS client from accepting the certificate for a server (RFC 5280 §4.2.1.3, 4.2.1.9,
 * 4.2.1.12; the CA/Browser Forum's baseline): a CA certificate (basic constraints CA:TRUE) in the
 * server's place, a key usage without digitalSignature (or keyEncipherment for an RSA key), an
 * extended key usage without serverAuth.
 */
export function serverUseProblems(cert: X509Certificate): DetailItem[] {
  const out: DetailItem[] = [];
  if (cert.ca) out.push(issue("certificate", "The certificate is a CA certificate (basic constraints CA:TRUE): give the server's own certificate, and the CA's in the CA chain."));
  const usage = keyUsageOf(cert.raw);
  if (usage) {
    const rsa = cert.publicKey.asymmetricKeyType === "rsa" || cert.publicKey.asymmetricKeyType === "rsa-pss";
    const allowed = usage.has("digitalSignature") || (rsa && usage.has("keyEncipherment"));
    if (!allowed) {
      out.push(issue("certificate", `The certificate's key usage (${[...usage].join(", ") || "none"}) does not allow a TLS server: it needs digitalSignature${rsa ? " or keyEncipherment" : ""}.`));
    }
  }
  // Node names the extended key usage's OIDs `keyUsage`; undefined when the extension is absent (any use).
  const eku = cert.keyUsage;
  if (eku && !eku.includes("1.3.6.1.5.5.7.3.1") && !eku.includes("2.5.29.37.0")) {
    out.push(issue("certificate", `The certificate's extended key usage (${eku.map((oid) => EKU_NAMES[oid] ?? oid).join(", ")}) does not allow a TLS server: it needs serverAuth.`));
  }
  return out;
}

/** The key usage extension (2.5.29.15) of a DER certificate as names, or null when it has none. */
export function keyUsageOf(der: Buffer): Set<string> | null {
  // A minimal DER walk: Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { …, [3] Extensions } , … }.
  const read = (at: number): { tag: number; start: number; end: number } => {
    const tag = der[at]!;
    let len = der[at + 1]!;
    let start = at + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
      start += n;
    }
    return { tag, start, end: start + len };
  };
  const children = (node: { start: number; end: number }) => {
    const out: { tag: number; start: number; end: number }[] = [];
    for (let at = node.start; at < node.end; ) {
      const child = read(at);
      out.push(child);
      at = child.end;
    }
    return out;
  };
  const tbs = children(read(0))[0]!;
  const extensions = children(tbs).find((c) => c.tag === 0xa3);
  if (!extensions) return null;
  const keyUsageOid = Buffer.from([0x55, 0x1d, 0x0f]);
  for (const ext of children(children(extensions)[0]!)) {
    const [oid, ...rest] = children(ext);
    if (!oid || !der.subarray(oid.start, oid.end).equals(keyUsageOid)) continue;
    const value = rest.at(-1)!; // OCTET STRING holding a BIT STRING
    const bits = read(value.start);
    const bytes = der.subarray(bits.start + 1, bits.end); // the first byte counts the unused bits
    const names = new Set<string>();
    KEY_USAGE_NAMES.forEach((name, i) => {
      if ((bytes[i >> 3] ?? 0) & (0x80 >> (i & 7))) names.add(name);
    });
    return names;
  }
  return null;
}

/** Walks from the certificate up the chain to a self-signed root; the problem, or null when it verifies. */
function verifyChain(cert: X509Certificate, chain: X509Certificate[], now: Date): string | null {
  let current = cert;
  const used = new Set<X509Certificate>();
  for (let depth = 0; depth <= chain.length; depth++) {
    if (depth > 0 && current.checkIssued(current) && current.verify(current.publicKey)) return null; // a root
    const issuer = chain.find((c) => !used.has(c) && current.checkIssued(c) && current.verify(c.publicKey));
    if (!issuer) {
      return depth === 0
        ? "The CA chain does not verify the certificate: none of its certificates issued and signed it."
        : `The CA chain does not verify the certificate: no certificate of the chain issued '${names(current.subject)}', and the chain does not end at a self-signed root.`;
    }
    if (!issuer.ca) return `The CA chain does not verify the certificate: '${names(issuer.subject)}' is not a CA certificate.`;
    if (now < new Date(issuer.validFrom) || now > new Date(issuer.validTo)) return `The CA chain does not verify the certificate: '${names(issuer.subject)}' is not valid now (valid ${new Date(issuer.validFrom).toISOString()} to ${new Date(issuer.validTo).toISOString()}).`;
    used.add(issuer);
    current = issuer;
  }
  return current.checkIssued(current) && current.verify(current.publicKey) ? null : "The CA chain does not verify the certificate: it does not end at a self-signed root.";
}

/** enable_external_certificate: the group must have none (else 409). */
export async function enableExternalCertificate(deps: Pick<PlatformDeps, "db" | "config">, accountId: string, groupId: string, set: CertificateSet, now = new Date()) {
  const db: Db = deps.db;
  const group = await readOwnRow(db, serviceNodeGroups, serviceNodeGroups.serviceNodeGroupId, accountId, groupId, { has: serviceNodeGroups.externalCertificate }, serviceNodeGroupNotFound);
  if (group.has) throw conflict("The Service Node Group already has an External Certificate: disable it first.");
  const checked = checkCertificateSet(set, now);
  const keyPem = checked.key.export({ format: "pem", type: "pkcs8" }).toString();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(serviceNodeGroupCertificates).values({
        serviceNodeGroupId: groupId,
        accountId,
        certificatePem: checked.cert.toString(),
        caChainPem: checked.chainPem,
        privateKeyEnc: sealSecret(secretsKey(deps.config.dataDir), keyPem),
        subject: names(checked.cert.subject),
        issuer: names(checked.cert.issuer),
        serialNumber: checked.cert.serialNumber,
        validFrom: new Date(checked.cert.validFrom),
        validTo: new Date(checked.cert.validTo),
        fingerprintSha256: checked.cert.fingerprint256,
        importedAt: now,
      });
      await tx.update(serviceNodeGroups).set({ externalCertificate: true }).where(eq(serviceNodeGroups.serviceNodeGroupId, groupId));
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw conflict("The Service Node Group already has an External Certificate: disable it first.");
    throw err;
  }
}

/** disable_external_certificate: the group must have one (else 409). */
export async function disableExternalCertificate(db: Db, accountId: string, groupId: string) {
  await db.transaction(async (tx) => {
    const [group] = await tx
      .select({ has: serviceNodeGroups.externalCertificate })
      .from(serviceNodeGroups)
      .where(ownRow(serviceNodeGroups, serviceNodeGroups.serviceNodeGroupId, accountId, groupId))
      .for("update")
      .limit(1);
    if (!group) throw serviceNodeGroupNotFound();
    if (!group.has) throw conflict("The Service Node Group has no External Certificate.");
    await tx.delete(serviceNodeGroupCertificates).where(eq(serviceNodeGroupCertificates.serviceNodeGroupId, groupId));
    await tx.update(serviceNodeGroups).set({ externalCertificate: false }).where(eq(serviceNodeGroups.serviceNodeGroupId, groupId));
  });
}
