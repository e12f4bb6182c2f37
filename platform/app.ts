import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { routePath } from "hono/route";
import { newRequestId, observe, validRequestId } from "../server/observe.mjs";
import { HTTPException } from "hono/http-exception";
import { apiLogMiddleware } from "./lib/apilog.ts";
import { authMiddleware } from "./lib/auth.ts";
import type { Env, PlatformDeps } from "./lib/context.ts";
import { ApiError, zodIssuesToDetail } from "./lib/errors.ts";
import { compressedOnce } from "./lib/compress.ts";
import { finishDocument, registerStandardResponses } from "./lib/openapi.ts";
import { renderApiReference } from "./lib/reference.ts";
import { refuseUnstorableText } from "./lib/text-guard.ts";
import { registerAccountCalls } from "./routes/account.ts";
import { registerAppServiceCalls } from "./routes/app-services.ts";
import { registerAuthCalls } from "./routes/auth.ts";
import { registerBillingCalls } from "./routes/billing.ts";
import { registerChangeLogCalls } from "./routes/change-log.ts";
import { registerContactCalls } from "./routes/contacts.ts";
import { registerDashboardCalls } from "./routes/dashboard.ts";
import { registerDevicesArea } from "./routes/devices.ts";
import { registerEndpointCalls } from "./routes/endpoints.ts";
import { registerEntityCalls } from "./routes/entities.ts";
import { registerHealthCalls } from "./routes/health.ts";
import { registerIamCalls } from "./routes/iam.ts";
import { registerOperationsCalls } from "./routes/operations.ts";
import { registerPcapCalls } from "./routes/pcap.ts";
import { registerSupportCalls } from "./routes/support.ts";
import { registerUserAgentCalls } from "./routes/user-agents.ts";
import { registerNodeCalls } from "./routes/nodes.ts";
import { registerAvailabilityCalls } from "./routes/availability.ts";
import { registerMonitoringInsightsCalls } from "./routes/monitoring-insights.ts";
import { registerMonitoringCalls } from "./routes/monitoring.ts";
import { registerReportCalls } from "./routes/reports.ts";

export const basePath = "/api/v1";
export type PlatformApp = OpenAPIHono<Env>;

/** A new OpenAPIHono whose request validation answers FastAPI-style 422s. */
export function newRouter(): PlatformApp {
  return new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const where = result.target === "query" ? "query" : "body";
        return c.json({ detail: zodIssuesToDetail(result.error.issues, where) }, 422);
      }
    },
  });
}

/**
 * Every answer of the platform (JSON, the reference page, downloads): not to be sniffed, framed
 * or leak its URL (docs/decisions/2026-11-23-hardening.md). A JSON answer opened in a browser runs
 * nothing; the reference page needs its own inline <style> only.
 */
export function securityHeaders(headers: Headers, isDocs: boolean) {
  const set = (name: string, value: string) => {
    try {
      if (!headers.has(name)) headers.set(name, value);
    } catch {
      // A response whose headers cannot change (proxied as it came): it keeps its own.
    }
  };
  set("X-Content-Type-Options", "nosniff");
  set("Referrer-Policy", "no-referrer");
  set("X-Frame-Options", "DENY");
  set(
    "Content-Security-Policy",
    isDocs
      ? "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
      : "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
}

export function createPlatformApp(deps: PlatformDeps): PlatformApp {
  // why: basePath() adds "/api/v1" to the app's type; the route files take the app without it (their
  // paths are relative to the base), and at run time it is the same OpenAPIHono.
  const app = newRouter().basePath(basePath) as unknown as PlatformApp;
  const obs = observe("platform");
  // One line per call (ACCESS_LOG=off silences it, as on the console).
  const accessLog = process.env.ACCESS_LOG !== "off";

  // Every call: its request id (the console's X-Request-Id, else a new one) on each log line and
  // on the answer, its span (the caller's traceparent as parent), its duration by call and status.
  app.use("*", async (c, next) => {
    const given = c.req.header("x-request-id");
    const requestId = validRequestId(given) ? given : newRequestId();
    c.set("requestId", requestId);
    const started = performance.now();
    await obs.runWithRequest(requestId, () =>
      obs.serverSpan(`${c.req.method} ${c.req.path}`, c.req.raw.headers, async (span) => {
        await next();
        span?.updateName(`${c.req.method} ${routePath(c)}`);
        span?.setAttribute("http.response.status_code", c.res.status);
      }),
    );
    const route = c.res.status === 404 && !c.get("caller") ? "unmatched" : routePath(c);
    const ms = performance.now() - started;
    obs.recordRequest(route, c.req.method, c.res.status, ms / 1000);
    if (accessLog) {
      // The query may hold a link's token: the logger scrubs secret-looking parameters from texts.
      const entry = { method: c.req.method, call: route, status: c.res.status, ms: Math.round(ms * 1000) / 1000, request_id: requestId };
      if (route.endsWith("/livez") || route.endsWith("/readyz")) obs.logger.debug(entry, "call");
      else obs.logger.info(entry, "call");
    }
    try {
      c.res.headers.set("X-Request-Id", requestId);
    } catch {
      // Headers that cannot change (an answer proxied as it came): it keeps its own.
    }
    // The content type before the body: @hono/node-server's light Response rebuilds itself from its
    // first headers when its body is read, which would drop the headers set above.
    if (/^text\/event-stream\b/i.test(c.res.headers.get("content-type") ?? "") && c.res.body) c.res = countedStream(c.res, obs.streamOpened());
  });

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
    securityHeaders(c.res.headers, c.req.path.endsWith("/docs"));
  });
  // The PCAP upload calls stream bodies of up to 10 GB: no 2 MB limit, and no API-log middleware
  // (it reads the body); they enforce their own limit and write their own log line.
  const streamsBody = (path: string) => path.includes("/upload-pcap");
  const limitBody = bodyLimit({
    maxSize: 2 * 1024 * 1024,
    onError: (c) => c.json({ detail: "Payload too large" }, 413),
  });
  app.use("*", (c, next) => (streamsBody(c.req.path) ? next() : limitBody(c, next)));
  app.use("*", authMiddleware(basePath));
  const logCall = apiLogMiddleware(basePath);
  app.use("*", (c, next) => (streamsBody(c.req.path) ? next() : logCall(c, next)));
  app.use("*", refuseUnstorableText((path) => !streamsBody(path)));

  registerAuthCalls(app);
  registerAccountCalls(app);
  registerIamCalls(app);
  registerEntityCalls(app);
  registerContactCalls(app);
  registerPcapCalls(app);
  registerSupportCalls(app);
  registerChangeLogCalls(app);
  registerBillingCalls(app);
  registerAppServiceCalls(app);
  registerEndpointCalls(app);
  registerDashboardCalls(app);
  registerDevicesArea(app);
  registerOperationsCalls(app);
  registerUserAgentCalls(app);
  registerNodeCalls(app);
  registerAvailabilityCalls(app);
  registerMonitoringInsightsCalls(app);
  registerMonitoringCalls(app);
  registerReportCalls(app);

  registerHealthCalls(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  registerStandardResponses(app.openAPIRegistry);
  // OpenAPI 3.1: nullable fields are `type: [..., "null"]` (JSON Schema), which validators and
  // generators read as is. The paths carry /api/v1, so the server is this origin's root.
  const generated = () =>
    app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: `${deps.config.productName} platform API`,
        version: "1",
        description:
          'Errors look like FastAPI\'s: `{"detail": "text"}` or `{"detail": [{"loc", "msg", "type"}]}`. Every call but the public ones needs `Authorization: Bearer <access_token>` from POST /token. ' +
          "Text holding a NUL character or a lone UTF-16 surrogate is refused in every field, query parameter and path (422); a text field's `pattern` names the control characters it refuses besides.",
      },
      servers: [{ url: "/", description: "This platform (every path starts with /api/v1)" }],
    });
  const document = () => finishDocument(generated());
  // 192 KB of JSON that changes only with the code: built once, compressed once per encoding.
  const openapiJson = compressedOnce(() => JSON.stringify(document()));
  app.get("/openapi.json", (c) => openapiJson(c.req.header("accept-encoding"), "application/json; charset=utf-8"));
  app.get("/docs", (c) => c.html(renderApiReference(document())));

  app.notFound((c) => c.json({ detail: "Not Found" }, 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json({ detail: err.detail } as never, err.status as never, err.headers);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      return c.json({ detail: err.message || "Bad request" }, status);
    }
    obs.logger.error({ err, method: c.req.method, path: c.req.path }, "unexpected error");
    return c.json({ detail: "Internal server error" }, 500);
  });
  return app;
}

/**
 * The same answer, whose stream counts as open (`closed` called once) until it ends, fails or its
 * reader goes away: the active-streams gauge.
 */
function countedStream(response: Response, closed: () => void): Response {
  // Headers first (see the note where this is called), then the body.
  const headers = new Headers(response.headers);
  const { status, statusText } = response;
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          closed();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        closed();
        controller.error(error);
      }
    },
    cancel(reason) {
      closed();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status, statusText, headers });
}
