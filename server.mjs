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

server.listen(port, host, () => {
  console.log(`[server] http://${host ?? "localhost"}:${port}`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    // Requests under way get 10 s; the platform thread closes its database meanwhile
    // (platform/thread/host.ts); whatever else is left does not keep the process alive.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
    setTimeout(() => process.exit(0), 12_000).unref();
  });
}
