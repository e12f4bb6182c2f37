// The console's production server: `node server.mjs [build/server/index.js]` (what `npm start`,
// the Dockerfile, the end-to-end tests and the benchmark run).
//
// A plain node:http server (server/http.mjs) in place of react-router-serve's express stack:
// docs/decisions/2026-11-23-lean-http-server.md says why and what it does.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createConsoleServer, keepServingOnUncaught } from "./server/http.mjs";

process.env.NODE_ENV ??= "production";
// No request may end the process (docs/decisions/2026-11-23-hardening.md).
keepServingOnUncaught();
const { createRequestHandler } = await import("react-router");

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;

const server = createConsoleServer({
  handler: createRequestHandler(build, process.env.NODE_ENV),
  // The build's client files first (as react-router-serve mounted them), then public/.
  statics: [
    { dir: path.resolve(path.dirname(buildPath), "..", "client"), cacheControl: "public, max-age=0", immutablePrefix: "/assets" },
    { dir: path.resolve("public"), cacheControl: "public, max-age=3600" },
  ],
  log: process.env.ACCESS_LOG === "off" ? false : (line) => process.stdout.write(`${line}\n`),
});

// Keep-alive a little longer than common proxies' idle timeouts, so they never reuse a closed socket.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// A port already taken (or not ours to take) ends the process: keepServingOnUncaught would
// otherwise keep a server running that serves nobody.
server.once("error", (error) => {
  console.error(`[server] cannot listen on ${host ?? "*"}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  console.log(`[server] http://${host ?? "localhost"}:${port}`);
});

// Shutdown in order: stop accepting, let the requests under way finish (they still need the
// platform), wait until no platform call has been made for a moment, then close the platform (its
// database checkpoints) and exit. platform/thread/host.ts leaves the platform's closing to this
// when the flag below is set.
globalThis[Symbol.for("linkwise.shutdown-by-server")] = true;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    // Whatever happens below, the process ends.
    setTimeout(() => process.exit(0), 25_000).unref();
    const drained = await server.drain(10_000);
    if (!drained) console.error("[server] requests still under way after 10 s: closing them");
    server.closeAllConnections();
    const thread = globalThis[Symbol.for("linkwise.platform-thread")];
    try {
      // A loader whose browser hung up is no longer a request under way, yet it may still be
      // between two platform calls: let the platform go quiet first (50 ms without a call).
      if (thread && !(await thread.settle(50, 5_000))) console.error("[server] platform calls still under way after 5 s: closing the platform");
      await thread?.close();
    } catch (error) {
      console.error("[server] closing the platform:", error);
    }
    process.exit(0);
  });
}
