import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/*
 * Secrets at rest of the nodes area (issue #28): the files made for a node (an OVA holds a
 * registration token, a WireGuard configuration the node's private key) and the external
 * certificates' private keys are stored AES-256-GCM encrypted. The key is NODE_SECRETS_KEY (64 hex
 * characters, or a passphrase of 32 characters or more, hashed to 32 bytes); without it a random key
 * is kept in DATA_DIR/node-secrets-key (mode 0600), as the console keeps its session secret. Every
 * instance of a PostgreSQL deployment must share NODE_SECRETS_KEY: the platform's configuration
 * requires it in production (lib/config.ts).
 *
 * Rotation: NODE_SECRETS_KEY=new,old. The first key seals what is written from then on; each one
 * is tried to open what is stored (docs/configuration.md).
 */

const keys = new Map<string, Buffer>();

const keyOf = (text: string) => (/^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : createHash("sha256").update(text).digest());

/** The keys of a platform: the one that seals first, then those that still open (cached per data directory). */
export function secretsKeys(config: { dataDir: string; nodeSecretsKey?: string }): Buffer[] {
  if (config.nodeSecretsKey) return config.nodeSecretsKey.split(",").map((k) => k.trim()).filter(Boolean).map(keyOf);
  const { dataDir } = config;
  const cached = keys.get(dataDir);
  if (cached) return [cached];
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
  return [key];
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64). */
export function sealSecret(key: Buffer, plain: Buffer | string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain), cipher.final()]);
  return `v1.${iv.toString("base64")}.${cipher.getAuthTag().toString("base64")}.${data.toString("base64")}`;
}

/** Opens a sealed secret with the first of `keys` that opened it (the GCM tag tells a wrong key). */
export function openSecret(keys: Buffer | Buffer[], sealed: string): Buffer {
  const [v, iv, tag, data] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("Not a sealed secret");
  let failure: unknown;
  for (const key of Array.isArray(keys) ? keys : [keys]) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}
