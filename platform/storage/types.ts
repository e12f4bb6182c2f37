import type { Readable } from "node:stream";

/** A request or response body: a web stream (fetch), a Node stream, or nothing (empty). */
export type BodySource = ReadableStream<Uint8Array> | Readable | null | undefined;

export interface PutOptions {
  /** The body is refused (ObjectTooLargeError) as soon as it goes past this many bytes. */
  maxBytes: number;
  /** The declared length (Content-Length), when known: refused up front when over maxBytes. */
  contentLength?: number | null;
}

export interface PresignOptions {
  /** Seconds the URL stays valid. */
  expiresIn: number;
  /** Largest body the URL accepts (enforced by the embedded store; see S3ObjectStore). */
  maxBytes: number;
}

export interface ObjectInfo {
  size: number;
  /** Changes whenever the object is rewritten (S3 ETag; size + mtime for files). */
  etag: string;
}

/** A local file holding the object; `release()` removes it when it is a temporary copy. */
export interface LocalCopy {
  path: string;
  size: number;
  release(): Promise<void>;
}

/**
 * Where uploaded objects (PCAP captures) live. Two implementations: files under
 * `${dataDir}/objects/` (embedded default) and an S3-compatible bucket (S3_* settings).
 * Nothing here buffers a whole object in memory.
 */
export interface ObjectStore {
  readonly kind: "local" | "s3";
  /** Streams `body` into the object `key`; replaces it only once the whole body arrived. */
  putStream(key: string, body: BodySource, opts: PutOptions): Promise<{ size: number }>;
  /** The object as a local file (the file itself, or a temporary download). Throws ObjectNotFoundError. */
  getPath(key: string): Promise<LocalCopy>;
  /** The object as a stream. Throws ObjectNotFoundError. */
  getStream(key: string): Promise<Readable>;
  /** Size and version of the object, or null when there is none. */
  stat(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
  /**
   * A URL the browser can PUT the object to, without a bearer token, until it expires.
   * The embedded store's URLs are also single-use and size-limited (checked by the upload call).
   */
  presignPut(key: string, opts: PresignOptions): Promise<string>;
}

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object larger than ${maxBytes} bytes`);
    this.name = "ObjectTooLargeError";
  }
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no object ${key}`);
    this.name = "ObjectNotFoundError";
  }
}

/** Keys are one or more `/`-separated segments of [A-Za-z0-9._-], none of them `.` or `..`. */
export function assertValidKey(key: string): void {
  const ok =
    key.length > 0 &&
    key.length <= 512 &&
    key.split("/").every((seg) => /^[A-Za-z0-9._-]+$/.test(seg) && seg !== "." && seg !== "..");
  if (!ok) throw new Error(`invalid object key: ${JSON.stringify(key.slice(0, 80))}`);
}
