import { createHash, randomBytes } from "node:crypto";
import { encodeBase64url } from "@oslojs/encoding";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { secureCookies, sessionSecrets } from "./env.server.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

const cookie = createSignedCookie("csrf", {
  path: "/",
  httpOnly: true,
  secure: secureCookies,
  sameSite: "lax",
  secrets: sessionSecrets,
});

/** remix-utils' CSRF, with the token drawn in one call to the system's CSPRNG (its own draws a character at a time). */
class FastCSRF extends CSRF {
  override generate(bytes = 32) {
    const token = randomBytes(bytes).toString("base64url");
    // The same "signature" as remix-utils' own (validate() recomputes it so).
    return `${token}.${encodeBase64url(createHash("sha256").update(token).digest())}`;
  }
}

export const csrf = new FastCSRF({ cookie, formDataKey: "csrf", secret: sessionSecrets[0] });

/** A console form is a few fields: a body larger than this is not one of ours. */
export const FORM_MAX_BYTES = 1024 * 1024;

/** An action refused for a missing or stale CSRF token. */
export const FORM_EXPIRED = "Your form has expired. Reload the page and try again.";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** A plain-text error page answer (the route's error boundary shows the sentence). */
function refuse(status: number, message: string, headers?: Record<string, string>): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** 405 for anything but POST: console actions take forms, which browsers only ever POST. */
export function requirePost(request: Request): void {
  if (request.method !== "POST") throw refuse(405, "This address only accepts forms sent with POST.", { Allow: "GET, HEAD, POST" });
}

/**
 * Reads a posted form and checks its CSRF token. Anything that is not a form (JSON, plain text,
 * an empty or broken body, another method) answers 400 (405 for the method) with a clear
 * sentence: a body a browser's form never sends is the client's mistake, never a 500
 * (docs/decisions/2026-11-23-hardening.md). A bad token answers 403: the form is stale or forged,
 * and nothing is changed.
 */
export async function readForm(request: Request): Promise<FormData> {
  requirePost(request);
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) {
    await request.body?.cancel().catch(() => {});
    throw refuse(400, "This address only accepts forms (application/x-www-form-urlencoded or multipart/form-data).");
  }
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > FORM_MAX_BYTES) {
    await request.body?.cancel().catch(() => {});
    throw refuse(413, "The form is too large.");
  }
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    // A multipart body without its boundary, cut short, or not what its Content-Type says.
    throw refuse(400, "The form could not be read. Reload the page and try again.");
  }
  try {
    await csrf.validate(formData, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) throw refuse(403, FORM_EXPIRED);
    throw error;
  }
  return formData;
}
