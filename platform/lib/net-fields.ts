import { isIP } from "node:net";
import { z } from "@hono/zod-openapi";
import { expects, isSingleLine, junkMessage, maxMessage } from "./fields.ts";

/*
 * Network field builders for endpoints (spec 1 §5): IP addresses, CIDRs, ASNs and comma-separated
 * lists of them, each item checked with a message that names it.
 */

export const ASN_MAX = 4294967295;
const LIST_MAX = 2000;

/** True for an IPv4 or IPv6 address. */
export const isIpAddress = (s: string) => isIP(s) !== 0;

/** True for `address/prefix` with a prefix within the address family (0–32 or 0–128). */
export function isCidr(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  const family = isIP(addr);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The items of a comma-separated list: trimmed, without blanks and repeats. */
export function splitList(s: string): string[] {
  return [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))];
}

/** One IP address, e.g. a BGP peer. */
export const ipField = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .min(1, `${what} is required`)
    .max(45, maxMessage(45))
    .refine(isSingleLine, junkMessage)
    .refine(isIpAddress, `${what} must be a valid IP address`);

/** An autonomous system number, a JSON number 1–4294967295. */
export const asnField = (what: string) =>
  z
    .number({ error: (iss) => (iss.input === undefined ? "Field required" : `${what} must be a number`) })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be between 1 and ${ASN_MAX}`)
    .max(ASN_MAX, `${what} must be between 1 and ${ASN_MAX}`);

/** A comma-separated list whose items each pass `check`; `required`: at least one item. */
export function commaList(what: string, itemName: string, check: (item: string) => boolean, required: boolean) {
  return z
    .string({ error: expects("a valid string") })
    .trim()
    .max(LIST_MAX, maxMessage(LIST_MAX))
    .refine(isSingleLine, junkMessage)
    .superRefine((s, ctx) => {
      const items = splitList(s);
      if (required && items.length === 0) ctx.addIssue({ code: "custom", message: `${what} is required` });
      for (const item of items) {
        if (!check(item)) ctx.addIssue({ code: "custom", message: `Not a valid ${itemName}: ${item.slice(0, 60)}` });
      }
    })
    .transform((s) => splitList(s));
}
