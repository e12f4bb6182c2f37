import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadOrCreateSecret, signPut, verifyPut, type SignatureCheck, type SignedPutQuery } from "./signing.ts";
import { byteLimit, toNodeReadable } from "./streams.ts";
import { assertValidKey, ObjectNotFoundError, ObjectTooLargeError, type BodySource, type LocalCopy, type ObjectInfo, type ObjectStore, type PresignOptions, type PutOptions } from "./types.ts";

export interface LocalStoreOptions {
  /** Directory holding the objects (`${dataDir}/objects`). */
  root: string;
  /** File holding the URL-signing secret (`${dataDir}/objects-secret`). */
  secretFile: string;
  /**
   * OBJECTS_SECRET: the signing secret every instance shares (its text; a comma-separated list
   * while rotating: the first signs, each one is accepted). Absent: the one in `secretFile`.
   */
  secret?: string;
  /** The path (or URL) of the upload call for a key, e.g. `/api/v1/upload-pcap/{key}`. */
  uploadUrl: (key: string) => string;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * The embedded object store: one file per object under `root`. Uploads are written to a
 * hidden part file next to the target and renamed into place when complete, so a reader
 * never sees half an object. Signed upload URLs point at the platform's own upload call,
 * which checks them with `verifySignedPut` (and makes them single-use in the database).
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = "local" as const;
  private secretCache: Buffer[] | null = null;
  private readonly now: () => number;

  constructor(private readonly opts: LocalStoreOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The signing secrets: the first signs, each one verifies (a rotation's old one too). */
  private get secrets(): Buffer[] {
    this.secretCache ??= this.opts.secret
      ? this.opts.secret.split(",").map((s) => s.trim()).filter(Boolean).map((s) => Buffer.from(s, "utf8"))
      : [loadOrCreateSecret(this.opts.secretFile)];
    return this.secretCache;
  }

  /** The file of an object. */
  pathFor(key: string): string {
    assertValidKey(key);
    return path.join(this.opts.root, ...key.split("/"));
  }

  async putStream(key: string, body: BodySource, opts: PutOptions): Promise<{ size: number }> {
    const target = this.pathFor(key);
    if (opts.contentLength != null && opts.contentLength > opts.maxBytes) {
      // Refused before a byte is read; the body is left to the HTTP layer to discard.
      throw new ObjectTooLargeError(opts.maxBytes);
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const part = path.join(path.dirname(target), `.${path.basename(target)}.part-${randomBytes(6).toString("hex")}`);
    const counter = byteLimit(opts.maxBytes);
    const out = fs.createWriteStream(part, { flags: "wx", mode: 0o600 });
    try {
      await pipeline(toNodeReadable(body), counter, out);
      await fsp.rename(part, target);
    } catch (err) {
      // A pipeline that fails early may do so while the part file is still being opened: removed
      // before the open completes, it would be left behind. Wait for the stream to close first.
      if (!out.closed) await new Promise<void>((resolve) => out.once("close", () => resolve()));
      await fsp.rm(part, { force: true });
      throw err;
    }
    return { size: counter.bytes };
  }

  async getPath(key: string): Promise<LocalCopy> {
    const file = this.pathFor(key);
    const info = await this.stat(key);
    if (!info) throw new ObjectNotFoundError(key);
    return { path: file, size: info.size, release: async () => {} };
  }

  async getStream(key: string): Promise<Readable> {
    const file = this.pathFor(key);
    if (!(await this.stat(key))) throw new ObjectNotFoundError(key);
    return fs.createReadStream(file);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await fsp.stat(this.pathFor(key));
      if (!s.isFile()) return null;
      return { size: s.size, etag: `${s.size}-${Math.trunc(s.mtimeMs)}-${s.ino}` };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathFor(key), { force: true });
  }

  /** `{uploadUrl(key)}?expires=<unix s>&max=<bytes>&sig=<HMAC-SHA256, base64url>`. */
  async presignPut(key: string, opts: PresignOptions): Promise<string> {
    assertValidKey(key);
    const expires = Math.floor(this.now() / 1000) + Math.max(1, Math.floor(opts.expiresIn));
    const maxBytes = Math.floor(opts.maxBytes);
    const sig = signPut(this.secrets[0]!, key, expires, maxBytes);
    const q = new URLSearchParams({ expires: String(expires), max: String(maxBytes), sig });
    return `${this.opts.uploadUrl(key)}?${q}`;
  }

  /** Checks the query of a URL made by `presignPut` (signature, then expiry). */
  verifySignedPut(key: string, q: SignedPutQuery): SignatureCheck {
    const now = Math.floor(this.now() / 1000);
    let check: SignatureCheck = { ok: false, reason: "invalid" };
    for (const secret of this.secrets) {
      check = verifyPut(secret, key, q, now);
      if (check.ok || check.reason !== "invalid") return check;
    }
    return check;
  }
}
