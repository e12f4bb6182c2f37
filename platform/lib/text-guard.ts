import type { MiddlewareHandler } from "hono";
import type { Env } from "./context.ts";
import type { DetailItem } from "./errors.ts";
import { junkMessage } from "./fields.ts";

/*
 * Text no field of any call can hold, refused for every call before its handler (issue 27 item 7):
 * a NUL character (PostgreSQL's text and jsonb refuse it: 'invalid byte sequence' was a 500), a
 * lone UTF-16 surrogate (not well-formed text), and bytes that are not UTF-8 (decoded, they became
 * U+FFFD and were stored as if sent). In a JSON body (any string, key or value, at any depth: 422
 * naming it), a body that is not UTF-8 (400), and a query parameter or path segment (422). The field
 * builders (lib/fields.ts) refuse the same and more per field; this is the floor under every call.
 */

const NUL_OR_LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text a field may hold at all: no NUL, no lone surrogate. */
export const isStorableText = (s: string) => !NUL_OR_LONE_SURROGATE.test(s);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The path (body keys and indexes) of the first string that is not storable, or null. Iterative: bodies may nest thousands deep. */
export function findUnstorableText(value: unknown): (string | number)[] | null {
  const stack: Array<[unknown, (string | number)[]]> = [[value, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (!isStorableText(v)) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, [...path.slice(0, 20), i]]));
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        if (!isStorableText(k)) return [...path.slice(0, 20), k.replace(NUL_OR_LONE_SURROGATE, "?")];
        stack.push([item, [...path.slice(0, 20), k]]);
      }
    }
  }
  return null;
}

/** decodeURIComponent that answers null for what is not UTF-8 (and for text that is not storable). */
function decodedOrNull(component: string): string | null {
  try {
    const s = decodeURIComponent(component.replace(/\+/g, " "));
    return isStorableText(s) ? s : null;
  } catch {
    return null;
  }
}

const unprocessable = (loc: (string | number)[], msg = junkMessage): { detail: DetailItem[] } => ({ detail: [{ loc, msg, type: "value_error" }] });

/**
 * The middleware. `readsBody(path)` false for calls whose body is a stream the handler reads (the
 * PCAP upload): their query and path are checked, their body is not buffered here.
 */
export const refuseUnstorableText =
  (readsBody: (path: string) => boolean): MiddlewareHandler<Env> =>
  async (c, next) => {
    const url = new URL(c.req.url);
    for (const segment of url.pathname.split("/")) {
      if (segment && decodedOrNull(segment) === null) return c.json(unprocessable(["path"]), 422);
    }
    for (const pair of url.search.slice(1).split("&")) {
      if (!pair) continue;
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      const key = decodedOrNull(name);
      if (key === null || decodedOrNull(value) === null) return c.json(unprocessable(["query", key ?? "?"]), 422);
    }
    const method = c.req.method;
    if ((method === "POST" || method === "PUT" || method === "PATCH") && readsBody(c.req.path) && (c.req.header("content-type") ?? "").includes("json")) {
      // Read once through Hono's request cache: the validator and the handler read the same bytes.
      const bytes = await c.req.arrayBuffer();
      let text: string;
      try {
        text = strictUtf8.decode(bytes);
      } catch {
        return c.json({ detail: "The body is not valid UTF-8." }, 400);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the call's validator answers it (400), as before.
        return next();
      }
      const where = findUnstorableText(parsed);
      if (where) return c.json(unprocessable(["body", ...where]), 422);
    }
    return next();
  };
