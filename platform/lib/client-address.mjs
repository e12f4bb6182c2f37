// Who is asking: the client's address as both tiers see it (docs/decisions/2026-12-03-abuse-limits.md).
// Plain JavaScript, so that the console's node:http server (server/http.mjs) and the platform
// share one reading of TRUST_PROXY and X-Forwarded-For.
import net from "node:net";

const PRIVATE = [
  ["10.0.0.0", 8, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["fc00::", 7, "ipv6"],
];
const LOOPBACK = [
  ["127.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"],
];
const EXPECTED = "a comma-separated list of addresses, CIDR ranges (10.0.0.0/8), `loopback`, `private` or `none`";

/** An address as the tiers compare it: no brackets, no zone, IPv4-mapped IPv6 as IPv4; null if it is none. */
export function normalizeAddress(value) {
  if (typeof value !== "string") return null;
  let a = value.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a)) a = a.slice(7);
  return net.isIP(a) ? a.toLowerCase() : null;
}

/**
 * TRUST_PROXY: the hops whose X-Forwarded-For is believed. Throws (naming the variable) on a
 * malformed value, so that the process stops at start.
 */
export function parseTrustProxy(value, name = "TRUST_PROXY") {
  const list = new net.BlockList();
  const text = (value ?? "loopback").trim() || "none";
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const lower = part.toLowerCase();
    if (lower === "none") continue;
    if (lower === "loopback" || lower === "private") {
      for (const [net_, prefix, family] of lower === "loopback" ? LOOPBACK : PRIVATE) list.addSubnet(net_, prefix, family);
      continue;
    }
    const [addr, prefix, extra] = part.split("/");
    const address = normalizeAddress(addr);
    const family = address ? (net.isIPv4(address) ? "ipv4" : "ipv6") : null;
    const bits = prefix === undefined ? null : Number(prefix);
    const max = family === "ipv4" ? 32 : 128;
    if (!address || extra !== undefined || (bits !== null && !(Number.isInteger(bits) && bits >= 0 && bits <= max && /^\d+$/.test(prefix)))) {
      throw new Error(`${name} must be ${EXPECTED}: "${part}" is not`);
    }
    if (bits === null) list.addAddress(address, family);
    else list.addSubnet(address, bits, family);
  }
  return (address) => {
    const a = normalizeAddress(address);
    return a !== null && list.check(a, net.isIPv4(a) ? "ipv4" : "ipv6");
  };
}

/**
 * The client's address: the peer's own, unless the peer is a trusted hop; then X-Forwarded-For
 * read from the right, skipping trusted hops (each hop appends the address it saw, so the first
 * untrusted one from the right is the last one a trusted hop vouched for; what lies left of it
 * is the client's to invent). `peer` null means the caller is this process's own console
 * (the embedded platform): trusted like a hop.
 */
export function resolveClientAddress(peer, forwardedFor, trusted) {
  const own = peer === null ? null : normalizeAddress(peer);
  if (peer !== null && (own === null || !trusted(own))) return own;
  const hops = (forwardedFor ?? "").split(",").map((h) => h.trim()).filter(Boolean).reverse();
  let last = own;
  for (const hop of hops) {
    const address = normalizeAddress(hop);
    // Something no trusted hop would write: believe no further.
    if (address === null) return last;
    if (!trusted(address)) return address;
    last = address;
  }
  return last;
}
