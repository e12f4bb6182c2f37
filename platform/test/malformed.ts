// Malformed request bodies for a JSON call, generated from one valid example body, in two sets:
//
// - `malformedPayloads(example)`: what tests the call's own schema (each field missing, null, of the
//   wrong type, nested, empty, 10 000 characters long or full of unicode junk; the fields not where
//   they belong; a few bodies that are not an object). Each call's tests send these.
// - `parserPayloads(example)`: what tests the JSON body parser and the middleware before any call's
//   schema (not JSON, not UTF-8, a wrong content-type, over 2 MB, 5000 levels deep, JSON that is not
//   an object). Every call with a JSON body reads it through the one parser (defineCall's required
//   JSON body, the app's middleware), so platform/routes/malformed.test.ts sends these once, and
//   checks that every call reads its body that way (docs/decisions/2026-12-03-suite-time.md,
//   2026-12-04 afternoon). A call that parses its body itself (the Stripe webhook) sends both.
//
//   import { malformedPayloads } from "../test/malformed.ts";
//   for (const m of malformedPayloads({ entity_name: "Edge", description: "x" })) {
//     const r = await p.call("POST", "create_entity", { token, rawBody: m.rawBody, contentType: m.contentType });
//     expect(r.status, m.name).toBeGreaterThanOrEqual(400); expect(r.status, m.name).toBeLessThan(500);
//   }
//
// Every variant is meant to be refused with a 4xx by a call that needs the example's fields.
// Some variants can be legitimately valid for a particular call (an optional field left out or
// null, an empty string where empty is allowed, a wrong content-type or a wrapping object on a
// call whose body is `{}`): filter those by name in your test. `contentType` undefined means
// `application/json`; an empty string means no usable content-type.

export interface MalformedPayload {
  name: string;
  rawBody: string;
  contentType?: string;
}

const LONG = 10_000;

/*
 * Bytes that are not UTF-8 inside a raw body. A JS string cannot hold them, so they are written the
 * way Python's "surrogateescape" does: the byte 0x80–0xFF as the lone surrogate U+DC80–U+DCFF
 * (which no other variant puts in a raw body: JSON.stringify escapes lone surrogates as \udcxx
 * text). `rawBodyBytes` turns such a string into the bytes to send (the harness does it for every
 * rawBody); any other string gives its UTF-8.
 */
const INVALID_UTF8 = "\udcff\udcfe\udcc3"; // 0xFF 0xFE, and 0xC3 without its continuation byte

/** The bytes of a raw body: UTF-8, with U+DC80–U+DCFF as the single bytes 0x80–0xFF (see INVALID_UTF8). */
export function rawBodyBytes(raw: string): Uint8Array<ArrayBuffer> {
  if (!/[\udc80-\udcff]/.test(raw)) return new TextEncoder().encode(raw);
  const out: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    const paired = i > 0 && raw.charCodeAt(i - 1) >= 0xd800 && raw.charCodeAt(i - 1) <= 0xdbff;
    if (code >= 0xdc80 && code <= 0xdcff && !paired) out.push(code - 0xdc00);
    else {
      const cp = raw.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out.push(...encoder.encode(ch));
      if (cp > 0xffff) i++;
    }
  }
  return Uint8Array.from(out);
}

/** Strings no sane text field accepts. */
const junkStrings: Array<[string, string]> = [
  ["NUL character", "abc\u0000def"],
  ["control characters", "\u0001\u0002\u001b[31mred\u001b[0m\u0007"],
  ["lone high surrogate", "ab\ud800cd"],
  ["lone low surrogate", "\udc00"],
  ["newline and tab injection", "line1\r\nX-Injected: yes\tend"],
];

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function fieldVariants(example: Record<string, unknown>, key: string): Array<{ name: string; body: unknown; rawBody?: string }> {
  const value = example[key];
  const kind = typeOf(value);
  const withValue = (v: unknown) => ({ ...example, [key]: v });
  const out: Array<{ name: string; body: unknown; rawBody?: string }> = [];
  const add = (what: string, v: unknown) => out.push({ name: `field "${key}": ${what}`, body: withValue(v) });

  const { [key]: _omitted, ...without } = example;
  out.push({ name: `field "${key}": missing`, body: without });
  add("null", null);

  // Wrong types: everything but the example's own type.
  if (kind !== "number") {
    add("wrong type (number)", 12345);
    add("wrong type (float)", -0.5);
  }
  if (kind !== "boolean") {
    add("wrong type (boolean true)", true);
    add("wrong type (boolean false)", false);
  }
  if (kind !== "array") {
    add("wrong type (empty array)", []);
    add("wrong type (array of the value)", [value]);
  }
  if (kind !== "object") {
    add("wrong type (empty object)", {});
    add("extra nesting (object wrapping the value)", { value });
  }
  add("extra nesting (deeply nested)", [[[{ [key]: value }]]]);

  if (kind === "string") {
    add("empty string", "");
    add("whitespace only", "   \t  ");
    add(`${LONG}-character string`, "a".repeat(LONG));
    add(`${LONG}-character string of emoji`, "💥".repeat(LONG / 2));
    for (const [what, junk] of junkStrings) add(`unicode junk (${what})`, junk);
    // Bytes that are not UTF-8 in the string (sent as bytes: rawBodyBytes).
    out.push({ name: `field "${key}": unicode junk (invalid UTF-8 bytes)`, body: null, rawBody: JSON.stringify(withValue("ab#INVALID#cd")).replace("#INVALID#", INVALID_UTF8) });
  } else {
    add("wrong type (empty string)", "");
    add(`wrong type (${LONG}-character string)`, "a".repeat(LONG));
    add("wrong type (unicode junk string)", junkStrings[0]![1]);
    if (kind === "number") {
      add("wrong type (numeric text)", "not-a-number");
      // JSON.parse turns 1e999 into Infinity; no number field accepts it.
      out.push({
        name: `field "${key}": overflowing number (1e999)`,
        body: null,
        rawBody: JSON.stringify(withValue(0)).replace(`"${key}":0`, `"${key}":1e999`),
      });
    }
    if (kind === "boolean") add("wrong type (text \"yes\")", "yes");
  }
  return out;
}

/** Whole bodies that are not a JSON object, or not JSON at all: the parser's variants (see the top). */
function wholeBodyVariants(example: Record<string, unknown>): MalformedPayload[] {
  const valid = JSON.stringify(example);
  const json = (name: string, v: unknown): MalformedPayload => ({ name: `body: ${name}`, rawBody: JSON.stringify(v) });
  const raw = (name: string, rawBody: string, contentType?: string): MalformedPayload => ({ name: `body: ${name}`, rawBody, contentType });
  const changed = (text: string, fallback: string) => (text === valid ? fallback : text);
  const deepArray = "[".repeat(5000) + "]".repeat(5000);
  const deepObject = '{"a":'.repeat(2000) + "{}" + "}".repeat(2000);
  return [
    // Valid JSON, but not an object.
    json("empty array", []),
    json("array of the valid body", [example]),
    json("array of two valid bodies", [example, example]),
    json("array of null", [null]),
    json("nested empty arrays", [[[]]]),
    json("array of numbers", [1, 2, 3]),
    json(`array of ${LONG} nulls`, new Array(LONG).fill(null)),
    json("string", "hello"),
    json("empty string", ""),
    json("string holding the valid body", valid),
    json("string \"null\"", "null"),
    json(`${LONG}-character string`, "a".repeat(LONG)),
    json("number 0", 0),
    json("number 1", 1),
    json("negative number", -1),
    json("float", 3.14),
    raw("huge integer", "123456789012345678901234567890"),
    raw("overflowing number (1e999)", "1e999"),
    json("true", true),
    json("false", false),
    json("null", null),
    raw(`deeply nested arrays (5000 levels)`, deepArray),
    raw("deeply nested objects (2000 levels)", deepObject),
    raw("body larger than 2 MB", JSON.stringify({ ...example, padding: "x".repeat(3 * 1024 * 1024) })),
    // Not JSON at all.
    raw("empty", ""),
    raw("only whitespace", "  \n\t "),
    raw("lone opening brace", "{"),
    raw("lone closing brace", "}"),
    raw("lone opening bracket", "["),
    raw("truncated valid body", valid.slice(0, -1)),
    raw("valid body cut in half", valid.slice(0, Math.max(1, Math.floor(valid.length / 2)))),
    raw("valid body followed by garbage", `${valid}garbage`),
    raw("two objects back to back", `${valid}${valid}`),
    raw("object then array", `${valid} []`),
    raw("missing value", '{"a":}'),
    raw("missing colon", '{"a" 1}'),
    raw("single quotes", changed(valid.replace(/"/g, "'"), "{'a': 'b'}")),
    raw("unquoted keys", changed(valid.replace(/"([^"]+)":/g, "$1:"), "{a: 1}")),
    raw("trailing comma in object", valid.length > 2 ? `${valid.slice(0, -1)},}` : '{"a":1,}'),
    raw("trailing comma in array", "[1,2,]"),
    raw("line comment", `// comment\n${valid}`),
    raw("block comment", `/* comment */${valid}`),
    raw("NaN", "NaN"),
    raw("Infinity", "Infinity"),
    raw("undefined", "undefined"),
    raw("misspelt null", "nul"),
    raw("misspelt true", "tru"),
    raw("leading zero number", "0123"),
    raw("hex number", '{"a":0x10}'),
    raw("leading plus", '{"a":+1}'),
    raw("bare decimal point", '{"a":.5}'),
    raw("unterminated string", '{"a":"unterminated'),
    raw("invalid escape", '{"a":"\\x41"}'),
    raw("short unicode escape", '{"a":"\\u12"}'),
    raw("raw control character in a string", '{"a":"tab\there"}'),
    raw("raw NUL byte", "\u0000"),
    raw("bytes that are not UTF-8", `{"a":"${INVALID_UTF8}"}`),
    raw("NUL in a key", '{"a\\u0000b":"c"}'),
    raw("XML", "<request><a>1</a></request>"),
    raw("form-encoded text sent as JSON", "a=1&b=2"),
    raw("JavaScript object literal", "({a: 1})"),
    // A valid body, but not sent as JSON.
    raw("valid body as text/plain", valid, "text/plain"),
    raw("valid body as form-urlencoded", valid, "application/x-www-form-urlencoded"),
    raw("form fields as form-urlencoded", Object.entries(example).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join("&"), "application/x-www-form-urlencoded"),
    raw("valid body as multipart", valid, "multipart/form-data; boundary=xyz"),
    raw("valid body as XML", valid, "application/xml"),
    raw("valid body as octet-stream", valid, "application/octet-stream"),
    raw("valid body without content-type", valid, ""),
    raw("valid body with a misspelt JSON content-type", valid, "application/jsn"),
  ];
}

/**
 * Whole bodies that test the call's schema rather than the parser: an object whose fields are not
 * where they belong, and a few JSON values that are not an object (each call's body schema must be
 * one: the cheap ones, the parser's set has the rest).
 */
function misplacedFieldVariants(example: Record<string, unknown>): MalformedPayload[] {
  const json = (name: string, v: unknown): MalformedPayload => ({ name: `body: ${name}`, rawBody: JSON.stringify(v) });
  return [
    json("empty array", []),
    json("array of the valid body", [example]),
    json("null", null),
    json("string", "hello"),
    json("valid body wrapped in an object", { data: example }),
    json("valid body with every value replaced by null", Object.fromEntries(Object.keys(example).map((k) => [k, null]))),
    json("valid body with every key upper-cased", Object.fromEntries(Object.entries(example).map(([k, v]) => [k.toUpperCase(), v]))),
  ];
}

const unique = (list: MalformedPayload[]) => {
  const seen = new Set<string>();
  return list.filter((m) => {
    const k = `${m.contentType ?? ""}\u0001${m.rawBody}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * The variants of a valid JSON body that test the call's own schema: each field missing, null, of
 * the wrong type, nested, empty, 10 000 characters long or full of unicode junk; the fields not
 * where they belong; a few bodies that are not an object. (At least 20 for a body of one field.)
 */
export function malformedPayloads(validExample: Record<string, unknown>): MalformedPayload[] {
  const out: MalformedPayload[] = [];
  for (const key of Object.keys(validExample)) {
    for (const v of fieldVariants(validExample, key)) out.push({ name: v.name, rawBody: v.rawBody ?? JSON.stringify(v.body) });
  }
  out.push(...misplacedFieldVariants(validExample));
  return unique(out);
}

/**
 * At least 50 variants that test the JSON body parser and the middleware (the same for every call):
 * the whole body as an array, string, number or null; malformed JSON text; bytes that are not UTF-8;
 * nesting 5000 levels deep; over 2 MB; a wrong content-type.
 */
export function parserPayloads(validExample: Record<string, unknown>): MalformedPayload[] {
  return unique(wholeBodyVariants(validExample));
}

/** Names of the variants that are a valid body when the call's body is `{}` (no fields). */
export const validForEmptyBody = (m: MalformedPayload) =>
  m.contentType !== undefined || /^body: (valid body (wrapped in an object|with every)|deeply nested objects)/.test(m.name);

/**
 * True for a variant that a server storing request bodies (the API log) must clean first: a NUL
 * character or a lone UTF-16 surrogate (PostgreSQL's jsonb and text types refuse both) or nesting
 * thousands of levels deep (recursive code and JSON.stringify overflow the stack).
 */
export const stressesBodyStorage = (m: MalformedPayload) =>
  m.rawBody.includes("\u0000") || /[\udc80-\udcff]/.test(m.rawBody) || /\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(m.rawBody) || /^[[{]{1000}/.test(m.rawBody.replace(/"a":/g, ""));

/**
 * A filter for the generated variants that are a VALID body for a call: an optional field left
 * out, emptied or blank (trimmed to empty), and line breaks in a field that may span lines.
 */
export function validVariants(fields: { optional?: string[]; emptyAllowed?: string[]; multiline?: string[] }) {
  const names = new Set<string>();
  for (const f of fields.optional ?? []) names.add(`field "${f}": missing`);
  for (const f of [...(fields.optional ?? []), ...(fields.emptyAllowed ?? [])]) {
    names.add(`field "${f}": empty string`);
    names.add(`field "${f}": whitespace only`);
  }
  for (const f of fields.multiline ?? []) names.add(`field "${f}": unicode junk (newline and tab injection)`);
  return (m: MalformedPayload) => names.has(m.name);
}
