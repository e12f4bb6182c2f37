import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/*
 * A small X.509 v3 certificate maker (DER by hand, ECDSA P-256 signatures from node:crypto): the
 * demo seed's external certificates, whose expiry is relative to the day they are made, and the
 * tests' good sets. Not a CA product: just enough fields for TLS servers and X509Certificate
 * (subject, issuer, serial, validity, key, basic constraints, a DNS name).
 */

const len = (n: number) => (n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]));
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), len(content.length), content]);
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const enc = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) enc.unshift((v & 0x7f) | 0x80);
    bytes.push(...enc);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/**
 * A DER INTEGER of the unsigned big-endian `b`: minimal (no leading zero byte unless the next has
 * its high bit set, which would make it negative). A random serial starting with 0x00 was written
 * as it was, once in ~500 certificates, and OpenSSL refused the certificate as not valid X.509.
 */
export function integer(b: Buffer): Buffer {
  let start = 0;
  while (start < b.length - 1 && b[start] === 0) start++;
  const bytes = b.subarray(start);
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, "latin1")) : tlv(0x18, Buffer.from(`${iso}Z`, "latin1"));
}

function name(cn: string, org?: string): Buffer {
  const rdns = [set(seq(oid("2.5.4.3"), utf8(cn)))];
  if (org) rdns.unshift(set(seq(oid("2.5.4.10"), utf8(org))));
  return seq(...rdns);
}

const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

export interface MadeCertificate {
  certificatePem: string;
  privateKeyPem: string;
  key: KeyObject;
  subject: { cn: string; org?: string };
}

/** A certificate for `subject`, signed by `issuer` (or self-signed), valid from `notBefore` to `notAfter`. */
export function makeCertificate(opts: {
  cn: string;
  org?: string;
  notBefore: Date;
  notAfter: Date;
  ca?: boolean;
  dnsName?: string;
  issuer?: MadeCertificate;
  /** The serial's bytes (default 16 random bytes). */
  serial?: Buffer;
}): MadeCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const extensions: Buffer[] = [seq(oid("2.5.29.19"), tlv(0x01, Buffer.from([0xff])), tlv(0x04, opts.ca ? seq(tlv(0x01, Buffer.from([0xff]))) : seq()))];
  if (opts.dnsName) extensions.push(seq(oid("2.5.29.17"), tlv(0x04, seq(tlv(0x82, Buffer.from(opts.dnsName, "latin1"))))));
  const issuerName = opts.issuer ? name(opts.issuer.subject.cn, opts.issuer.subject.org) : name(opts.cn, opts.org);
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(opts.serial ?? randomBytes(16)),
    ECDSA_SHA256,
    issuerName,
    seq(time(opts.notBefore), time(opts.notAfter)),
    name(opts.cn, opts.org),
    spki,
    tlv(0xa3, seq(...extensions)),
  );
  const signer = opts.issuer?.key ?? privateKey;
  const signature = sign("sha256", tbs, { key: signer, dsaEncoding: "der" });
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  return {
    certificatePem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    key: privateKey,
    subject: { cn: opts.cn, org: opts.org },
  };
}

const DAY = 86_400_000;

/** A root CA, an intermediate and a server certificate for `dnsName` expiring in `days` days: a full set for enable_external_certificate. */
export function makeCertificateSet(dnsName: string, days: number, now = new Date()) {
  const root = makeCertificate({ cn: "Linkwise Demo Root CA", org: "Linkwise Demo", notBefore: new Date(now.getTime() - 30 * DAY), notAfter: new Date(now.getTime() + 3650 * DAY), ca: true });
  const intermediate = makeCertificate({ cn: "Linkwise Demo Issuing CA", org: "Linkwise Demo", notBefore: new Date(now.getTime() - 30 * DAY), notAfter: new Date(now.getTime() + 1825 * DAY), ca: true, issuer: root });
  const leaf = makeCertificate({ cn: dnsName, org: "Linkwise Demo", notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + days * DAY), dnsName, issuer: intermediate });
  return { certificate: leaf.certificatePem, private_key: leaf.privateKeyPem, ca_chain: intermediate.certificatePem + root.certificatePem, root, intermediate, leaf };
}
