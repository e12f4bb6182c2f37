import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { ObjectTooLargeError, type BodySource } from "./types.ts";

/** Any body as a Node stream (an absent body is an empty stream). */
export function toNodeReadable(body: BodySource): Readable {
  if (!body) return Readable.from([]);
  if (body instanceof Readable) return body;
  // why: the DOM lib's ReadableStream and node:stream/web's are the same object at run time, two types.
  return Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
}

/** A pass-through that counts bytes and fails with ObjectTooLargeError past `maxBytes`. */
export function byteLimit(maxBytes: number): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      t.bytes += chunk.length;
      if (t.bytes > maxBytes) cb(new ObjectTooLargeError(maxBytes));
      else cb(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}
