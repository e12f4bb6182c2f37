import type { MiddlewareHandler } from "hono";
import { apiLog } from "../db/schema.ts";
import type { Env } from "./context.ts";
import { newId } from "./ids.ts";

const secretKey = /pass(word)?|token|secret|otp|private_key|certificate|ca_chain|payment_method|signature/i;

/** Replaces the value of every secret-looking key, at any depth. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, secretKey.test(k) ? "***" : redactSecrets(v)]),
    );
  }
  return value;
}

/** Writes every mutating (POST) call of a signed-in caller to the API log that /histories shows. */
export const apiLogMiddleware = (basePath: string): MiddlewareHandler<Env> => async (c, next) => {
  if (c.req.method !== "POST") return next();
  let body: unknown = null;
  const text = await c.req.raw.clone().text().catch(() => "");
  if (text.length > 0 && text.length <= 64 * 1024) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { raw: text.slice(0, 1000) };
    }
  }
  await next();
  const who = c.get("caller");
  if (!who) return;
  const path = c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
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
      requestBody: redactSecrets(body),
      queryParameters: Object.fromEntries(new URL(c.req.url).searchParams),
      status: c.res.status,
    });
};
