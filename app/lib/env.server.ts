import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const productName = process.env.PRODUCT_NAME || "Linkwise";
export const apiUrl = (process.env.API_URL || "").replace(/\/$/, "") || null;
export const isProduction = process.env.NODE_ENV === "production";

/**
 * SESSION_SECRET signs the cookies. Without one, a random secret is kept under DATA_DIR so that
 * sessions survive a restart of the embedded default.
 */
function loadSessionSecrets(): string[] {
  const fromEnv = process.env.SESSION_SECRET;
  if (fromEnv) return fromEnv.split(",").map((s) => s.trim()).filter(Boolean);
  const dir = path.resolve(process.env.DATA_DIR ?? "./data");
  const file = path.join(dir, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    const secret = randomBytes(32).toString("hex");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return [secret];
  }
}

export const sessionSecrets = loadSessionSecrets();
/** Secure cookies in production, unless COOKIE_SECURE=false (plain-http intranet deployments). */
export const secureCookies = process.env.COOKIE_SECURE ? process.env.COOKIE_SECURE === "true" : isProduction;

/**
 * Where /idp-login?start sends the browser to sign in at the external identity provider (with
 * `state` and `redirect_uri` added); unset: no IdP sign-in (issue 27 item 9).
 */
export const idpLoginUrl = process.env.IDP_LOGIN_URL || null;
