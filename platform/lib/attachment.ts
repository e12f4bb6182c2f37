import type { Context } from "hono";
import type { Env } from "./context.ts";

/**
 * A file answered as a download (a report PDF, a node's files): the caller's own, so never cached,
 * and never sniffed as anything but its type. The name is sent as is when it is plain ASCII
 * without quotes; otherwise as an ASCII stand-in plus RFC 6266's `filename*` in UTF-8.
 */
export function attachment(c: Context<Env>, data: Uint8Array, fileName: string, type = "application/pdf") {
  const ascii = fileName.replace(/[^\x20-\x7E]|["\\]/g, "_");
  const disposition = ascii === fileName ? `attachment; filename="${fileName}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
  return c.body(new Uint8Array(data), 200, {
    "content-type": type,
    "content-disposition": disposition,
    "content-length": String(data.length),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  });
}
