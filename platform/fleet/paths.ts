import { isIPv6 } from "node:net";
import { distanceKm, POPS } from "./geo.ts";
import { hashString, M, mix32, u01 } from "./hash.ts";
import type { Prepared } from "./model.ts";

/*
 * The network path from a device to an address, as traceroute sees it: the provider's access
 * router, its aggregation and core routers at the site's PoP, the core at the PoP nearest the
 * destination, sometimes a silent hop, then the destination. The provider's routers are named
 * under example.net and numbered from 198.18.0.0/15 (IPv4) or 2001:db8::/32 (IPv6, the
 * documentation prefix, for a destination given as an IPv6 address), so no real host is ever named.
 */

export interface Hop {
  hop: number;
  /** Reverse name, or null (shown as Unknown Host). */
  hostname: string | null;
  /** Address, or null for a hop that did not answer (shown as No IP). */
  ip: string | null;
  /** Round-trip time to this hop, ms (for ping and traceroute output). */
  rtt: number;
}

// Anycast resolvers answer from next to every PoP.
const ANYCAST = new Set(["8.8.8.8", "8.8.4.4", "1.1.1.1", "1.0.0.1", "9.9.9.9", "208.67.222.222"]);

const KNOWN_NAMES: Record<string, string> = {
  "8.8.8.8": "dns.google",
  "8.8.4.4": "dns.google",
  "1.1.1.1": "one.one.one.one",
  "1.0.0.1": "one.one.one.one",
  "9.9.9.9": "dns9.quad9.net",
};

// First octets of public address space, for names the fleet has to "resolve".
const PUBLIC_FIRST = [13, 20, 23, 34, 35, 52, 54, 64, 66, 69, 104, 142, 151, 157, 185, 199, 203, 208, 216];

export function isIPv4(s: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  return !!m && m.slice(1).every((x) => Number(x) <= 255);
}

/** The IPv6 twin of one of the provider's IPv4 router addresses (2001:db8::/32), for paths to IPv6 destinations. */
export function ipv6Of(ipv4: string): string {
  const [a, b, c, d] = ipv4.split(".").map(Number) as [number, number, number, number];
  return `2001:db8:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::1`;
}

export { isIPv6 };

/** The address of `target`: itself when it is an IPv4 or IPv6 address, else a stable public IPv4 address for the name. */
export function resolveAddress(target: string): string {
  if (isIPv4(target) || isIPv6(target)) return target;
  const h = hashString(target.toLowerCase());
  return `${PUBLIC_FIRST[h % PUBLIC_FIRST.length]}.${(h >>> 8) & 255}.${(h >>> 16) & 255}.${1 + ((h >>> 24) % 254)}`;
}

export function hostOf(net: string, h: number): string {
  return `${net}.${1 + (h % 254)}`;
}

/** The device's WAN address and its default gateway (in its PoP's block). */
export function wanAddresses(p: Prepared): { wan: string; gateway: string } {
  const h = mix32(p.key ^ 0x5157);
  return { wan: hostOf(p.pop.net, 2 + (h % 200)), gateway: `${p.pop.net}.1` };
}

/** The path from the device to `target` as it is (all hops answering). */
export function pathTo(p: Prepared, target: string): Hop[] {
  const address = resolveAddress(target);
  const dh = hashString(address);
  // Where the destination is: anycast next to the site's PoP; otherwise half the time in the
  // site's own region, else behind another PoP.
  const anycast = ANYCAST.has(address);
  const far = anycast || (dh >>> 12) % 2 === 0 ? p.pop : POPS[dh % POPS.length]!;
  const { gateway } = wanAddresses(p);
  const pop = p.pop.code;
  // Destination beyond the far PoP: 1–3 ms for anycast, 2–30 ms otherwise.
  const extra = anycast ? 1 + 2 * (((dh >>> 8) % 1000) / 1000) : 2 + (28 * ((dh >>> 8) % 1000)) / 1000;
  const backbone = (2 * distanceKm(p.pop.lat, p.pop.lon, far.lat, far.lon) * 1.4) / 200;
  const hops: Hop[] = [
    { hop: 1, hostname: `bras1.${pop}.access.example.net`, ip: gateway, rtt: p.baseRtt * 0.6 },
    { hop: 2, hostname: `ae1.agg1.${pop}.backbone.example.net`, ip: hostOf(p.pop.net, 10 + (mix32(p.key) % 20)), rtt: p.baseRtt * 0.8 },
    { hop: 3, hostname: `et-0-0-1.core1.${pop}.backbone.example.net`, ip: hostOf(p.pop.net, 40 + (mix32(p.key + 1) % 10)), rtt: p.baseRtt },
  ];
  if (far.code !== p.pop.code) hops.push({ hop: 4, hostname: `et-1-0-0.core1.${far.code}.backbone.example.net`, ip: hostOf(far.net, 40 + (dh % 10)), rtt: p.baseRtt + backbone });
  // Some transit routers do not answer traceroute probes.
  if ((dh >>> 4) % 3 === 0) hops.push({ hop: hops.length + 1, hostname: null, ip: null, rtt: p.baseRtt + backbone + extra / 2 });
  hops.push({ hop: hops.length + 1, hostname: `xe-0-1-0.edge1.${far.code}.transit.example.net`, ip: hostOf(far.net, 200 + (dh % 50)), rtt: p.baseRtt + backbone + extra * 0.8 });
  // An IPv6 destination is reached over the same routers' IPv6 addresses.
  if (isIPv6(address)) for (const h of hops) h.ip = h.ip && ipv6Of(h.ip);
  hops.push({ hop: hops.length + 1, hostname: KNOWN_NAMES[address] ?? null, ip: address, rtt: p.baseRtt + backbone + extra });
  return hops;
}

/** A hop's RTT for one probe: its base plus a little jitter. */
export function probeRtt(p: Prepared, hop: Hop, probe: number, at: number): number {
  return hop.rtt + 0.8 * u01(p.key, M.ping, Math.floor(at / 1000) * 64 + hop.hop * 4 + probe) + 0.05;
}
