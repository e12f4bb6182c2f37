import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { webhookMessages } from "../contract/messages.ts";

/*
 * Where a webhook may go, and where the SAML metadata may be read from (no SSRF): https only (http only to the hosts an operator allows,
 * WEBHOOK_ALLOW_HOSTS, for local testing), no user:password, and never to a loopback, private,
 * link-local or otherwise reserved address. Checked when the address is saved (the name resolved
 * here, each address judged by ipaddr.js's ranges: only "unicast" passes) and again at every
 * connection by request-filtering-agent, which judges the address the socket actually connects
 * to after DNS resolution (a name that later resolves to 127.0.0.1 or 10.x is refused then).
 * A name that does not resolve when saved (no public DNS where the platform runs, or a host not
 * yet published) is accepted: the connection's own check judges it when it is used.
 */

export interface AddressMessages {
  invalid: string;
  scheme: string;
  credentials: string;
  reserved: (ip: string) => string;
}

export const addressMessages: AddressMessages = {
  invalid: "Enter a valid URL, e.g. https://hooks.example.com/linkwise.",
  scheme: webhookMessages.scheme,
  credentials: "The webhook address must not contain a user name or password.",
  reserved: (ip: string) =>
    `The webhook address resolves to ${ip}, a loopback, private, link-local or reserved address: webhooks can only go to public addresses.`,
};

/** The same rules for the SAML metadata URL (update-account-idp), in its own words. */
export const metadataAddressMessages: AddressMessages = {
  invalid: "Enter an https URL, or nothing to remove it.",
  scheme: "The SAML metadata URL must start with https://.",
  credentials: "The SAML metadata URL must not contain a user name or password.",
  reserved: (ip: string) =>
    `The SAML metadata URL resolves to ${ip}, a loopback, private, link-local or reserved address: the metadata can only be read from public addresses.`,
};

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
export async function addressProblem(raw: string, allowHosts: readonly string[], resolve = lookup, messages: AddressMessages = addressMessages): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return messages.invalid;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return messages.scheme;
  if (url.username || url.password) return messages.credentials;
  if (!url.hostname) return messages.invalid;
  const allowed = isAllowedHost(url, allowHosts);
  if (url.protocol === "http:" && !allowed) return messages.scheme;
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
      // Not resolvable now: the connection-time check (request-filtering-agent) judges it when used.
      return null;
    }
  }
  const bad = addresses.find((ip) => !isPublicAddress(ip));
  return bad ? messages.reserved(bad) : null;
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
