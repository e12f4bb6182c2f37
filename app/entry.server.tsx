import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { createNonce, setPageSecurityHeaders } from "./lib/csp.server.ts";
import { NonceContext } from "./lib/nonce.ts";
import { startEmbeddedPlatform } from "./lib/platform.server.ts";
import { observe } from "../server/observe.mjs";

export const streamTimeout = 5_000;

/** The body's parts, for server.mjs (server/http.mjs reads it under the same name). */
const FINITE_BODY = Symbol.for("linkwise.finite-body");

// Start the embedded platform with the server (migrate, seed, print the demo credentials),
// rather than on the first request.
if (!process.env.API_URL && process.env.NODE_ENV === "production") {
  startEmbeddedPlatform().catch((err) => observe().logger.error({ err }, "the platform failed to start"));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // One nonce per page: React Router's inline scripts carry it, the policy allows only those.
  const nonce = createNonce();
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
    // React's chunks are kept as they come (its large strings, such as a table's rows, as strings)
    // and handed to server.mjs as they are (FINITE_BODY): it writes them to the socket in one
    // corked write. Concatenating them, and copying that into and out of a Response body, cost
    // three copies of every page and the garbage collections that this memory churn caused.
    const chunks: (Uint8Array | string)[] = [];
    let length = 0;
    // The destination React pipes into: a Node Writable cost a callback, a tick and its state
    // machine per chunk (a page writes a few hundred); React needs only write, end and on.
    const sink = {
      write(chunk: Uint8Array | string): boolean {
        chunks.push(chunk);
        length += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
        return true;
      },
      end() {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(length));
        if (responseStatusCode === 503) {
          // 'Service unavailable': without JavaScript the page retries by itself (a header, not
          // a <meta http-equiv="refresh">, which fails WCAG 2.2.1); with it, the page revalidates.
          responseHeaders.set("Refresh", "10");
          responseHeaders.set("Retry-After", "10");
        }
        setPageSecurityHeaders(responseHeaders, nonce, new URL(request.url).pathname, new URL(request.url).origin);
        // Any other reader (react-router-serve, a test) gets the same bytes from the body. The
        // high-water mark of 0 matters: with the default of 1 the stream pulls at once, to fill
        // its queue, and every page was copied into one buffer that server.mjs never reads.
        const body = new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              controller.enqueue(Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))));
              controller.close();
            },
          },
          { highWaterMark: 0 },
        );
        const response = new Response(body, { headers: responseHeaders, status: responseStatusCode });
        (response as Response & { [FINITE_BODY]?: unknown })[FINITE_BODY] = chunks;
        resolve(response);
      },
      // React listens for drain, error and close: none of them ever happens here (write never
      // refuses a chunk, and nothing else ends this sink).
      on() {
        return sink;
      },
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        // React 19.2+ outlines a finished Suspense boundary larger than this (to be moved into
        // place by an inline script): without JavaScript its content stayed hidden (the Top
        // Talkers chart). The whole page is written at once anyway (onAllReady).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          shellRendered = true;
          // why the cast: the type asks for a whole NodeJS.WritableStream; React's pipe calls
          // write, end and on only (react-dom-server.node's startFlowing and pipe).
          pipe(sink as unknown as NodeJS.WritableStream);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) observe().logger.error({ err: error }, "rendering failed after the shell");
        },
      },
    );
    timer = setTimeout(abort, streamTimeout + 1000);
  });
}
