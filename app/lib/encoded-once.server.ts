/*
 * React hands strings of more than ~1.4 KB over as they are, and the large ones repeat from view
 * to view: a table's rows and a chart's SVG are remembered markup, the same string object each
 * time. Their UTF-8 bytes are remembered too, by the string: otherwise every view measured and
 * encoded some hundred KB again (Buffer.byteLength, then the socket's write). A string is encoded
 * for keeping the second time it is seen, so that what is new on every view (the page's data)
 * never pushes out what repeats. A Map lookup of the same string object is a pointer comparison;
 * an equal string made anew is compared once. Bounded, oldest out first.
 */
import { BoundedMemo } from "./bounded-memo.ts";

/** Strings this long or longer are worth remembering as bytes. */
export const BIG_CHUNK = 2_048;
const encoded = new BoundedMemo<string, Buffer>({
  maxEntries: 256,
  maxSize: 32_000_000,
  sizeOf: (_chunk, bytes) => bytes.length,
});
const seenOnce = new BoundedMemo<string, true>({
  maxEntries: 256,
  maxSize: 8_000_000,
  sizeOf: (chunk) => chunk.length,
});

/** `chunk`'s remembered UTF-8 bytes, or the chunk itself the first time it is seen. */
export function encodedOnce(chunk: string): Buffer | string {
  const bytes = encoded.get(chunk);
  if (bytes) return bytes;
  if (!seenOnce.delete(chunk)) {
    seenOnce.set(chunk, true);
    return chunk;
  }
  const made = Buffer.from(chunk);
  encoded.set(chunk, made);
  return made;
}
