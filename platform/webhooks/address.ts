import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/*
 * Where a webhook may go (no SSRF): https only (http only to the hosts an operator allows,
 * WEBHOOK_ALLOW_HOSTS, for local testing), no user:password, and never to a loopback, private,
 * link-local or otherwise reserved address. Checked when the address is saved (the name resolved
 * here, each address judged by ipaddr.js's ranges: only "unicast" passes) and again at every
 * connection by request-filtering-agent, which judges the address the socket actually connects
 * to after DNS resolution (a name that later resolves to 127.0.0.1 or 10.x is refused then).
 */

export const addressMessages = {
  invalid: "Enter a valid URL, e.g. https://hooks.example.com/linkwise.",
  scheme: "The webhook address must start with https://.",
  credentials: "The webhook address must not contain a user name or password.",
  unresolved: "The webhook address's host name could not be resolved.",
  reserved: (ip: string) =>
    `The webhook address resolves to ${ip}, a loopback, private, link-local or reserved address: webhooks can only go to public addresses.`,
} as const;

const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, "");

/** True when the operator allows this host (http and private addresses, for local testing). */
export const isAllowedHost = (url: URL, allowHosts: readonly string[]) => allowHosts.includes(bare(url.hostname));

/** A public unicast address (ipaddr.js's classification, the one request-filtering-agent applies). */
export function isPublicAddress(ip: string): boolean {
  try {
    return ipaddr.parse(ip).range() === "unicast";
  } catch {
    return false;
  }
}

/** Why the address may not be saved (the message beside the field), or null when it may. Resolves the name; never connects. */
export async function addressProblem(raw: string, allowHosts: readonly string[], resolve = lookup): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return addressMessages.invalid;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return addressMessages.scheme;
  if (url.username || url.password) return addressMessages.credentials;
  if (!url.hostname) return addressMessages.invalid;
  const allowed = isAllowedHost(url, allowHosts);
  if (url.protocol === "http:" && !allowed) return addressMessages.scheme;
  if (allowed) return null;
  const host = bare(url.hostname);
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      const found = await Promise.race([
        resolve(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("DNS time-out")), 5000).unref()),
      ]);
      addresses = found.map((a) => a.address);
    } catch {
      return addressMessages.unresolved;
    }
    if (addresses.length === 0) return addressMessages.unresolved;
  }
  const bad = addresses.find((ip) => !isPublicAddress(ip));
  return bad ? addressMessages.reserved(bad) : null;
}

// One agent of each kind: the filtering ones for every address, plain ones for the operator's hosts.
const filtering = { http: new RequestFilteringHttpAgent(), https: new RequestFilteringHttpsAgent() };
const plain = { http: new http.Agent(), https: new https.Agent() };

/** The agent a delivery connects through: filtered after DNS resolution, unless the operator allows the host. */
export function agentFor(url: URL, allowHosts: readonly string[]): http.Agent {
  const kind = url.protocol === "https:" ? "https" : "http";
  return isAllowedHost(url, allowHosts) ? plain[kind] : filtering[kind];
}

/** The scheme and credential rules again at send time (the saved address may predate a config change). */
export function sendProblem(url: URL, allowHosts: readonly string[]): string | null {
  if (url.username || url.password) return addressMessages.credentials;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isAllowedHost(url, allowHosts)) return null;
  return addressMessages.scheme;
}
