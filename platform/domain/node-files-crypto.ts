import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/*
 * Secrets at rest of the nodes area (issue #28): the files made for a node (an OVA holds a
 * registration token, a WireGuard configuration the node's private key) and the external
 * certificates' private keys are stored AES-256-GCM encrypted. The key is NODE_SECRETS_KEY (64 hex
 * characters, or any text, hashed to 32 bytes); without it a random key is kept in
 * DATA_DIR/node-secrets-key (mode 0600), as the console keeps its session secret. Every instance of
 * a PostgreSQL deployment must share NODE_SECRETS_KEY.
 */

const keys = new Map<string, Buffer>();

/** The key for this data directory (cached per directory). */
export function secretsKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env.NODE_SECRETS_KEY?.trim();
  if (fromEnv) return /^[0-9a-f]{64}$/i.test(fromEnv) ? Buffer.from(fromEnv, "hex") : createHash("sha256").update(fromEnv).digest();
  const cached = keys.get(dataDir);
  if (cached) return cached;
  const file = path.join(dataDir, "node-secrets-key");
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
    if (key.length !== 32) throw new Error("bad key file");
  } catch {
    key = randomBytes(32);
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // "wx": a key another process wrote meanwhile wins.
      fs.writeFileSync(file, key.toString("hex"), { mode: 0o600, flag: "wx" });
    } catch {
      key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
    }
  }
  keys.set(dataDir, key);
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64). */
export function sealSecret(key: Buffer, plain: Buffer | string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain), cipher.final()]);
  return `v1.${iv.toString("base64")}.${cipher.getAuthTag().toString("base64")}.${data.toString("base64")}`;
}

export function openSecret(key: Buffer, sealed: string): Buffer {
  const [v, iv, tag, data] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("Not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]);
}
