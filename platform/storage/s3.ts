import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { byteLimit, toNodeReadable } from "./streams.ts";
import { assertValidKey, ObjectNotFoundError, ObjectTooLargeError, type BodySource, type LocalCopy, type ObjectInfo, type ObjectStore, type PresignOptions, type PutOptions } from "./types.ts";

export interface S3Settings {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000; absent: AWS's default for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`{endpoint}/{bucket}/{key}`): the default with a custom endpoint (MinIO & co.). */
  forcePathStyle: boolean;
}

/** S3 settings from S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (and S3_FORCE_PATH_STYLE); null without S3_BUCKET. */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  return {
    endpoint,
    bucket,
    region: env.S3_REGION?.trim() || "us-east-1",
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === "true" : Boolean(endpoint),
  };
}

/** Multipart part size for streamed uploads: one part is the most held in memory. */
const PART_SIZE = 16 * 1024 * 1024;

/**
 * An S3-compatible bucket. The browser uploads straight to it with a presigned PUT URL;
 * the platform streams objects in and out (multipart upload, GetObject body stream).
 *
 * Limits of presigned PUT URLs, which S3 cannot enforce: they are not single-use (only
 * expiring), and they carry no size limit (a single PUT is capped at 5 GB by AWS). The size is
 * therefore checked again with `stat` before an object is used.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = "s3" as const;
  readonly client: S3Client;

  constructor(
    readonly settings: S3Settings,
    private readonly opts: { tmpDir: string },
  ) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Since client-s3 3.729 the default bakes a CRC32 of the (empty) presign-time body into
      // presigned PUT URLs, and every real upload then fails its checksum. Only when required.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private params(key: string) {
    assertValidKey(key);
    return { Bucket: this.settings.bucket, Key: key };
  }

  async putStream(key: string, body: BodySource, opts: PutOptions): Promise<{ size: number }> {
    const where = this.params(key);
    if (opts.contentLength != null && opts.contentLength > opts.maxBytes) throw new ObjectTooLargeError(opts.maxBytes);
    const counter = byteLimit(opts.maxBytes);
    const source = toNodeReadable(body);
    // Errors on either side destroy both; reading the counter then throws the error.
    pipeline(source, counter).catch(() => {});
    const parts = partsOf(counter, PART_SIZE);
    const first = await parts.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    const second = first.done ? first : await parts.next();
    if (second.done) {
      // Small object: one PUT.
      await this.client.send(new PutObjectCommand({ ...where, Body: firstPart, ContentLength: firstPart.length }));
      return { size: counter.bytes };
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(where));
    try {
      const done: CompletedPart[] = [];
      const upload = async (part: Buffer) => {
        const PartNumber = done.length + 1;
        const res = await this.client.send(
          new UploadPartCommand({ ...where, UploadId, PartNumber, Body: part, ContentLength: part.length }),
        );
        done.push({ ETag: res.ETag, PartNumber });
      };
      await upload(firstPart);
      await upload(second.value);
      for await (const part of parts) await upload(part);
      await this.client.send(new CompleteMultipartUploadCommand({ ...where, UploadId, MultipartUpload: { Parts: done } }));
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ ...where, UploadId })).catch(() => {});
      counter.destroy();
      throw err;
    }
    return { size: counter.bytes };
  }

  async getStream(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand(this.params(key)));
      const body = res.Body;
      if (!body) throw new ObjectNotFoundError(key);
      // In Node the body is an http.IncomingMessage; anything else is turned into a Node stream.
      return body instanceof Readable ? body : toNodeReadable(body.transformToWebStream() as ReadableStream<Uint8Array>);
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  /** Downloads the object to a temporary file (streamed), removed by `release()`. */
  async getPath(key: string): Promise<LocalCopy> {
    const stream = await this.getStream(key);
    await fsp.mkdir(this.opts.tmpDir, { recursive: true });
    const file = path.join(this.opts.tmpDir, `s3-${randomBytes(8).toString("hex")}`);
    try {
      await pipeline(stream, fs.createWriteStream(file, { flags: "wx", mode: 0o600 }));
      const { size } = await fsp.stat(file);
      return { path: file, size, release: () => fsp.rm(file, { force: true }) };
    } catch (err) {
      await fsp.rm(file, { force: true });
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand(this.params(key)));
      return { size: Number(res.ContentLength ?? 0), etag: res.ETag ?? String(res.LastModified?.getTime() ?? "") };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand(this.params(key)));
  }

  /** A presigned PutObject URL (SigV4 query parameters), valid for `expiresIn` seconds. */
  async presignPut(key: string, opts: PresignOptions): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand(this.params(key)), { expiresIn: Math.floor(opts.expiresIn) });
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/** Regroups a stream into Buffers of at least `size` bytes (the last one may be smaller). */
async function* partsOf(stream: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of stream) {
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes >= size) {
      yield Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}
