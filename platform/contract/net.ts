/*
 * Address and identifier checks shared by the platform's request schemas and the console's forms
 * (spec 1 §5: ports, IP addresses, CIDRs, FQDNs, ASNs, Azure resource ids). Plain TypeScript.
 */

const ipv4Part = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv4 = new RegExp(`^${ipv4Part}(\\.${ipv4Part}){3}$`);

export function isIpv4(s: string): boolean {
  return ipv4.test(s);
}

/** IPv6 in its usual text forms (at most one '::', 1–4 hex digits a group, an IPv4 tail allowed). */
export function isIpv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(s) || s.length > 45 || s.includes(":::")) return false;
  const doubles = s.split("::").length - 1;
  if (doubles > 1) return false;
  let groups = s.split(":");
  let count = 0;
  const last = groups[groups.length - 1]!;
  if (last.includes(".")) {
    if (!isIpv4(last)) return false;
    groups = groups.slice(0, -1);
    count += 2;
  }
  for (const g of groups) {
    if (g === "") continue;
    if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return false;
    count++;
  }
  if (doubles === 0) return count === 8 && !s.startsWith(":") && !s.endsWith(":");
  return count < 8 && !/^:[^:]/.test(s) && !/[^:]:$/.test(s);
}

export const isIp = (s: string) => isIpv4(s) || isIpv6(s);

/** address/prefix: IPv4 /0–32 or IPv6 /0–128. */
export function isCidr(s: string): boolean {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(s);
  if (!m) return false;
  const prefix = Number(m[2]);
  if (isIpv4(m[1]!)) return prefix <= 32;
  if (isIpv6(m[1]!)) return prefix <= 128;
  return false;
}

/** A host name of dot-separated labels (letters, digits, hyphens; no label starts or ends with '-'), with a dot. */
export function isFqdn(s: string): boolean {
  if (s.length > 253 || !s.includes(".")) return false;
  const name = s.endsWith(".") ? s.slice(0, -1) : s;
  const labels = name.split(".");
  if (labels.some((l) => !/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l))) return false;
  // The last label is a top-level domain: not all digits (that would be an IP address).
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

export const isFqdnOrIp = (s: string) => isFqdn(s) || isIp(s);

export const portRange = { min: 1, max: 65535 } as const;
export const asnRange = { min: 1, max: 4294967295 } as const;

export const isPort = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= portRange.min && n <= portRange.max;
export const isAsn = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= asnRange.min && n <= asnRange.max;

/** /subscriptions/{guid}/resourceGroups/{group}/providers/{Namespace}/{type}/{name}[/{type}/{name}…] */
const azureResourceId =
  /^\/subscriptions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/resourceGroups\/[-\w.()]{1,90}\/providers\/[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+(\/[A-Za-z][A-Za-z0-9]*\/[-\w.]{1,80})+$/i;
export const isAzureResourceId = (s: string) => s.length <= 500 && azureResourceId.test(s);

/** An AWS VPC endpoint service name: com.amazonaws.vpce.{region}.vpce-svc-{id}. */
export const isAwsEndpointServiceName = (s: string) => /^com\.amazonaws\.vpce\.[a-z]{2}(-[a-z]+)+-\d\.vpce-svc-[0-9a-f]{8,17}$/.test(s);

export const netMessages = {
  port: `Port must be a whole number from ${portRange.min} to ${portRange.max}`,
  asn: `ASN must be a whole number from ${asnRange.min} to ${asnRange.max}`,
  ip: (s: string) => `Not a valid IP address: ${s.slice(0, 60)}`,
  cidr: (s: string) => `Not a valid CIDR (address/prefix, e.g. 10.0.0.0/24): ${s.slice(0, 60)}`,
  fqdn: (s: string) => `Not a valid FQDN (e.g. app.example.com): ${s.slice(0, 60)}`,
  fqdnOrIp: (s: string) => `Not a valid FQDN or IP address: ${s.slice(0, 60)}`,
  azureResourceId: "Not a valid Azure resource id (/subscriptions/{subscription id}/resourceGroups/{group}/providers/{provider}/{type}/{name})",
  awsEndpointServiceName: "Endpoint service name must look like com.amazonaws.vpce.{region}.vpce-svc-{id}",
} as const;

/** The items of a comma-separated list: trimmed, without blanks and repeats. */
export const splitList = (s: string): string[] => [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))];

/** The default virtual subnet pool for a real subnet (spec 1 §9: {ip}/16): its address masked to /16. */
export function defaultVirtualPool(realSubnet: string): string {
  const ip = realSubnet.split("/")[0] ?? "";
  if (!isIpv4(ip)) return "";
  const [a, b] = ip.split(".");
  return `${a}.${b}.0.0/16`;
}
