// The console's HTTP server (docs/decisions/2026-11-23-lean-http-server.md): static files from
// memory, everything else through a fetch-style handler (React Router's in production). Plain
// JavaScript, so production needs no TypeScript loader for it; server.mjs starts it.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { parseTrustProxy, resolveClientAddress } from "./client-address.mjs";
import { newRequestId, observe, validRequestId } from "./observe.mjs";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** A page's body as parts (app/entry.server.tsx sets it): written as they are when not gzipped. */
const FINITE_BODY = Symbol.for("linkwise.finite-body");

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".pdf": "application/pdf",
};
const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
/** Bodies up to this size are held in memory (static files) or sent in one write (answers). */
export const IN_MEMORY_MAX = 4 * 1024 * 1024;

/**
 * Lists a folder's files once: url path → answer. Dot files and folders are never served (as
 * express.static); a path already listed by an earlier root wins.
 */
export function listStatics(roots) {
  const statics = new Map();
  const add = (dir, urlPrefix, cacheControl, immutablePrefix) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const file = path.join(dir, entry.name);
      const url = `${urlPrefix}/${entry.name}`;
      if (entry.isDirectory()) {
        add(file, url, url === immutablePrefix ? "public, max-age=31536000, immutable" : cacheControl, immutablePrefix);
        continue;
      }
      if (!entry.isFile() || statics.has(url)) continue;
      const stat = fs.statSync(file);
      const type = TYPES[path.extname(entry.name).toLowerCase()] ?? "application/octet-stream";
      const body = stat.size <= IN_MEMORY_MAX ? fs.readFileSync(file) : null;
      const gz = body && body.length >= 1024 && COMPRESSIBLE.test(type) ? zlib.gzipSync(body, { level: 9 }) : null;
      statics.set(url, {
        file,
        body,
        gz: gz && gz.length < body.length * 0.9 ? gz : null,
        size: stat.size,
        type,
        cacheControl,
        etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
        lastModified: stat.mtime.toUTCString(),
      });
    }
  };
  for (const root of roots) add(root.dir, "", root.cacheControl, root.immutablePrefix);
  return statics;
}

function acceptsGzip(req) {
  const accept = req.headers["accept-encoding"];
  return typeof accept === "string" && /\bgzip\b/.test(accept) && !/\bgzip\s*;\s*q=0(\.0*)?\s*(,|$)/.test(accept);
}

function acceptsBrotli(req) {
  const accept = req.headers["accept-encoding"];
  return typeof accept === "string" && /\bbr\b/.test(accept) && !/\bbr\s*;\s*q=0(\.0*)?\s*(,|$)/.test(accept);
}

function serveStatic(req, res, file) {
  res.setHeader("Cache-Control", file.cacheControl);
  res.setHeader("ETag", file.etag);
  res.setHeader("Last-Modified", file.lastModified);
  res.setHeader("Content-Type", file.type);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (file.gz) res.setHeader("Vary", "Accept-Encoding");
  const match = req.headers["if-none-match"];
  if (match && match.split(/\s*,\s*/).some((tag) => tag === file.etag || tag === "*")) {
    res.statusCode = 304;
    return res.end();
  }
  const useGz = file.gz && acceptsGzip(req);
  const body = useGz ? file.gz : file.body;
  if (useGz) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body ? body.length : file.size);
  if (req.method === "HEAD") return res.end();
  if (body) return res.end(body);
  fs.createReadStream(file.file)
    .on("error", () => res.destroy())
    .pipe(res);
}

/** Bytes of an unread body discarded after the answer, at most; beyond that the connection is closed. */
export const DRAIN_MAX = 64 * 1024 * 1024;
/** Time an unread body may take to arrive after the answer before the connection is closed. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * The request's body as a web stream, and `discard()`, which drops whatever of it is still to come.
 *
 * Not Node 20's `Readable.toWeb(req)`: when its stream is cancelled (the PCAP upload cancels the
 * body of a form it cannot read; React Router's copy of the request tees it) while the socket is
 * still delivering data, it enqueues into its closed controller from an event handler, and the
 * ERR_INVALID_STATE thrown there ends the whole process (issue 10, item 1). Here every chunk after
 * a cancel, an end or an error is dropped, and nothing in an event handler can throw.
 */
function bodyStream(req) {
  let closed = false;
  let controller;
  const settle = (fn) => {
    if (closed) return;
    closed = true;
    try {
      fn();
    } catch {
      // Already closed by its reader: nothing left to tell it.
    }
  };
  req.on("data", (chunk) => {
    if (closed) return;
    try {
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (controller.desiredSize <= 0) req.pause();
    } catch {
      closed = true;
    }
  });
  req.on("end", () => settle(() => controller.close()));
  req.on("error", (error) => settle(() => controller.error(error)));
  req.on("close", () => {
    if (!req.complete) settle(() => controller.error(new Error("the client went away before its body was complete")));
  });
  req.pause();
  const stream = new ReadableStream(
    {
      start(c) {
        controller = c;
      },
      pull() {
        req.resume();
      },
      cancel() {
        // The reader wants no more: the rest is read and dropped, so the connection can carry its
        // next request (keep-alive) and the client gets the answer instead of a reset.
        closed = true;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  const discard = () => {
    closed = true;
    req.resume();
  };
  return { stream, discard };
}

/**
 * After the answer: a body nobody read (a redirect to /login before an upload was read) is read
 * and dropped, or the connection would wait for it forever and its next request get no answer
 * (issue 10, item 3). A body too large or too slow to be worth it closes the connection instead.
 */
function drainAfterAnswer(req, discard) {
  if (req.complete || req.destroyed) return;
  discard();
  let dropped = 0;
  const timer = setTimeout(() => req.socket?.destroy(), DRAIN_TIMEOUT_MS);
  timer.unref?.();
  const count = (chunk) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX) req.socket?.destroy();
  };
  req.on("data", count);
  const stop = () => {
    clearTimeout(timer);
    req.off("data", count);
  };
  req.once("end", stop);
  req.once("close", stop);
}

function toRequest(req, res, origin, trusted) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  // X-Forwarded-For becomes the one address this server vouches for (the peer's, or a trusted
  // hop's report): the console sends it on to the platform, for the abuse limits.
  const client = resolveClientAddress(req.socket.remoteAddress ?? "", headers.get("x-forwarded-for"), trusted);
  if (client) headers.set("x-forwarded-for", client);
  else headers.delete("x-forwarded-for");
  const init = { method: req.method, headers, signal: controller.signal };
  let discard = null;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = bodyStream(req);
    init.body = body.stream;
    init.duplex = "half";
    discard = body.discard;
  }
  const request = new Request(`${origin(req)}${req.url}`, init);
  if (discard) res.once("finish", () => drainAfterAnswer(req, discard));
  return request;
}

/**
 * What every answer that is not a static file carries unless it set its own: pages get their
 * policy and nonce from app/entry.server.tsx; JSON, downloads and plain errors run nothing, so
 * they get a policy that allows nothing (docs/decisions/2026-11-23-hardening.md).
 */
function setBaselineHeaders(res, headers) {
  if (!headers.has("x-content-type-options")) res.setHeader("X-Content-Type-Options", "nosniff");
  if (!headers.has("referrer-policy")) res.setHeader("Referrer-Policy", "same-origin");
  if (!headers.has("x-frame-options")) res.setHeader("X-Frame-Options", "DENY");
  if (!headers.has("content-security-policy")) {
    const html = /^text\/html\b/i.test(headers.get("content-type") ?? "");
    res.setHeader(
      "Content-Security-Policy",
      html ? "object-src 'none'; base-uri 'self'; frame-ancestors 'none'" : "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  }
}

async function sendResponse(req, res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  setBaselineHeaders(res, response.headers);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body || req.method === "HEAD" || response.status === 204 || response.status === 304) {
    await response.body?.cancel().catch(() => {});
    return res.end();
  }
  const type = response.headers.get("content-type") ?? "";
  const length = Number(response.headers.get("content-length") ?? NaN);
  const gzipped = (size) =>
    size >= 1024 && COMPRESSIBLE.test(type) && !response.headers.has("content-encoding") && acceptsGzip(req);
  const parts = response[FINITE_BODY];
  if (Array.isArray(parts) && Number.isFinite(length) && !gzipped(length)) {
    // A page rendered by app/entry.server.tsx: its parts (strings and bytes) straight to the
    // socket, in one corked write, without copying them into one buffer first.
    await response.body?.cancel().catch(() => {});
    res.setHeader("Content-Length", length);
    res.cork();
    for (const part of parts) res.write(part);
    return res.end();
  }
  if (!Number.isFinite(length) && /^application\/json\b/.test(type) && !response.headers.has("content-encoding")) {
    // JSON without a length (React Router's /__manifest, Response.json): finite by nature, and a
    // large app's manifest is tens of KB: brotli when the browser accepts it, else gzip.
    let body = Buffer.from(await response.arrayBuffer());
    const encoding = body.length < 1024 ? null : acceptsBrotli(req) ? "br" : acceptsGzip(req) ? "gzip" : null;
    if (encoding) {
      body = encoding === "br" ? await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) : await gzip(body);
      res.setHeader("Content-Encoding", encoding);
      const vary = response.headers.get("vary");
      res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    }
    res.setHeader("Content-Length", body.length);
    return res.end(body);
  }
  if (Number.isFinite(length) && length <= IN_MEMORY_MAX) {
    // A finite body (every page, the JSON calls): one write, gzipped for browsers when it is text.
    let body = Buffer.from(await response.arrayBuffer());
    if (gzipped(body.length)) {
      body = await gzip(body);
      res.setHeader("Content-Encoding", "gzip");
      const vary = response.headers.get("vary");
      res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    }
    res.setHeader("Content-Length", body.length);
    return res.end(body);
  }
  // Anything else (downloads, event streams): chunk by chunk with backpressure, as written.
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => reader.cancel().catch(() => {});
  res.on("close", stop);
  const streamClosed = /^text\/event-stream\b/i.test(type) ? observe().streamOpened() : null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      // A client that hangs up sends no "drain": wait for either, or the handler never returns.
      if (!res.write(value)) await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    }
    if (res.destroyed) await reader.cancel().catch(() => {});
    else res.end();
  } catch {
    res.destroy();
  } finally {
    res.off("close", stop);
    streamClosed?.();
  }
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The route a request is counted under in the metrics: its path with every segment that looks like
 * an id (a digit in it, or long) as `:id`, and React Router's `.data` suffix dropped. Static files
 * and unknown paths (404) are counted together, so that no client can grow the label set.
 */
export function metricRoute(pathname, status, isStatic) {
  if (isStatic) return "static";
  if (status === 404) return "unmatched";
  const path = pathname.endsWith(".data") ? pathname.slice(0, -5) : pathname;
  return path.split("/").map((seg) => (/\d/.test(seg) || seg.length > 24 ? ":id" : seg)).join("/") || "/";
}

/**
 * The server: `handler(request) → Response` for everything that is not a static file.
 * `statics`: roots in order of precedence, `{ dir, cacheControl, immutablePrefix? }`.
 * `log`: called with one access-log entry per request (an object: method, url, status, bytes, ms,
 * request_id), or false.
 * `health`: `{ ready() → Promise<{ ok, checks }> }` answers /readyz (503 while draining or not
 * ready); /livez answers 200 while the process serves. Without it neither path is special.
 * `trustProxy` (TRUST_PROXY, server/client-address.mjs): the hops whose X-Forwarded-For names the
 * client, and whose X-Request-Id and traceparent are taken (a balancer in front sets them); from
 * any other peer every request gets a new id. Every answer carries its X-Request-Id.
 */
export function createConsoleServer({
  handler,
  statics: roots = [],
  log = false,
  health = null,
  trustProxy = process.env.TRUST_PROXY,
  origin = (req) => `http://${req.headers.host || "localhost"}`,
}) {
  const obs = observe("console");
  const statics = listStatics(roots);
  // Read at start: a malformed TRUST_PROXY stops the server (docs/decisions/2026-12-03-abuse-limits.md).
  const trusted = parseTrustProxy(trustProxy);
  /** @type {Set<http.ServerResponse>} */
  const inFlight = new Set();
  let stopping = false;
  /** @type {Array<() => void>} */
  const idle = [];
  const server = http.createServer((req, res) => {
    // A request is under way until its answer is written (or its connection gone) and its handler
    // has returned: a client that hangs up does not stop a loader that still uses the platform.
    inFlight.add(res);
    let holds = 2;
    const release = () => {
      if (--holds > 0) return;
      inFlight.delete(res);
      if (inFlight.size === 0 && idle.length) for (const done of idle.splice(0)) done();
    };
    res.once("close", release);
    const fromTrustedHop = trusted(req.socket.remoteAddress ?? "");
    const given = fromTrustedHop ? req.headers["x-request-id"] : undefined;
    const requestId = validRequestId(given) ? given : newRequestId();
    res.setHeader("X-Request-Id", requestId);
    return obs.runWithRequest(requestId, async () => {
      try {
        await serve(req, res, requestId);
      } finally {
        release();
      }
    });
  });
  /** True while the server takes requests (not draining) and `health.ready` says so. */
  server.ready = async () => {
    if (stopping) return { ok: false, checks: { draining: true } };
    return health ? health.ready() : { ok: true, checks: {} };
  };
  async function answerHealth(req, res, pathname) {
    let status = 200;
    let body = { status: "ok" };
    if (pathname === "/readyz") {
      const { ok, checks } = await server.ready().catch((error) => ({ ok: false, checks: { error: error.message } }));
      status = ok ? 200 : 503;
      body = { status: ok ? "ready" : "not ready", ...checks };
    }
    res.statusCode = status;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.end(JSON.stringify(body));
  }
  async function serve(req, res, requestId) {
    // Shutting down: answer what is under way, then let each connection go.
    if (stopping) res.setHeader("Connection", "close");
    // A stream error with no listener is thrown by Node as an uncaught exception: never let a
    // broken connection do that (the errors themselves end the request, which is all they mean).
    req.on("error", ignore);
    res.on("error", ignore);
    const started = performance.now();
    const q = req.url.indexOf("?");
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    let isStatic = false;
    res.on("finish", () => {
      const ms = performance.now() - started;
      obs.recordRequest(metricRoute(pathname, res.statusCode, isStatic), req.method, res.statusCode, ms / 1000);
      if (log) log({ method: req.method, url: req.url, status: res.statusCode, bytes: res.getHeader("content-length") ?? null, ms: Math.round(ms * 1000) / 1000, request_id: requestId });
    });
    try {
      if (health && (pathname === "/livez" || pathname === "/readyz")) return await answerHealth(req, res, pathname);
      if (req.method === "GET" || req.method === "HEAD") {
        const file = statics.get(pathname) ?? (pathname.includes("%") ? statics.get(safeDecode(pathname)) : undefined);
        if (file) {
          isStatic = true;
          return serveStatic(req, res, file);
        }
      }
      let request;
      try {
        request = toRequest(req, res, origin, trusted);
      } catch {
        // A request line or header that no URL or Headers accepts (`GET *`, a Host with spaces).
        res.statusCode = 400;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        return res.end("Bad Request");
      }
      await obs.serverSpan(`${req.method} ${metricRoute(pathname, 200, false)}`, trusted(req.socket.remoteAddress ?? "") ? request.headers : null, async (span) => {
        const response = await handler(request);
        span?.setAttribute("http.response.status_code", response.status);
        await sendResponse(req, res, response);
      });
    } catch (error) {
      // A client that hung up mid-body is not a fault of ours: logged, not as an error.
      const clientGone = error?.code === "ECONNRESET" || (req.destroyed && !req.complete);
      if (clientGone) obs.logger.info({ err: error, method: req.method, url: req.url }, "the client went away");
      else obs.logger.error({ err: error, method: req.method, url: req.url }, "the request failed");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Internal Server Error");
      } else {
        res.destroy();
      }
    }
  }
  // A request Node's parser refuses (a malformed header line, an oversized header): 400, then close.
  server.on("clientError", (error, socket) => {
    if (socket.writable && !socket.writableEnded && error.code !== "ECONNRESET") {
      socket.end("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 11\r\nConnection: close\r\n\r\nBad Request");
    }
    socket.destroy();
  });
  /**
   * Stops accepting connections and resolves once the requests under way are answered (or after
   * `ms`): what a shutdown waits for before closing what those requests still use (the platform).
   */
  server.drain = (ms) => {
    stopping = true;
    server.close();
    server.closeIdleConnections();
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    if (inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref?.();
      idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  };
  return server;
}

function ignore() {}

