import { z } from "@hono/zod-openapi";
import { asnRange, isCidr, isIp, netMessages, splitList } from "../contract/net.ts";
import { fieldMessages } from "../contract/messages.ts";
import { expects, maxMessage, plainText } from "./fields.ts";

/*
 * Network field builders of the request schemas (spec 1 §5): IP addresses, CIDRs, ASNs and
 * comma-separated lists of them. The checks and their messages are the shared contract's
 * (platform/contract/net.ts), which the console's forms use too.
 */

export { isCidr, splitList };
export const ASN_MAX = asnRange.max;
const LIST_MAX = 2000;

/** True for an IPv4 or IPv6 address. */
export const isIpAddress = isIp;

/** One IP address, e.g. a BGP peer. `words`: a dialog's own sentence for a blank one (said alone) or a wrong one. */
export const ipField = (what: string, words: { blank?: string; wrong?: string } = {}) =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .min(1, { message: words.blank ?? fieldMessages.required(what), abort: words.blank !== undefined })
    .max(45, maxMessage(45))
    .apply(plainText)
    .superRefine((s, ctx) => {
      if (!isIp(s)) ctx.addIssue({ code: "custom", message: words.wrong ?? netMessages.ip(s) });
    });

/** An autonomous system number, a JSON number 1–4294967295. */
export const asnField = (what: string) => {
  const message = `${what} must be a whole number from ${asnRange.min} to ${asnRange.max}`;
  return z
    .number({ error: (iss) => (iss.input === undefined ? "Field required" : message) })
    .int(message)
    .min(asnRange.min, message)
    .max(asnRange.max, message);
};

/** A comma-separated list whose items each pass `check` (else `message(item)`); `required`: at least one item. */
export function commaList(what: string, check: (item: string) => boolean, message: (item: string) => string, required: boolean) {
  return z
    .string({ error: expects("a valid string") })
    .trim()
    .max(LIST_MAX, maxMessage(LIST_MAX))
    .apply(plainText)
    .superRefine((s, ctx) => {
      const items = splitList(s);
      if (required && items.length === 0) ctx.addIssue({ code: "custom", message: fieldMessages.required(what) });
      for (const item of items) if (!check(item)) ctx.addIssue({ code: "custom", message: message(item) });
    })
    .transform((s) => splitList(s));
}

/** Comma-separated CIDRs. */
export const cidrList = (what: string, required = false) => commaList(what, isCidr, netMessages.cidr, required);
/** Comma-separated IP addresses. */
export const ipList = (what: string, required = false) => commaList(what, isIp, netMessages.ip, required);
