import { z } from "@hono/zod-openapi";
import { authMessages, fieldMessages } from "../contract/messages.ts";

/*
 * The field builders of every call's request schema and of the console's form schemas
 * (app/routes/<area>/schemas.server.ts), with one wording: the console's ('Must be at most N
 * characters.'), the spec's own text where it gives one (an IAM username: spec 1 §5). Missing
 * fields and wrong JSON types keep FastAPI's words ('Field required'), as the spec's platform
 * answers. Every string is bounded so oversized input is a 422, and text that Postgres cannot
 * store (NUL), control characters and text that is not well-formed UTF-16 are refused. The limits
 * are the shared contract's (platform/contract/*.ts) where the console needs them too.
 */

export const limits = { id: 100, name: 200, description: 2000, phone: 50, address: 500, email: 254, emailList: 2000 } as const;

type RawIssue = z.core.$ZodRawIssue;

/** FastAPI-like messages for a missing field or a wrong type; other issues keep their own. */
export const expects =
  (what: string) =>
  (iss: RawIssue): string | undefined =>
    iss.code === "invalid_type" ? (iss.input === undefined ? "Field required" : `Input should be ${what}`) : undefined;

const singleLineControls = "\\u0000-\\u001F\\u007F\\u2028\\u2029";
const multiLineControls = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F";
const singleLineJunk = new RegExp(`[${singleLineControls}]`);
const multiLineJunk = new RegExp(`[${multiLineControls}]`);
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const emailPattern = z.regexes.email;

/** True when a text has no control characters (newlines and tabs allowed when multiline) and no lone surrogates. */
export const cleanText = (multiline = false) => (value: string) =>
  !(multiline ? multiLineJunk : singleLineJunk).test(value) && !loneSurrogate.test(value);

/**
 * The control characters cleanText refuses, as the JSON Schema `pattern` the OpenAPI document gives
 * such a field (issue 63 item 25); it reads the same with and without the `u` flag (ajv, Prism) and
 * in Python's `re`. Lone surrogates, refused in every field (lib/text-guard.ts), are said once in
 * the document's description rather than in each pattern (fields.test.ts holds pattern and
 * cleanText to the same answers).
 */
export const textPattern = (multiline = false) => `^[^${multiline ? multiLineControls : singleLineControls}]*$`;

/** True for one line of well-formed text without control characters. */
export const isSingleLine = cleanText(false);

export const junkMessage = "Contains characters that are not allowed";

/**
 * A string schema's text check: cleanText, refused with junkMessage, and its `pattern` in the
 * document. `z.string().max(n).apply(plainText)`; `.apply(multilineText)` allows newlines and tabs.
 */
export const plainText = <S extends z.ZodString>(schema: S) => schema.refine(cleanText(false), junkMessage).openapi({ pattern: textPattern(false) });
export const multilineText = <S extends z.ZodString>(schema: S) => schema.refine(cleanText(true), junkMessage).openapi({ pattern: textPattern(true) });
export const maxMessage = (max: number) => `Must be at most ${max} characters.`;
export const minMessage = (min: number) => `Must be at least ${min} characters.`;

/** A trimmed text of at most `max` characters (and at least `min`, 0 by default). */
export function text(max: number, opts: { min?: number; multiline?: boolean; minMessage?: string } = {}) {
  const min = opts.min ?? 0;
  let s = z.string({ error: expects("a valid string") }).trim();
  if (min > 0) s = s.min(min, opts.minMessage ?? (min === 1 ? "Field must not be empty" : minMessage(min)));
  return s.max(max, maxMessage(max)).apply(opts.multiline ? multilineText : plainText);
}

/** A JSON boolean, with FastAPI's words ("Field required", "Input should be a valid boolean"). */
export const bool = () => z.boolean({ error: expects("a valid boolean") });

/** Single-line free text, trimmed, at most `max` characters. */
export const line = (max: number) => text(max);

/** Free text that may span lines, trimmed, at most `max` characters. */
export const multiline = (max: number) => text(max, { multiline: true });

/** A required, non-blank name: "{what} is required." when blank. */
export const requiredName = (what: string, max: number = limits.name) => text(max, { min: 1, minMessage: fieldMessages.required(what) });

/**
 * An object id (`ent-…`, `con-…`): required, taken as sent (not trimmed). Unknown or foreign ids
 * answer 404, not 422. `example`: the document's (a required query parameter has one).
 */
export function idField(what: string, example?: string) {
  const id = z
    .string({ error: expects("a valid string") })
    .min(1, fieldMessages.required(what))
    .max(limits.id, maxMessage(limits.id))
    .apply(plainText);
  return example === undefined ? id : id.openapi({ example });
}

/** An id of an object (`iam-…`) without a name for the message. */
export const objectId = () => text(limits.id, { min: 1 });

export const emailMessages = { required: fieldMessages.emailRequired, invalid: fieldMessages.emailInvalid } as const;

/**
 * An e-mail address, trimmed; a login's (accounts, IAM users) lower-cased, a contact's kept as
 * written (`keepCase`). `message`: the spec's own text for a bad one (and a blank one);
 * `required`: a blank one's, where it differs. A blank address gets its one message (`abort`),
 * not that and the bad one's too.
 */
export function email(message?: string, opts: { keepCase?: boolean; required?: string } = {}) {
  const trimmed = z.string({ error: expects("a valid string") }).trim();
  return (opts.keepCase ? trimmed : trimmed.toLowerCase())
    .min(1, { message: opts.required ?? message ?? emailMessages.required, abort: true })
    .max(limits.email, maxMessage(limits.email))
    .regex(emailPattern, message ?? emailMessages.invalid)
    .openapi({ format: "email", example: "ops@example.com" });
}

/** A contact's (billing's, an Azure user's) e-mail address: kept as written. */
export const emailField = () => email(undefined, { keepCase: true });

/** The addresses of a comma-separated list, trimmed, without empties and case-insensitive repeats. */
export function splitEmails(list: string): string[] {
  const seen = new Set<string>();
  return list
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0 && !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()));
}

/** True for one e-mail address (the pattern of `email`). */
export const isEmail = (s: string) => s.length <= limits.email && emailPattern.test(s);

/** Comma-separated e-mail addresses, each checked; empty allowed. */
export const emailListField = () =>
  text(limits.emailList).superRefine((s, ctx) => {
    for (const item of splitEmails(s)) {
      if (!isEmail(item)) {
        ctx.addIssue({ code: "custom", message: fieldMessages.emailNotValid(item) });
      }
    }
  });

/** A new password: 8 to 128 characters, no control characters. */
export function password() {
  return z
    .string({ error: expects("a valid string") })
    .min(8, authMessages.passwordTooShort)
    .max(128, authMessages.passwordTooLong)
    .refine(cleanText(false), "Password contains characters that are not allowed.")
    .openapi({ format: "password", pattern: textPattern(false) });
}

/** A phone number: digits with the usual punctuation, at most 50 characters. */
export function phone() {
  const allowed = /^[0-9A-Za-z+()\-./#*,; ]+$/;
  // The document's pattern: the characters a number may hold (no control character among them).
  return text(limits.phone, { min: 1 }).regex(allowed, fieldMessages.phoneInvalid).regex(/[0-9]/, fieldMessages.phoneInvalid).openapi({ pattern: allowed.source });
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

/** The earliest and the latest time a time parameter may name (PostgreSQL's timestamptz holds both). */
export const TIME_MIN = Date.UTC(1970, 0, 1);
export const TIME_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// ISO 8601 as the calls take it: a date, or a date and time with seconds and fractions optional,
// UTC ('Z') or an offset of at most ±14:00 (the real ones). What Date() also reads beyond that
// ('Nov 23 2026', '+275760-…', offsets like +23:59, year 0000) is refused: PostgreSQL refuses some
// of it, and the rest is nobody's ISO 8601.
const ISO_TIME = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|z|([+-])(\d\d):?(\d\d))?)?$/;

/** The time a parameter names, or null when it is not ISO 8601 (or epoch milliseconds) within TIME_MIN..TIME_MAX. */
export function parseTimeParam(s: string): Date | null {
  let d: Date;
  if (/^\d{1,15}$/.test(s)) d = new Date(Number(s));
  else {
    const m = ISO_TIME.exec(s);
    if (!m) return null;
    const [, year, month, day, hour, minute, second, sign, oh, om] = m;
    // A day the month does not have (2026-02-31) is refused, not rolled over to March as Date() does.
    const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
    if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return null;
    if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return null;
    if (oh !== undefined && (Number(oh) * 60 + Number(om) > 14 * 60 || Number(om) > 59)) return null;
    // Without a zone a time is UTC (as the console's datetime inputs mean it), not the server's zone.
    const zone = sign !== undefined ? `${sign}${oh}:${om}` : "Z";
    const local = s.replace(" ", "T").replace(/(Z|z|[+-]\d\d:?\d\d)$/, "");
    d = new Date(hour === undefined ? local : `${local}${zone}`);
  }
  const t = d.getTime();
  return Number.isFinite(t) && t >= TIME_MIN && t <= TIME_MAX ? d : null;
}

/**
 * A point in time as a query parameter: ISO 8601 (e.g. 2026-11-23T10:00:00Z) or milliseconds since
 * the epoch, from 1970 to 9999; answers a Date. `what` names the parameter in the message (start_time).
 * Anything else is a 422 here, before a query could see it (issue 27 items 5, 6).
 */
export const timeParam = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .max(40, maxMessage(40))
    .transform((s, ctx) => {
      const d = parseTimeParam(s.trim());
      if (!d) {
        ctx.addIssue({ code: "custom", message: timeMessages.invalid(what), continue: false });
        return z.NEVER;
      }
      return d;
    })
    .openapi({ type: "string", description: "ISO 8601, or milliseconds since the epoch (1970 to 9999)", example: "2026-11-23T10:00:00Z" });

export const timeMessages = {
  invalid: (what: string) => `${what} must be an ISO 8601 time or milliseconds since the epoch`,
  order: (start: string, end: string) => `${end} must be after ${start}`,
  span: (days: number) => `The range may span at most ${days} days`,
  future: (start: string) => `${start} must not be in the future`,
} as const;

/** True for a Date that a timeParam answered (not the placeholder of a value it refused). */
const isTime = (d: unknown): d is Date => d instanceof Date && Number.isFinite(d.getTime());

/**
 * A time range's checks (a superRefine of the query): the start not in the future (unless
 * `futureStart`), the end after the start (or equal, with `allowEqual`), at most `maxDays` long;
 * the issue is the end's (the start's for a future start). Names default to start_time / end_time.
 * A time its own field refused is not checked again (its issue is already there).
 */
export function checkTimeRange(
  ctx: z.core.$RefinementCtx,
  range: { start?: Date; end?: Date },
  opts: { maxDays?: number; start?: string; end?: string; futureStart?: boolean; allowEqual?: boolean },
) {
  const { start, end } = range;
  const [startName, endName] = [opts.start ?? "start_time", opts.end ?? "end_time"];
  if (isTime(start) && !opts.futureStart && start.getTime() > Date.now()) {
    ctx.addIssue({ code: "custom", path: [startName], message: timeMessages.future(startName) });
    return;
  }
  if (!isTime(start) || !isTime(end)) return;
  const tooEarly = opts.allowEqual ? end.getTime() < start.getTime() : end.getTime() <= start.getTime();
  if (tooEarly) ctx.addIssue({ code: "custom", path: [endName], message: timeMessages.order(startName, endName) });
  else if (opts.maxDays !== undefined && end.getTime() - start.getTime() > opts.maxDays * 86_400_000) {
    ctx.addIssue({ code: "custom", path: [endName], message: timeMessages.span(opts.maxDays) });
  }
}
