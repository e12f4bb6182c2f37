import { z } from "@hono/zod-openapi";

/*
 * The field builders of every call's request schema, with one wording (pydantic's, as the spec's
 * FastAPI platform answers). Every string is bounded so oversized input is a 422, and text that
 * Postgres cannot store (NUL), control characters and text that is not well-formed UTF-16 are
 * refused. Route files import from here only; the limits are the shared contract's
 * (platform/contract/*.ts) where the console needs them too.
 */

export const limits = { id: 100, name: 200, description: 2000, phone: 50, address: 500, email: 254, emailList: 2000 } as const;

type RawIssue = z.core.$ZodRawIssue;

/** FastAPI-like messages for a missing field or a wrong type; other issues keep their own. */
export const expects =
  (what: string) =>
  (iss: RawIssue): string | undefined =>
    iss.code === "invalid_type" ? (iss.input === undefined ? "Field required" : `Input should be ${what}`) : undefined;

const singleLineJunk = /[\u0000-\u001F\u007F\u2028\u2029]/;
const multiLineJunk = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const emailPattern = z.regexes.email;

/** True when a text has no control characters (newlines and tabs allowed when multiline) and no lone surrogates. */
export const cleanText = (multiline = false) => (value: string) =>
  !(multiline ? multiLineJunk : singleLineJunk).test(value) && !loneSurrogate.test(value);

/** True for one line of well-formed text without control characters. */
export const isSingleLine = cleanText(false);

export const junkMessage = "Contains characters that are not allowed";
export const maxMessage = (max: number) => `String should have at most ${max} characters`;

/** A trimmed text of at most `max` characters (and at least `min`, 0 by default). */
export function text(max: number, opts: { min?: number; multiline?: boolean; minMessage?: string } = {}) {
  const min = opts.min ?? 0;
  let s = z.string({ error: expects("a valid string") }).trim();
  if (min > 0) s = s.min(min, opts.minMessage ?? (min === 1 ? "Field must not be empty" : `String should have at least ${min} characters`));
  return s.max(max, maxMessage(max)).refine(cleanText(opts.multiline), junkMessage);
}

/** Single-line free text, trimmed, at most `max` characters. */
export const line = (max: number) => text(max);

/** Free text that may span lines, trimmed, at most `max` characters. */
export const multiline = (max: number) => text(max, { multiline: true });

/** A required, non-blank name: "{what} is required" when blank. */
export const requiredName = (what: string, max: number = limits.name) => text(max, { min: 1, minMessage: `${what} is required` });

/** An object id (`ent-…`, `con-…`): required, taken as sent (not trimmed). Unknown or foreign ids answer 404, not 422. */
export const idField = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .min(1, `${what} is required`)
    .max(limits.id, maxMessage(limits.id))
    .refine(isSingleLine, junkMessage);

/** An id of an object (`iam-…`) without a name for the message. */
export const objectId = () => text(limits.id, { min: 1 });

/** A login e-mail address (accounts, IAM users): trimmed and lower-cased. */
export function email(message = "Enter a valid email address.") {
  return z
    .string({ error: expects("a valid string") })
    .trim()
    .toLowerCase()
    .min(1, message)
    .max(limits.email, maxMessage(limits.email))
    .regex(emailPattern, message)
    .openapi({ format: "email", example: "ops@example.com" });
}

/** A contact's e-mail address, trimmed, kept as written. */
export const emailField = () =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .min(1, "E-mail is required")
    .max(limits.email, maxMessage(limits.email))
    .regex(emailPattern, "Must be a valid e-mail address")
    .openapi({ format: "email" });

/** The addresses of a comma-separated list, trimmed, without empties and case-insensitive repeats. */
export function splitEmails(list: string): string[] {
  const seen = new Set<string>();
  return list
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0 && !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()));
}

/** Comma-separated e-mail addresses, each checked; empty allowed. */
export const emailListField = () =>
  text(limits.emailList).superRefine((s, ctx) => {
    for (const item of splitEmails(s)) {
      if (item.length > limits.email || !emailPattern.test(item)) {
        ctx.addIssue({ code: "custom", message: `Not a valid e-mail address: ${item.slice(0, 60)}` });
      }
    }
  });

/** A new password: 8 to 128 characters, no control characters. */
export function password() {
  return z
    .string({ error: expects("a valid string") })
    .min(8, "Password must be at least 8 characters.")
    .max(128, "Password must be at most 128 characters.")
    .refine(cleanText(false), "Password contains characters that are not allowed.")
    .openapi({ format: "password" });
}

/** A phone number: digits with the usual punctuation, at most 50 characters. */
export function phone() {
  return text(limits.phone, { min: 1 })
    .regex(/^[0-9A-Za-z+()\-./#*,; ]+$/, "Enter a valid phone number.")
    .regex(/[0-9]/, "Enter a valid phone number.");
}

/** A JSON object body (FastAPI's message when it is not one). Unknown fields are ignored. */
export function body<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, {
    error: (iss) =>
      iss.code === "invalid_type"
        ? iss.input === undefined
          ? "Field required"
          : "Input should be a valid dictionary or object to extract fields from"
        : undefined,
  });
}

export const EmptyBody = body({}).openapi("EmptyRequest");
