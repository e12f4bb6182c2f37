// The console's production server: `node server.mjs [build/server/index.js]` (what `npm start`,
// the Dockerfile, the end-to-end tests and the benchmark run).
//
// A plain node:http server (server/http.mjs) in place of react-router-serve's express stack:
// docs/decisions/2026-11-23-lean-http-server.md says why and what it does.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createConsoleServer } from "./server/http.mjs";
import { exitOnFatal, observe } from "./server/observe.mjs";

process.env.NODE_ENV ??= "production";
const obs = observe("console");
const { logger } = obs;
// An uncaught exception leaves the process in an undefined state: log it, fail readiness, drain,
// exit 1 (docs/decisions/2026-12-03-observability-and-draining.md). Requests' own errors are
// caught where they happen and never get here.
// Set once the server exists: a fatal error before that (the build cannot be loaded, say) has
// nothing to drain, and is logged and ends the process at once.
let stopping = null;
let serving = false;
exitOnFatal((reason) => {
  if (serving) return shutdown(reason, 1);
  logger.fatal({ reason }, "failed before serving");
  process.exit(1);
});
const { createRequestHandler } = await import("react-router");

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;
const apiUrl = (process.env.API_URL || "").replace(/\/$/, "") || null;

/**
 * The platform's readiness as the console reaches it (its database reachable, its migrations
 * current): over HTTP with API_URL, else through the embedded platform (its thread, or in process).
 */
async function platformReady() {
  const signal = AbortSignal.timeout(2_000);
  try {
    if (apiUrl) {
      const response = await fetch(`${apiUrl}/api/v1/readyz`, { signal, headers: obs.outgoingHeaders({}) });
      return { ok: response.ok, detail: await response.json().catch(() => null) };
    }
    const thread = globalThis[Symbol.for("linkwise.platform-thread")];
    const inProcess = globalThis[Symbol.for("linkwise.platform")];
    const url = "http://platform.internal/api/v1/readyz";
    const answer = thread?.alive()
      ? await Promise.race([thread.text("GET", url, [], null), new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)))])
      : inProcess
        ? await (await inProcess).fetch(new Request(url, { signal })).then(async (r) => ({ status: r.status, text: await r.text() }))
        : null;
    if (!answer) return { ok: false, detail: "the platform has not started" };
    return { ok: answer.status === 200, detail: JSON.parse(answer.text || "null") };
  } catch (error) {
    return { ok: false, detail: `unreachable: ${error.message}` };
  }
}

const server = createConsoleServer({
  handler: createRequestHandler(build, process.env.NODE_ENV),
  // The build's client files first (as react-router-serve mounted them), then public/.
  statics: [
    { dir: path.resolve(path.dirname(buildPath), "..", "client"), cacheControl: "public, max-age=0", immutablePrefix: "/assets" },
    { dir: path.resolve("public"), cacheControl: "public, max-age=3600" },
  ],
  // Probes every few seconds would drown the log: they are logged at debug level.
  log:
    process.env.ACCESS_LOG === "off"
      ? false
      : (entry) => (entry.url === "/livez" || entry.url === "/readyz" ? logger.debug(entry, "request") : logger.info(entry, "request")),
  health: {
    async ready() {
      const platform = await platformReady();
      return { ok: platform.ok, checks: { platform: platform.detail } };
    },
  },
  // TRUST_PROXY's hops (server/client-address.mjs): their X-Forwarded-For, X-Request-Id and traceparent are believed.
  trustProxy: process.env.TRUST_PROXY,
});

// Keep-alive a little longer than common proxies' idle timeouts, so they never reuse a closed socket.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// A port already taken (or not ours to take) ends the process.
server.once("error", (error) => {
  logger.fatal({ err: error, host: host ?? "*", port }, "cannot listen");
  process.exit(1);
});
server.listen(port, host, () => {
  logger.info({ url: `http://${host ?? "localhost"}:${server.address().port}` }, "listening");
});

// Shutdown in order: readiness fails and the server stops accepting, the requests under way
// finish (they still need the platform), no platform call has been made for a moment, then the
// platform closes (its database checkpoints) and the process exits. platform/thread/host.ts
// leaves the platform's closing to this when the flag below is set.
globalThis[Symbol.for("linkwise.shutdown-by-server")] = true;
serving = true;
function shutdown(reason, code = 0) {
  stopping ??= (async () => {
    logger.info({ reason }, "shutting down: draining");
    // Whatever happens below, the process ends.
    setTimeout(() => process.exit(code), 25_000).unref();
    const drained = await server.drain(10_000);
    if (!drained) logger.warn("requests still under way after 10 s: closing them");
    server.closeAllConnections();
    const thread = globalThis[Symbol.for("linkwise.platform-thread")];
    try {
      // A loader whose browser hung up is no longer a request under way, yet it may still be
      // between two platform calls: let the platform go quiet first (50 ms without a call).
      if (thread && !(await thread.settle(50, 5_000))) logger.warn("platform calls still under way after 5 s: closing the platform");
      await thread?.close();
    } catch (error) {
      logger.error({ err: error }, "closing the platform failed");
    }
    await obs.shutdown();
    logger.info("stopped");
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => void shutdown(signal));
