import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export const streamTimeout = 5_000;

// Start the embedded platform with the server (migrate, seed, print the demo credentials),
// rather than on the first request.
if (!process.env.API_URL && process.env.NODE_ENV === "production") {
  import("../platform/index.ts").then((m) => m.getPlatform()).catch((err) => console.error("[platform] failed to start", err));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Bots and no-JS clients get the whole document at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        if (responseStatusCode === 503) {
          // 'Service unavailable': without JavaScript the page retries by itself (a header, not
          // a <meta http-equiv="refresh">, which fails WCAG 2.2.1); with it, the page revalidates.
          responseHeaders.set("Refresh", "10");
          responseHeaders.set("Retry-After", "10");
        }
        responseHeaders.set("X-Content-Type-Options", "nosniff");
        responseHeaders.set("Referrer-Policy", "same-origin");
        responseHeaders.set("X-Frame-Options", "SAMEORIGIN");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
