// Logs, request ids, metrics and traces for both tiers (docs/operations.md): the console's server
// (server.mjs, server/http.mjs, app/lib/*.server.ts) and the platform (platform/server.ts, its
// thread, platform/lib/*). Plain JavaScript, so server.mjs needs no TypeScript loader for it.
//
// One instance per thread, kept on globalThis: the console's build bundles its own copy of this
// module beside the one server.mjs imports, and both must share the logger, the request context
// and the meters.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { isMainThread } from "node:worker_threads";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { createRequire } from "node:module";
import http from "node:http";
import pino from "pino";
import { context, metrics, propagation, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";

/**
 * What this module reads from the environment, in one place (the configuration schema may take
 * these over as they are).
 * - LOG_LEVEL: pino's level (fatal, error, warn, info, debug, trace, silent); default info.
 * (TRUST_PROXY, the hops whose X-Request-Id and traceparent the console takes, is read by
 * server/http.mjs with server/client-address.mjs.)
 * - METRICS_PORT: Prometheus text on http://METRICS_HOST:METRICS_PORT/metrics; unset: no metrics.
 * - METRICS_HOST: the address the metrics listener binds to; default all interfaces.
 * - OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: traces exported over
 *   OTLP/HTTP there (OpenTelemetry's own variables); unset: no tracing at all.
 * - DRAIN_TIMEOUT_MS: how long the standalone platform lets requests and streams go on after
 *   SIGTERM (default 10000).
 */
export function observeConfigFromEnv(env = process.env) {
  const port = env.METRICS_PORT ? Number(env.METRICS_PORT) : null;
  if (port !== null && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`METRICS_PORT must be a port number (0-65535), not ${JSON.stringify(env.METRICS_PORT)}`);
  }
  const level = (env.LOG_LEVEL || "info").toLowerCase();
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(level)) {
    throw new Error(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not ${JSON.stringify(env.LOG_LEVEL)}`);
  }
  const drain = env.DRAIN_TIMEOUT_MS ? Number(env.DRAIN_TIMEOUT_MS) : 10_000;
  if (!(Number.isInteger(drain) && drain >= 0)) throw new Error(`DRAIN_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(env.DRAIN_TIMEOUT_MS)}`);
  const otlp = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || "";
  return {
    logLevel: level,
    metricsPort: port,
    metricsHost: env.METRICS_HOST || undefined,
    drainTimeoutMs: drain,
    tracing: Boolean(otlp) && env.OTEL_SDK_DISABLED !== "true" && env.OTEL_TRACES_EXPORTER !== "none",
  };
}

/** Keys whose values never reach a log line, at the top level and two levels down. */
const SECRET_KEYS = [
  "password",
  "new_password",
  "current_password",
  "token",
  "access_token",
  "refresh_token",
  "secret",
  "signing_secret",
  "webhook_secret",
  "client_secret",
  "authorization",
  "cookie",
  "set-cookie",
  "node_key",
  "private_key",
  "otp",
  "smtpUrl",
  "databaseUrl",
];
const REDACT_PATHS = SECRET_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const dot = key.startsWith("[") ? "" : ".";
  return [key, `*${dot}${key}`, `*.*${dot}${key}`];
});

/** Secrets inside a text (a message or an error): Bearer values, JWTs, a URL's password. */
const TEXT_SECRETS = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 ***"],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, "***"],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi, "$1:***@"],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, "whsec_***"],
  // A secret in a URL's query (a password link's token, a sign-in code).
  [/([?&;](?:[a-z_]*token|[a-z_]*password|[a-z_]*secret|code|otp|key)=)[^&#\s]*/gi, "$1***"],
];
export function scrubText(text) {
  if (typeof text !== "string" || !/bearer|basic|eyJ|:\/\/|whsec_|=/i.test(text)) return text;
  let out = text;
  for (const [re, to] of TEXT_SECRETS) out = out.replace(re, to);
  return out;
}

/** An error as a log field: its type, message and stack, with secrets scrubbed from the texts. */
function errorField(err) {
  if (!(err instanceof Error)) return typeof err === "string" ? scrubText(err) : err;
  const out = { type: err.name, message: scrubText(err.message), stack: scrubText(err.stack) };
  if (err.code !== undefined) out.code = err.code;
  if (err.cause !== undefined) out.cause = errorField(err.cause);
  return out;
}

/** A request id we take from outside: short, printable, no separators a log reader could trip on. */
const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
export const validRequestId = (value) => typeof value === "string" && REQUEST_ID.test(value);
export const newRequestId = () => randomUUID();

const KEY = Symbol.for("linkwise.observe");

/** The thread's instance (made on first use). `tier` names the process part: console or platform. */
export function observe(tier = "console") {
  globalThis[KEY] ??= create(tier);
  return globalThis[KEY];
}

function create(tier) {
  const config = observeConfigFromEnv();
  /** @type {AsyncLocalStorage<{ requestId: string }>} */
  const requests = new AsyncLocalStorage();
  let tracing = null;
  const logger = pino({
    level: config.logLevel,
    base: { tier },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: "***" },
    serializers: { err: errorField, error: errorField },
    hooks: {
      // Secrets inside the message text itself (a URL with a password, a bearer token).
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) if (typeof args[i] === "string") args[i] = scrubText(args[i]);
        return method.apply(this, args);
      },
    },
    mixin() {
      const store = requests.getStore();
      if (!store) return {};
      const span = tracing ? trace.getActiveSpan() : undefined;
      return span ? { request_id: store.requestId, trace_id: span.spanContext().traceId } : { request_id: store.requestId };
    },
  });

  tracing = config.tracing ? startTracing(tier, logger) : null;
  const metricsState = startMetrics(tier, config, logger);
  const meter = metrics.getMeter(`linkwise-${tier}`);

  const httpDuration = meter.createHistogram("http.server.request.duration", {
    description: "Time to answer an HTTP request (to its last byte)",
    unit: "s",
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
  });
  // The same requests counted: rates and error ratios by route without reading the histogram
  // (and what parse-prometheus-text-format, which flattens labelled histograms, reads by label).
  const httpRequests = meter.createCounter("http.server.requests", { description: "HTTP requests answered, by route (console) or call (platform), method and status" });
  const activeStreams = meter.createUpDownCounter("linkwise.streams.active", { description: "Event streams (server-sent events) open now" });

  const instance = {
    tier,
    config,
    logger,
    meter,
    /** Runs `fn` as the request `requestId` (every log line under it carries the id). */
    runWithRequest: (requestId, fn) => requests.run({ requestId }, fn),
    /** The request id of the request under way, if any. */
    requestId: () => requests.getStore()?.requestId,
    /** Records one answered request: by route (console) or call (platform), method and status. */
    recordRequest(route, method, status, seconds) {
      const attributes = { "http.route": route, "http.request.method": method, "http.response.status_code": status };
      httpDuration.record(seconds, attributes);
      httpRequests.add(1, attributes);
    },
    /** An event stream opened: the function it returns closes it (once). */
    streamOpened() {
      activeStreams.add(1);
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        activeStreams.add(-1);
      };
    },
    /**
     * A gauge read at each scrape: `read()` answers a number, or a list of `{ value, attributes }`
     * (queue depth, oldest job's age…). For other modules (the job queue) to register theirs.
     */
    registerGauge(name, description, read, unit) {
      const gauge = meter.createObservableGauge(name, { description, unit });
      gauge.addCallback(async (result) => {
        try {
          const value = await read();
          if (typeof value === "number") result.observe(value);
          else for (const v of value ?? []) result.observe(v.value, v.attributes);
        } catch (error) {
          logger.warn({ err: error, gauge: name }, "a gauge could not be read");
        }
      });
    },
    /**
     * A server span for an incoming request, carrying its W3C traceparent when `headers` (a
     * Headers or a plain object) may be trusted; `fn` runs inside it. Without tracing, just `fn`.
     */
    serverSpan(name, headers, fn) {
      if (!tracing) return fn(undefined);
      const parent = headers ? propagation.extract(context.active(), headers, headerGetter) : context.active();
      return tracing.tracer.startActiveSpan(name, { kind: SpanKind.SERVER }, parent, async (span) => {
        try {
          return await fn(span);
        } catch (error) {
          span.recordException(error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    /** The headers that carry this request to the platform: X-Request-Id and traceparent. */
    outgoingHeaders(headers) {
      const id = requests.getStore()?.requestId;
      if (id) headers["x-request-id"] = id;
      if (tracing) propagation.inject(context.active(), headers);
      return headers;
    },
    /** A client span around a platform call (tracing on), else just `fn`. */
    clientSpan(name, fn) {
      if (!tracing) return fn();
      return tracing.tracer.startActiveSpan(name, { kind: SpanKind.CLIENT }, async (span) => {
        try {
          return await fn();
        } finally {
          span.end();
        }
      });
    },
    /** Platform-thread metrics for the main thread's exporter (see addMetricSource). */
    collectForParent: metricsState.collectForParent,
    /** On the main thread: a source of more scope metrics (the platform thread's) for each scrape. */
    addMetricSource: metricsState.addSource,
    /** The metrics listener's port, once it listens (tests ask with METRICS_PORT=0). */
    metricsPort: metricsState.port,
    async shutdown() {
      await Promise.allSettled([metricsState.shutdown(), tracing?.shutdown()]);
    },
  };
  return instance;
}

const headerGetter = {
  keys: (carrier) => (typeof carrier.keys === "function" ? [...carrier.keys()] : Object.keys(carrier)),
  get: (carrier, key) => (typeof carrier.get === "function" ? (carrier.get(key) ?? undefined) : carrier[key]),
};

/**
 * Traces: OTLP/HTTP to OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT (the exporter reads OpenTelemetry's
 * own variables: headers, timeout, compression), W3C traceparent propagation, and node-postgres'
 * queries as spans. Loaded only when tracing is asked for: nothing of it costs anything otherwise.
 */
function startTracing(tier, logger) {
  const require = createRequire(import.meta.url);
  const { TracerProvider, BatchSpanProcessor } = require("@opentelemetry/sdk-trace");
  const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
  const { AsyncLocalStorageContextManager } = require("@opentelemetry/context-async-hooks");
  const { W3CTraceContextPropagator } = require("@opentelemetry/core");
  const { resourceFromAttributes } = require("@opentelemetry/resources");
  const { registerInstrumentations } = require("@opentelemetry/instrumentation");
  const { PgInstrumentation } = require("@opentelemetry/instrumentation-pg");
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME || `linkwise-${tier}` }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // node-postgres is loaded with require() (platform/db/client.ts) so that this hook sees it.
  registerInstrumentations({ tracerProvider: provider, instrumentations: [new PgInstrumentation({ requireParentSpan: true })] });
  logger.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT }, "traces exported over OTLP/HTTP");
  return { tracer: trace.getTracer(`linkwise-${tier}`), shutdown: () => provider.shutdown() };
}

/**
 * Metrics: the main thread of a process with METRICS_PORT serves Prometheus text on its own
 * listener (never the customers' port); the platform thread of the embedded console collects its
 * own on demand and hands them to the main thread's scrape (platform/thread/host.ts). Without
 * METRICS_PORT no meter provider is registered and every instrument is a no-op.
 */
function startMetrics(tier, config, logger) {
  const state = {
    port: () => null,
    addSource: () => {},
    collectForParent: async () => [],
    shutdown: async () => {},
  };
  if (config.metricsPort === null) return state;
  const require = createRequire(import.meta.url);
  const { MeterProvider, MetricReader } = require("@opentelemetry/sdk-metrics");
  const { resourceFromAttributes } = require("@opentelemetry/resources");
  const resource = resourceFromAttributes({ "service.name": `linkwise-${tier}` });
  let reader;
  if (isMainThread) {
    const { PrometheusExporter } = require("@opentelemetry/exporter-prometheus");
    const sources = [];
    reader = new PrometheusExporter({
      // Served by the listener below, which answers /metrics only.
      preventServerStart: true,
      // The platform thread's metrics, collected at each scrape.
      metricProducers: [
        {
          async collect() {
            const scopeMetrics = (await Promise.all(sources.map((s) => s().catch(() => [])))).flat();
            return { resourceMetrics: { resource, scopeMetrics }, errors: [] };
          },
        },
      ],
    });
    const server = http.createServer((req, res) => {
      if (req.url === "/metrics" || req.url?.startsWith("/metrics?")) return reader.getMetricsRequestHandler(req, res);
      res.statusCode = 404;
      res.end("Not Found");
    });
    server.on("error", (error) => logger.error({ err: error }, "the metrics listener could not start"));
    server.listen(config.metricsPort, config.metricsHost, () => logger.info({ port: server.address().port }, "metrics on /metrics"));
    // The listener never keeps the process alive on its own.
    server.unref();
    state.port = () => server.address()?.port ?? null;
    state.addSource = (source) => sources.push(source);
    const closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    state.closeServer = closeServer;
  } else {
    // The platform thread: no listener of its own; the main thread asks (collectForParent).
    class ParentReader extends MetricReader {
      async onShutdown() {}
      async onForceFlush() {}
    }
    reader = new ParentReader();
    state.collectForParent = async () => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics;
    };
  }
  const provider = new MeterProvider({ resource, readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  runtimeMetrics(metrics.getMeter(`linkwise-${tier}`), isMainThread ? tier : `${tier}-thread`);
  state.shutdown = async () => {
    await state.closeServer?.();
    await provider.shutdown();
  };
  return state;
}

/** Event-loop delay and garbage collection of this thread. */
function runtimeMetrics(meter, thread) {
  const resolutionMs = 20;
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  // The histogram holds the time between its timer's runs: the delay is what exceeds the period.
  const late = (ns) => Math.max(0, ns / 1e6 - resolutionMs) / 1000;
  delay.enable();
  const attributes = { thread };
  meter
    .createObservableGauge("nodejs.eventloop.delay", { description: "Event-loop delay since the last scrape", unit: "s" })
    .addCallback((result) => {
      if (delay.count === 0) return;
      result.observe(late(delay.percentile(50)), { ...attributes, quantile: "p50" });
      result.observe(late(delay.percentile(99)), { ...attributes, quantile: "p99" });
      result.observe(late(delay.max), { ...attributes, quantile: "max" });
      delay.reset();
    });
  const gc = meter.createHistogram("nodejs.gc.duration", {
    description: "Garbage collection pauses",
    unit: "s",
    advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5] },
  });
  const kinds = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb" };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc.record(entry.duration / 1000, { ...attributes, "gc.type": kinds[entry.detail?.kind] ?? "other" });
  }).observe({ entryTypes: ["gc"] });
}

/**
 * After an uncaught exception or an unhandled rejection the process is in an undefined state
 * (Node's documentation): log it, then `shutdown(reason)` (readiness fails, requests under way
 * drain, resources close), then exit 1, whatever happens in between
 * (docs/decisions/2026-12-03-observability-and-draining.md).
 */
export function exitOnFatal(shutdown, logger = observe().logger) {
  let fatal = false;
  const handle = (what) => (error) => {
    logger.fatal({ err: error }, `${what}: draining, then exiting`);
    if (fatal) return;
    fatal = true;
    process.exitCode = 1;
    Promise.resolve()
      .then(() => shutdown(what))
      .catch((e) => logger.error({ err: e }, "shutdown after a fatal error failed"))
      .finally(() => process.exit(1));
  };
  process.on("uncaughtException", handle("uncaught exception"));
  process.on("unhandledRejection", handle("unhandled rejection"));
}
