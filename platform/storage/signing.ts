import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Signed upload URLs of the embedded object store: HMAC-SHA256 over the method, the key, the
 * expiry (unix seconds) and the size limit, with a secret kept in `${dataDir}/objects-secret`.
 */

export interface SignedPutQuery {
  expires?: string | null;
  max?: string | null;
  sig?: string | null;
}

export type SignatureCheck =
  | { ok: true; expires: number; maxBytes: number; sig: string }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

function mac(secret: Buffer, key: string, expires: number, maxBytes: number): string {
  return createHmac("sha256", secret).update(`PUT\n${key}\n${expires}\n${maxBytes}`).digest("base64url");
}

export function signPut(secret: Buffer, key: string, expires: number, maxBytes: number): string {
  return mac(secret, key, expires, maxBytes);
}

/** Checks a signed PUT's query; `nowSec` is the current unix time in seconds. */
export function verifyPut(secret: Buffer, key: string, q: SignedPutQuery, nowSec: number): SignatureCheck {
  if (!q.expires || !q.max || !q.sig) return { ok: false, reason: "missing" };
  if (!/^\d{1,12}$/.test(q.expires) || !/^\d{1,16}$/.test(q.max)) return { ok: false, reason: "invalid" };
  const expires = Number(q.expires);
  const maxBytes = Number(q.max);
  const expected = Buffer.from(mac(secret, key, expires, maxBytes));
  const given = Buffer.from(q.sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  // Checked after the MAC, so a tampered `expires` reads as invalid, not as expired.
  if (nowSec > expires) return { ok: false, reason: "expired" };
  return { ok: true, expires, maxBytes, sig: q.sig };
}

/** The store's signing secret: read from `file`, created (random, mode 600) on first use. */
export function loadOrCreateSecret(file: string): Buffer {
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32);
  try {
    fs.writeFileSync(file, secret.toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
    throw err;
  }
}
