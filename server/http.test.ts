import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsoleServer, metricRoute, type AccessLogEntry } from "./http.mjs";

// The console's HTTP server with a stand-in handler: what reaches the browser, byte for byte.

/** A raw GET/POST with node:http, so nothing decodes or adds headers behind our back. */
function raw(base: string, pathname: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; chunks: number[] }>((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      const started = Date.now();
      const chunks: number[] = [];
      res.on("data", (d: Buffer) => {
        parts.push(d);
        chunks.push(Date.now() - started);
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts), chunks }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

describe("the console's HTTP server", () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  const seen: { method: string; url: string; body: string; cookie: string | null }[] = [];
  const lines: AccessLogEntry[] = [];
  let aborted = false;
  const page = `<!DOCTYPE html><html><body>${"<p>row</p>".repeat(300)}</body></html>`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-http-"));
    fs.mkdirSync(path.join(dir, "client", "assets"), { recursive: true });
    fs.mkdirSync(path.join(dir, "public"));
    fs.writeFileSync(path.join(dir, "client", "assets", "app-123.js"), `console.log(${JSON.stringify("x".repeat(5000))});`);
    fs.writeFileSync(path.join(dir, "client", "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    fs.writeFileSync(path.join(dir, "client", ".secret"), "never");
    fs.writeFileSync(path.join(dir, "public", "favicon.svg"), "<svg>public</svg>");
    fs.writeFileSync(path.join(dir, "public", "robots.txt"), "User-agent: *");
    server = createConsoleServer({
      statics: [
        { dir: path.join(dir, "client"), cacheControl: "public, max-age=0", immutablePrefix: "/assets" },
        { dir: path.join(dir, "public"), cacheControl: "public, max-age=3600" },
      ],
      log: (entry) => lines.push(entry),
      async handler(request) {
        const url = new URL(request.url);
        seen.push({ method: request.method, url: url.pathname + url.search, body: request.body ? await request.text() : "", cookie: request.headers.get("cookie") });
        if (url.pathname === "/__manifest") return Response.json({ patches: "m".repeat(4000) });
        if (url.pathname === "/page") {
          const headers = new Headers({ "content-type": "text/html; charset=utf-8", "content-length": String(Buffer.byteLength(page)) });
          headers.append("set-cookie", "a=1; Path=/; HttpOnly");
          headers.append("set-cookie", "b=2; Path=/; HttpOnly");
          return new Response(page, { status: 200, headers });
        }
        if (url.pathname === "/events") {
          let n = 0;
          const stream = new ReadableStream({
            async pull(controller) {
              await new Promise((r) => setTimeout(r, 60));
              controller.enqueue(new TextEncoder().encode(`data: ${n}\n\n`));
              if (++n === 3) controller.close();
            },
          });
          return new Response(stream, { headers: { "content-type": "text/event-stream" } });
        }
        if (url.pathname === "/slow") {
          request.signal.addEventListener("abort", () => (aborted = true));
          await new Promise((r) => setTimeout(r, 300));
          return new Response("late", { headers: { "content-length": "4" } });
        }
        if (url.pathname === "/parts") {
          // As app/entry.server.tsx answers a page: the parts beside a body with the same bytes.
          const parts = ["<p>café ", new TextEncoder().encode("— bytes "), "x".repeat(2000), "</p>"];
          const bytes = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
          const response = new Response(bytes, { headers: { "content-type": "text/html; charset=utf-8", "content-length": String(bytes.length) } });
          (response as any)[Symbol.for("linkwise.finite-body")] = parts;
          return response;
        }
        if (url.pathname === "/boom") throw new Error("a bug");
        return new Response(JSON.stringify({ detail: "Not Found" }), { status: 404, headers: { "content-type": "application/json", "content-length": "22" } });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves static files from memory: assets immutable and gzipped, the build before public/, ETag and 304, HEAD, no dot files", async () => {
    const js = await raw(base, "/assets/app-123.js", { headers: { "accept-encoding": "gzip, br" } });
    expect(js.status).toBe(200);
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(js.body).toString()).toContain("console.log(");
    const plain = await raw(base, "/assets/app-123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);

    const icon = await raw(base, "/favicon.svg");
    expect(icon.body.toString()).toContain("http://www.w3.org/2000/svg");
    expect(icon.headers["cache-control"]).toBe("public, max-age=0");
    expect((await raw(base, "/robots.txt")).headers["cache-control"]).toBe("public, max-age=3600");
    expect((await raw(base, "/favicon.svg", { headers: { "if-none-match": icon.headers.etag! } })).status).toBe(304);
    const head = await raw(base, "/favicon.svg", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBe(icon.body.length);

    // A dot file and a path outside the folders go to the handler (which answers 404 here).
    expect((await raw(base, "/.secret")).status).toBe(404);
    expect((await raw(base, "/assets/../../etc/passwd")).status).toBe(404);
  });

  it("sends a page in one piece with every Set-Cookie, gzipped only for a browser that accepts it", async () => {
    const plain = await raw(base, "/page?x=1", { headers: { cookie: "s=abc" } });
    expect(plain.status).toBe(200);
    expect(plain.body.toString()).toBe(page);
    expect(plain.headers["set-cookie"]).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; HttpOnly"]);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ method: "GET", url: "/page?x=1", cookie: "s=abc" });

    const gz = await raw(base, "/page", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toBe("Accept-Encoding");
    expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(page);
    expect((await raw(base, "/page", { headers: { "accept-encoding": "gzip;q=0" } })).headers["content-encoding"]).toBeUndefined();
  });

  it("writes a rendered page's parts as they are, and gzips their bytes for a browser that accepts it", async () => {
    const expected = `<p>café — bytes ${"x".repeat(2000)}</p>`;
    const plain = await raw(base, "/parts");
    expect(plain.body.toString()).toBe(expected);
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(expected));
    const gz = await raw(base, "/parts", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(expected);
  });

  it("compresses a JSON answer without a length (/__manifest): brotli, else gzip, else as it is", async () => {
    const expected = JSON.stringify({ patches: "m".repeat(4000) });
    const br = await raw(base, "/__manifest?p=%2Fa", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(expected);
    const gz = await raw(base, "/__manifest", { headers: { "accept-encoding": "gzip" } });
    expect(zlib.gunzipSync(gz.body).toString()).toBe(expected);
    const plain = await raw(base, "/__manifest");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(expected);
  });

  it("passes a POST body to the handler", async () => {
    await raw(base, "/form", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "intent=create&name=A%20B" });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/form", body: "intent=create&name=A%20B" });
  });

  it("streams an event stream as it is written, never compressed", async () => {
    const res = await raw(base, "/events", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe("data: 0\n\ndata: 1\n\ndata: 2\n\n");
    // Three events 60 ms apart arrive as three pieces, not as one at the end.
    expect(res.chunks.length).toBeGreaterThanOrEqual(3);
    expect(res.chunks.at(-1)! - res.chunks[0]!).toBeGreaterThanOrEqual(80);
  });

  it("aborts the request's signal when the browser goes away, and answers a thrown error with a plain 500", async () => {
    await new Promise<void>((resolve) => {
      const req = http.get(`${base}/slow`);
      req.on("error", () => {});
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(aborted).toBe(true);

    const bad = await raw(base, "/page", { headers: { host: "bad host name" } });
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toBe("Bad Request");

    const boom = await raw(base, "/boom");
    expect(boom.status).toBe(500);
    expect(boom.body.toString()).toBe("Internal Server Error");
    expect(lines.some((l) => l.method === "GET" && l.url === "/boom" && l.status === 500 && l.request_id.length > 0)).toBe(true);
  });
});

describe("the console's HTTP server, shutting down", () => {
  it("drain: refuses new connections, answers the requests under way in full, then resolves", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inHandler = new Promise<void>((r) => (started = r));
    const server = createConsoleServer({
      handler: async () => {
        started();
        await gate;
        return new Response("finished", { headers: { "content-type": "text/plain" } });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const slow = raw(base, "/slow");
    await inHandler;
    let drainedAt = 0;
    const drained = server.drain(5_000).then((ok) => ((drainedAt = Date.now()), ok));
    // Not drained while the request is under way; a new connection is refused.
    await new Promise((r) => setTimeout(r, 100));
    expect(drainedAt).toBe(0);
    await expect(raw(base, "/new")).rejects.toThrow();
    const answeredAt = Date.now();
    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe("finished");
    expect(answer.headers.connection).toBe("close");
    expect(await drained).toBe(true);
    expect(drainedAt).toBeGreaterThanOrEqual(answeredAt);
  });

  it("drain: waits for a handler whose client has hung up (its loader may still use the platform)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inHandler = new Promise<void>((r) => (started = r));
    let handlerDone = false;
    const server = createConsoleServer({
      handler: async () => {
        started();
        await gate;
        handlerDone = true;
        return new Response("too late");
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const req = http.request(`${base}/slow`);
    req.on("error", () => {});
    req.end();
    await inHandler;
    req.destroy();
    await new Promise((r) => setTimeout(r, 100));
    let drained = false;
    const done = server.drain(5_000).then((ok) => ((drained = true), ok));
    await new Promise((r) => setTimeout(r, 100));
    expect(drained).toBe(false);
    release();
    expect(await done).toBe(true);
    expect(handlerDone).toBe(true);
  });

  it("drain: resolves false after the time given when a request never ends", async () => {
    let started!: () => void;
    const inHandler = new Promise<void>((r) => (started = r));
    const server = createConsoleServer({
      handler: async () => {
        started();
        return new Promise<Response>(() => {});
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    raw(base, "/never").catch(() => {});
    await inHandler;
    expect(await server.drain(200)).toBe(false);
    server.closeAllConnections();
  });
});

describe("the console's HTTP server: request ids and health (docs/operations.md)", () => {
  async function serve(opts: Partial<Parameters<typeof createConsoleServer>[0]>) {
    const server = createConsoleServer({ handler: async () => new Response("page", { headers: { "content-type": "text/plain" } }), ...opts });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it("makes every request's id, and takes the balancer's only from a trusted hop (TRUST_PROXY)", async () => {
    const untrusted = await serve({ trustProxy: "none" });
    const mine = await raw(untrusted.base, "/x", { headers: { "x-request-id": "from-the-client" } });
    expect(mine.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    untrusted.server.close();
    const behindBalancer = await serve({ trustProxy: "loopback" });
    expect((await raw(behindBalancer.base, "/x", { headers: { "x-request-id": "from-the-balancer" } })).headers["x-request-id"]).toBe("from-the-balancer");
    // A malformed one is replaced, even from the balancer.
    expect((await raw(behindBalancer.base, "/x", { headers: { "x-request-id": "has spaces" } })).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    behindBalancer.server.close();
  });

  it("answers /livez while it serves and /readyz as its health says, 503 once draining", async () => {
    let platformUp = false;
    const { server, base } = await serve({ health: { ready: async () => ({ ok: platformUp, checks: { platform: platformUp ? "ready" : "unreachable" } }) } });
    expect((await raw(base, "/livez")).status).toBe(200);
    const down = await raw(base, "/readyz");
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body.toString())).toEqual({ status: "not ready", platform: "unreachable" });
    platformUp = true;
    expect((await raw(base, "/readyz")).status).toBe(200);
    // Pages still go to the handler.
    expect((await raw(base, "/readyz-not")).body.toString()).toBe("page");
    await server.drain(1_000);
    expect((await server.ready()).ok).toBe(false);
  });

  it("counts a request under its route: ids as :id, static files and 404s together", () => {
    expect(metricRoute("/contacts", 200, false)).toBe("/contacts");
    expect(metricRoute("/app-services/aps-8f2k1q0a7b3c.data", 200, false)).toBe("/app-services/:id");
    expect(metricRoute("/assets/entry-B_RYPaDI.js", 200, true)).toBe("static");
    expect(metricRoute("/wp-admin/setup-config.php", 404, false)).toBe("unmatched");
  });
});
