import type { ServerResponse } from "node:http";
import { serve } from "@hono/node-server";
import { exitOnFatal, observe } from "../server/observe.mjs";
import { createPlatform } from "./index.ts";
import { configFromEnv } from "./lib/config.ts";
import { configOrExit } from "./lib/env-schema.ts";

// The platform on its own (scaled deployment): `npm run start:platform`. Its configuration is
// checked first: a variable missing or malformed ends the process with one line naming it.
const config = configOrExit(() => configFromEnv());
const obs = observe("platform");
const { logger } = obs;
// An uncaught exception leaves the process in an undefined state: log it, fail readiness, drain,
// exit 1 (docs/decisions/2026-12-03-observability-and-draining.md).
exitOnFatal((reason) => shutdown(reason, 1));

const port = config.port;
/** How long requests under way and event streams may go on after SIGTERM before they are closed. */
const drainMs = obs.config.drainTimeoutMs;
const platform = await createPlatform(config);

// /livez and /readyz at the root too, where orchestrators look for them (the same calls as /api/v1/…).
const healthPaths = new Set(["/livez", "/readyz"]);
const server = serve(
  {
    port,
    fetch(request) {
      const start = request.url.indexOf("/", request.url.indexOf("//") + 2);
      const pathname = request.url.slice(start).split("?")[0]!;
      if (healthPaths.has(pathname)) return platform.fetch(new Request(new URL(`/api/v1${pathname}`, request.url), request));
      return platform.fetch(request);
    },
  },
  (info) => logger.info({ url: `http://localhost:${info.port}/api/v1`, database: platform.deps.dbKind }, "listening"),
);

/** Answers under way (a request until its answer is written or its connection gone; a stream until it ends). */
const inFlight = new Set<ServerResponse>();
let onIdle: (() => void) | null = null;
server.on("request", (_req, res: ServerResponse) => {
  inFlight.add(res);
  if (stopping) res.setHeader("Connection", "close");
  res.once("close", () => {
    inFlight.delete(res);
    if (inFlight.size === 0) onIdle?.();
  });
});

/**
 * Draining, in order (docs/operations.md): readiness fails and the listener stops accepting; the
 * requests and event streams under way go on for up to DRAIN_TIMEOUT_MS and are then closed; then
 * the delivery worker, the fleet clock (its lock goes to another instance) and the pool close.
 */
let stopping: Promise<void> | null = null;
function shutdown(reason: string, code = 0): Promise<void> {
  stopping ??= (async () => {
    platform.drain();
    logger.info({ reason, inFlight: inFlight.size }, "shutting down: draining");
    setTimeout(() => process.exit(code), drainMs + 15_000).unref();
    server.close();
    if ("closeIdleConnections" in server) server.closeIdleConnections();
    if (inFlight.size > 0) {
      const drained = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), drainMs);
        onIdle = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!drained) logger.warn({ inFlight: inFlight.size }, `answers still under way after ${drainMs} ms: closing them`);
    }
    if ("closeAllConnections" in server) server.closeAllConnections();
    try {
      await platform.close();
    } catch (error) {
      logger.error({ err: error }, "closing the platform failed");
      code ||= 1;
    }
    await obs.shutdown();
    logger.info("stopped");
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown(signal));
