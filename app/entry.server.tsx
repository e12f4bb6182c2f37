import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { startEmbeddedPlatform } from "./lib/platform.server.ts";

export const streamTimeout = 5_000;

// Start the embedded platform with the server (migrate, seed, print the demo credentials),
// rather than on the first request.
if (!process.env.API_URL && process.env.NODE_ENV === "production") {
  startEmbeddedPlatform().catch((err) => console.error("[platform] failed to start", err));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /*
     * The whole document is rendered, then sent as one buffer with its Content-Length. Every
     * loader has finished before rendering starts (no page defers data into <Suspense>), so
     * streaming the shell early would gain nothing, while piping React's ~2 KB chunks through a
     * Node stream, a web stream and the socket one by one cost more than rendering the rows of a
     * 50-row table (measured with npm run bench; docs/decisions/2026-11-22-platform-thread.md).
     */
    const chunks: Uint8Array[] = [];
    let length = 0;
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        chunks.push(chunk);
        length += chunk.byteLength;
        callback();
      },
      final(callback) {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(length));
        if (responseStatusCode === 503) {
          // 'Service unavailable': without JavaScript the page retries by itself (a header, not
          // a <meta http-equiv="refresh">, which fails WCAG 2.2.1); with it, the page revalidates.
          responseHeaders.set("Refresh", "10");
          responseHeaders.set("Retry-After", "10");
        }
        responseHeaders.set("X-Content-Type-Options", "nosniff");
        responseHeaders.set("Referrer-Policy", "same-origin");
        responseHeaders.set("X-Frame-Options", "SAMEORIGIN");
        resolve(new Response(Buffer.concat(chunks, length), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      onAllReady() {
        shellRendered = true;
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    timer = setTimeout(abort, streamTimeout + 1000);
  });
}
