import type { MiddlewareHandler } from "hono";
import { apiLog } from "../db/schema.ts";
import type { Env } from "./context.ts";
import { newId } from "./ids.ts";
import { observe } from "../../server/observe.mjs";

/**
 * Keys whose value is never logged, matched on the key lowercased without `_`, `-`, `.` or
 * spaces, so every spelling counts (password, new_password, currentPassword, access-token,
 * client_secret, webhookSecret, private_key, card_number, cvc…).
 */
const SECRET_KEY =
  /pass(word|wd|phrase|code)?|pwd|token|secret|^otp|otp$|privatekey|privkey|(signing|encryption|ssh|access|master|client|session|webhook)key|^key$|certificate|cachain|paymentmethod|signature|apikey|authorization|^auth$|bearer|jwt|cookie|session(id)?$|credential|card|^cc$|ccnum|cvc|cvv|cvn|^pan$|^pin$|pincode|securitycode|(mfa|recovery|backup|verification)code|iban|accountnumber|routingnumber|expiry|expmonth|expyear|^pws?$|(new|old|current|user|login)pw$|(^|new|old|current|user|account|card|sim)pin$|^code$|onetime(pass)?code|(auth|access|login|sms|email|totp|2fa|confirmation|security|reset|signin|activation|invite|invitation)code$|^otc$/;
export const isSecretKey = (key: string) => SECRET_KEY.test(key.toLowerCase().replace(/[\s_.-]/g, ""));

/** True for a digit string that passes the Luhn check (a payment card number). */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const PRIVATE_KEY_BLOCK = /-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const CARD = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
/** The password of a URL's user info (scheme://user:password@host): the user stays, the password goes. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;
/** A query parameter of a URL (or a form-encoded text) whose name is a secret's: ?token=…, &password=…. */
const SECRET_PARAM = /([?&;]|^)([^=&?#\s]{1,60})=([^&#\s]*)/g;

/**
 * Secrets inside a value, whatever its key: private key blocks, JWTs, Authorization header values
 * and payment card numbers (13 to 19 digits, spaced or not, Luhn-valid) become ***.
 */
export function scrubSecretValues(text: string): string {
  if (text.length < 13 && !/bearer|basic|token|[@=]/i.test(text)) return text;
  return text
    .replace(PRIVATE_KEY_BLOCK, "***")
    .replace(JWT, "***")
    .replace(BEARER, (_m, scheme: string) => `${scheme} ***`)
    .replace(URL_PASSWORD, "$1:***@")
    .replace(SECRET_PARAM, (m, lead: string, name: string, value: string) => {
      let key = name;
      try {
        key = decodeURIComponent(name);
      } catch {}
      return value && isSecretKey(key) ? `${lead}${name}=***` : m;
    })
    .replace(CARD, (m) => (luhn(m.replace(/[ -]/g, "")) ? "***" : m));
}

/** True for a JSON number that may be a payment card number: an integer of 13 to 19 digits, Luhn-valid (or too large to check). */
function cardLikeNumber(value: number): boolean {
  if (!Number.isFinite(value) || !Number.isInteger(value)) return false;
  const abs = Math.abs(value);
  if (abs < 1e12 || abs >= 1e19) return false;
  // Beyond 2^53 the digits are not the ones sent: not checkable, so not kept.
  return !Number.isSafeInteger(abs) || luhn(String(abs));
}

/**
 * The JSON text with every number token of 13 to 19 digits that passes the Luhn check (a card
 * number sent as a JSON number: `"device_id": 4111111111111111`) replaced by the string "***". On
 * the text, before parsing: JSON.parse would round a 19-digit number, and the check needs its digits.
 */
export function scrubCardNumbersInJson(text: string): string {
  if (!/\d{13}/.test(text)) return text;
  let out = "";
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch === "-" || (ch >= "0" && ch <= "9")) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      const digits = token.replace(/^-/, "");
      if (/^\d{13,19}$/.test(digits) && luhn(digits)) {
        out += `${text.slice(last, i)}"***"`;
        last = j;
      }
      i = j - 1;
    }
  }
  return out + text.slice(last);
}

/** Text that PostgreSQL's jsonb accepts: no NUL, no lone surrogates. */
function cleanText(text: string): string {
  return text.replace(/\u0000/g, "").replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/**
 * Replaces the value of every secret-looking key, at any depth, and makes the rest storable:
 * clean text, nesting cut at 8 levels. The log must never change a call's answer.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubSecretValues(cleanText(value));
  if (typeof value === "number" && cardLikeNumber(value)) return "***";
  if (depth >= 8 && value && typeof value === "object") return "[nested too deep]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .slice(0, 100)
        .map(([k, v]) => [cleanText(k), isSecretKey(k) ? "***" : redactSecrets(v, depth + 1)]),
    );
  }
  return value;
}

/** What the log holds for a body it could not read as JSON: its size only. */
export const unparsed = (bytes: number) => `[unparsed body, ${bytes} bytes]`;

/** The body's text, or "" when it is longer than `limit` bytes (never reads more than that). */
async function readCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return "";
      }
      chunks.push(value);
    }
  } catch {
    return "";
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Writes every mutating (POST) call of a signed-in caller to the API log that /histories shows, with
 * its answer's status (a refused call is shown as refused: docs/decisions/2026-11-25-change-log-outcome.md).
 */
export const apiLogMiddleware = (basePath: string): MiddlewareHandler<Env> => async (c, next) => {
  if (c.req.method !== "POST") return next();
  let body: unknown = null;
  // Only small JSON bodies are read for the log: an upload stream must never be buffered here.
  const type = c.req.header("content-type") ?? "";
  const length = Number(c.req.header("content-length") ?? "0");
  const readable = type.includes("json") && length <= 64 * 1024;
  const text = readable ? await readCapped(c.req.raw.clone(), 64 * 1024) : "";
  if (text.length > 0 && text.length <= 64 * 1024) {
    // A body that does not parse is never logged as it came: its secrets could not be found in
    // it (a password in a JSON body with a trailing comma was stored in clear; issue 10 item 7).
    try {
      body = redactSecrets(JSON.parse(scrubCardNumbersInJson(text)));
    } catch {
      body = unparsed(Buffer.byteLength(text));
    }
  }
  await next();
  const who = c.get("caller");
  // A POST that only reads (CallSpec.reads: a report opened) is not a change.
  if (!who || c.get("notAChange")) return;
  const path = c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
  try {
    await c
      .get("deps")
      .db.insert(apiLog)
      .values({
      id: newId("log"),
      accountId: who.accountId,
      iamUserId: who.iamUserId,
      accountUsername: who.accountUsername,
      iamUserUsername: who.iamUsername,
      method: c.req.method,
      urlPath: path,
        requestBody: body,
        queryParameters: redactSecrets(Object.fromEntries(new URL(c.req.url).searchParams)),
        status: c.res.status,
        requestId: c.get("requestId") ?? null,
      });
  } catch (error) {
    observe("platform").logger.error({ err: error }, "could not write the API log");
  }
};
