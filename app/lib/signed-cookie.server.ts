import { createHmac, timingSafeEqual } from "node:crypto";
import type { Cookie, CookieOptions } from "react-router";
import { readCookie } from "./cookie-header.ts";

/*
 * A signed cookie with React Router's `Cookie` interface and wire format (base64 of the JSON,
 * "." and an unpadded base64 HMAC-SHA256 of that), so cookies set by `createCookie` stay valid,
 * but signed and checked with node:crypto synchronously. React Router's own implementation
 * imports a WebCrypto key and decodes the value character by character on every parse; a page
 * view parses the session cookie several times (the shell, the page, each platform call), and
 * that was about 9 % of a page's server time in `npm run bench`.
 */

type Options = CookieOptions & { secrets?: string[] };

function hmac(value: string, secret: string): string {
  return createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, "");
}

function encodeValue(value: unknown, secrets: string[]): string {
  const encoded = Buffer.from(JSON.stringify(value), "utf8").toString("base64");
  return secrets.length ? `${encoded}.${hmac(encoded, secrets[0]!)}` : encoded;
}

function decodeData(encoded: string): unknown {
  try {
    return JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    return {};
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/*
 * Values whose signature was checked, by raw value (a browser sends the same cookie on every
 * request). Only verified values enter; the check is deterministic, so a hit is as good as a
 * check. Bounded: emptied when full.
 */
const verifiedBySecrets = new WeakMap<string[], Map<string, string>>();
const VERIFIED_MAX = 2000;

/** The verified value of a raw cookie value, or null when no secret signed it. */
export function decodeSignedValue(raw: string, secrets: string[]): unknown {
  if (!secrets.length) return decodeData(raw);
  let verified = verifiedBySecrets.get(secrets);
  if (!verified) verifiedBySecrets.set(secrets, (verified = new Map()));
  const known = verified.get(raw);
  if (known !== undefined) return decodeData(known);
  const dot = raw.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = raw.slice(0, dot);
  const signature = raw.slice(dot + 1);
  for (const secret of secrets) {
    if (sameText(hmac(value, secret), signature)) {
      if (verified.size >= VERIFIED_MAX) verified.clear();
      verified.set(raw, value);
      return decodeData(value);
    }
  }
  return null;
}

function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (o.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(o.maxAge)}`);
  if (o.domain) parts.push(`Domain=${o.domain}`);
  if (o.path) parts.push(`Path=${o.path}`);
  if (o.expires) parts.push(`Expires=${o.expires.toUTCString()}`);
  if (o.httpOnly) parts.push("HttpOnly");
  if (o.secure) parts.push("Secure");
  if (o.partitioned) parts.push("Partitioned");
  if (o.priority) parts.push(`Priority=${o.priority[0]!.toUpperCase()}${o.priority.slice(1)}`);
  if (o.sameSite) {
    const s = o.sameSite === true ? "Strict" : String(o.sameSite);
    parts.push(`SameSite=${s[0]!.toUpperCase()}${s.slice(1).toLowerCase()}`);
  }
  return parts.join("; ");
}

export function createSignedCookie(name: string, cookieOptions: Options = {}): Cookie {
  const { secrets = [], ...options } = { path: "/", sameSite: "lax" as const, ...cookieOptions };
  return {
    get name() {
      return name;
    },
    get isSigned() {
      return secrets.length > 0;
    },
    get expires() {
      return options.maxAge !== undefined ? new Date(Date.now() + options.maxAge * 1000) : options.expires;
    },
    async parse(header) {
      if (!header) return null;
      const raw = readCookie(header, name);
      if (raw === null) return null;
      if (raw === "") return "";
      return decodeSignedValue(raw, secrets);
    },
    async serialize(value, serializeOptions) {
      return serializeCookie(name, value === "" ? "" : encodeValue(value, secrets), { ...options, ...serializeOptions });
    },
  };
}
