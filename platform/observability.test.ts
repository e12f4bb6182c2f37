import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
// why: parse-prometheus-text-format ships no types; its parse() answers the metric families below.
// @ts-expect-error no declaration file
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrivateDatabase } from "../scripts/private-database.mjs";
import { queues } from "./jobs/queue.ts";

/*
 * Operations as an operator sees them (docs/operations.md), on real processes: a standalone
 * platform on its own PostgreSQL database (reached through a TCP proxy this test can cut) and a
 * console (the production build, `node server.mjs`) with API_URL to it. Their standard outputs are
 * read as JSON log lines; their metrics listeners are scraped and parsed as Prometheus text.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

interface LogLine {
  level: string;
  tier: string;
  msg: string;
  request_id?: string;
  [key: string]: unknown;
}

interface Proc {
  child: ChildProcess;
  lines: LogLine[];
  exit: Promise<number | null>;
  waitFor(test: (line: LogLine) => boolean, ms?: number): Promise<LogLine>;
}

function start(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: LogLine[] = [];
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    rest += chunk.toString();
    const parts = rest.split("\n");
    rest = parts.pop()!;
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        // Not a log line (a build's output): not ours to read.
      }
    }
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    exit,
    async waitFor(test, ms = 60_000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = lines.find(test);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}): ${stderr.slice(-2000)}`);
        if (Date.now() > until) throw new Error(`no such log line within ${ms} ms; stderr: ${stderr.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** A TCP proxy to PostgreSQL that can be cut (every connection closed, the port refused) and restored, or slowed. */
function pgProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let delayMs = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (d) => upstream.write(d));
    upstream.on("data", (d) => (delayMs ? setTimeout(() => client.write(d), delayMs) : client.write(d)));
    client.on("close", forget).on("error", forget);
    upstream.on("close", forget).on("error", forget);
  });
  let port = 0;
  return {
    url: () => {
      const u = new URL(target);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    open: () =>
      new Promise<void>((resolve) =>
        server.listen(port, "127.0.0.1", () => {
          port = (server.address() as net.AddressInfo).port;
          resolve();
        }),
      ),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        server.close(() => resolve());
      }),
    slow: (ms: number) => {
      delayMs = ms;
    },
  };
}

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string; buckets?: Record<string, string> }[];
}

async function scrape(port: number): Promise<Map<string, Family>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const families = parsePrometheusTextFormat(text) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe.skipIf(!serverUrl)("operations: logs, request ids, metrics, readiness and draining (PostgreSQL)", () => {
  let database: Awaited<ReturnType<typeof createPrivateDatabase>>;
  let proxy: ReturnType<typeof pgProxy>;
  let platform: Proc;
  let consoleProc: Proc;
  let platformUrl = "";
  let consoleUrl = "";
  let platformMetrics = 0;
  let consoleMetrics = 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-obs-"));
  // An OTLP/HTTP receiver (JSON, the exporter's default encoding): what both tiers export.
  const spans: { service: string; scope: string; traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      type Exported = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { scope: { name: string }; spans: Omit<(typeof spans)[number], "service" | "scope">[] }[] }[] };
      for (const rs of (JSON.parse(body) as Exported).resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ ...span, service, scope: ss.scope.name });
      }
      res.setHeader("content-type", "application/json");
      res.end("{}");
    });
  });

  beforeAll(async () => {
    // The console runs its production build, as in a deployment.
    execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "ignore" });
    database = await createPrivateDatabase(serverUrl!, "linkwise_obs");
    proxy = pgProxy(new URL(database.url));
    await proxy.open();
    const [platformPort, consolePort] = [await freePort(), await freePort()];
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const otlp = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
    const common = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_BSP_SCHEDULE_DELAY: "100", METRICS_PORT: "0", LOG_LEVEL: "info", FLEET_TICK: "0", NODE_ENV: "production", DATA_DIR: dataDir };
    platform = start(["--import", "tsx", "platform/server.ts"], { ...common, DATABASE_URL: proxy.url(), PORT: String(platformPort), DRAIN_TIMEOUT_MS: "1500", FLEET_TEST_SPEED: "1", SEED_DEMO: "true",
      // What instances on one database share, required in production (docs/configuration.md).
      NODE_SECRETS_KEY: "obs-test-node-secrets-key-0123456789abcdef", OBJECTS_SECRET: "obs-test-objects-secret-0123456789abcdef", DATA_DIR_SHARED: "true", CONSOLE_URL: "http://127.0.0.1", PLATFORM_URL: "http://127.0.0.1" });
    await platform.waitFor((l) => l.msg === "listening");
    platformUrl = `http://127.0.0.1:${platformPort}`;
    platformMetrics = Number((await platform.waitFor((l) => l.msg === "metrics on /metrics")).port);
    consoleProc = start(["server.mjs", "build/server/index.js"], { ...common, API_URL: platformUrl, PORT: String(consolePort), SESSION_SECRET: "obs-test-session-secret-0123456789", COOKIE_SECURE: "false", TRUST_PROXY: "none" });
    await consoleProc.waitFor((l) => l.msg === "listening");
    consoleUrl = `http://127.0.0.1:${consolePort}`;
    consoleMetrics = Number((await consoleProc.waitFor((l) => l.msg === "metrics on /metrics")).port);
  }, 240_000);

  afterAll(async () => {
    for (const p of [consoleProc, platform]) if (p && p.child.exitCode === null) p.child.kill("SIGKILL");
    await database?.drop().catch(() => {});
    receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("one request's log lines on both tiers share its request id, which both answers carry", async () => {
    const response = await fetch(`${consoleUrl}/healthz`, { headers: { "x-request-id": "chosen-by-the-client" } });
    expect(response.status).toBe(200);
    const id = response.headers.get("x-request-id")!;
    // From a hop TRUST_PROXY does not name (none here) the console makes its own id: a client cannot choose what the logs say.
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const consoleLine = await consoleProc.waitFor((l) => l.msg === "request" && l.url === "/healthz" && l.request_id === id);
    expect(consoleLine).toMatchObject({ level: "info", tier: "console", status: 200 });
    const platformLine = await platform.waitFor((l) => l.msg === "call" && l.request_id === id);
    expect(platformLine).toMatchObject({ level: "info", tier: "platform", call: "/api/v1/health", status: 200 });
    // The browser's calls through the console's /api/v1 carry the console's id, not the client's.
    const proxied = await fetch(`${consoleUrl}/api/v1/livez`, { headers: { "x-request-id": "chosen-by-the-client" } });
    const proxiedId = proxied.headers.get("x-request-id")!;
    expect(proxiedId).toMatch(/^[0-9a-f-]{36}$/);
    await consoleProc.waitFor((l) => l.msg === "request" && l.url === "/api/v1/livez" && l.request_id === proxiedId);
    // The platform echoes the id it was given.
    const direct = await fetch(`${platformUrl}/api/v1/livez`, { headers: { "x-request-id": "support-case-42" } });
    expect(direct.headers.get("x-request-id")).toBe("support-case-42");
  });

  it("traces one request from the console through the platform to PostgreSQL (W3C traceparent)", async () => {
    const response = await fetch(`${consoleUrl}/healthz`);
    expect(response.status).toBe(200);
    const until = Date.now() + 15_000;
    const find = () => {
      const root = spans.find((x) => x.service === "linkwise-console" && x.kind === 2 && x.name === "GET /healthz");
      if (!root) return null;
      const trace = spans.filter((x) => x.traceId === root.traceId);
      const client = trace.find((x) => x.service === "linkwise-console" && x.kind === 3 && x.name === "GET health");
      const server = trace.find((x) => x.service === "linkwise-platform" && x.kind === 2 && x.name === "GET /api/v1/health");
      const query = trace.find((x) => x.service === "linkwise-platform" && x.scope.includes("instrumentation-pg"));
      return client && server && query ? { root, client, server, query } : null;
    };
    let found = find();
    while (!found && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      found = find();
    }
    expect(found, JSON.stringify(spans.map((x) => [x.service, x.name, x.kind]))).not.toBeNull();
    // One trace: the console's page → its platform call → the platform's call → its SQL.
    expect(found!.client.parentSpanId).toBe(found!.root.spanId);
    expect(found!.server.parentSpanId).toBe(found!.client.spanId);
    expect(found!.query.traceId).toBe(found!.root.traceId);
  });

  it("the change log's row holds the request id of the call that made it", async () => {
    const token = (await (await fetch(`${platformUrl}/api/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "demo@linkwise.example", password: "demo-password-1" }) })).json()) as { access_token: string };
    const made = await fetch(`${platformUrl}/api/v1/create_entity`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}`, "x-request-id": "obs-entity-1" },
      body: JSON.stringify({ entity_name: `Observed ${Date.now()}`, description: "", parent_entity_name: "" }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const rows = (await client.query("select url_path, request_id from api_log where request_id = 'obs-entity-1'")).rows;
      expect(rows).toEqual([{ url_path: "/create_entity", request_id: "obs-entity-1" }]);
    } finally {
      await client.end();
    }
  });

  it("after a few requests, both tiers' metrics parse as Prometheus text, by route and by call", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${consoleUrl}/healthz`)).status).toBe(200);
    const token = (await (await fetch(`${platformUrl}/api/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "demo@linkwise.example", password: "demo-password-1" }) })).json()) as { access_token: string };
    // The same read twice: the second comes from the read cache.
    for (let i = 0; i < 2; i++) expect((await fetch(`${platformUrl}/api/v1/get_entity`, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(200);
    expect((await fetch(`${consoleUrl}/login`)).status).toBe(200);
    const c = await scrape(consoleMetrics);
    const byRoute = (f: Family | undefined, route: string) => f?.metrics.filter((m) => m.labels?.http_route === route) ?? [];
    expect(c.get("http_server_request_duration")?.type).toBe("HISTOGRAM");
    expect(Object.keys(c.get("http_server_request_duration")?.metrics[0]?.buckets ?? {})).toContain("+Inf");
    const consoleRequests = c.get("http_server_requests_total");
    expect(consoleRequests?.type).toBe("COUNTER");
    expect(Number(byRoute(consoleRequests, "/healthz")[0]?.value)).toBeGreaterThanOrEqual(4);
    expect(byRoute(consoleRequests, "/login")[0]?.labels).toMatchObject({ http_request_method: "GET", http_response_status_code: "200" });
    expect(c.get("nodejs_eventloop_delay")?.metrics.map((m) => m.labels?.quantile)).toEqual(expect.arrayContaining(["p50", "p99", "max"]));
    const p = await scrape(platformMetrics);
    const platformCalls = p.get("http_server_requests_total");
    expect(Number(byRoute(platformCalls, "/api/v1/health")[0]?.value)).toBeGreaterThanOrEqual(4);
    expect(byRoute(platformCalls, "/api/v1/get_entity")[0]?.labels).toMatchObject({ http_request_method: "GET", http_response_status_code: "200" });
    expect(p.get("linkwise_queue_depth")?.metrics.map((m) => m.labels?.queue).sort()).toEqual(["ops_mail", ...Object.values(queues).map((q) => q.name)].sort());
    expect(p.has("nodejs_gc_duration") || p.has("nodejs_eventloop_delay")).toBe(true);
    const lookups = p.get("linkwise_read_cache_lookups_total")?.metrics ?? [];
    expect(Number(lookups.find((m) => m.labels?.kind === "read" && m.labels?.result === "hit")?.value)).toBeGreaterThanOrEqual(1);
  });

  it("readiness turns false when PostgreSQL goes away and true when it returns, on both tiers", async () => {
    const ready = async (url: string) => (await fetch(`${url}/readyz`)).status;
    expect(await ready(platformUrl)).toBe(200);
    expect(await ready(consoleUrl)).toBe(200);
    expect((await fetch(`${platformUrl}/livez`)).status).toBe(200);
    await proxy.cut();
    const poll = async (url: string, want: number) => {
      const until = Date.now() + 15_000;
      let got = 0;
      while (Date.now() < until && (got = await ready(url)) !== want) await new Promise((r) => setTimeout(r, 200));
      return got;
    };
    expect(await poll(platformUrl, 503)).toBe(503);
    expect(await poll(consoleUrl, 503)).toBe(503);
    // The process itself is alive: the orchestrator must not restart it for the database's sake.
    expect((await fetch(`${platformUrl}/livez`)).status).toBe(200);
    expect((await fetch(`${consoleUrl}/livez`)).status).toBe(200);
    await proxy.open();
    expect(await poll(platformUrl, 200)).toBe(200);
    expect(await poll(consoleUrl, 200)).toBe(200);
  }, 60_000);

  it("on SIGTERM the platform fails readiness, lets a slow call and an event stream finish (bounded), then exits 0", async () => {
    const auth = { authorization: "", "content-type": "application/json" };
    const token = (await (await fetch(`${platformUrl}/api/v1/token`, { method: "POST", headers: auth, body: JSON.stringify({ username: "demo@linkwise.example", password: "demo-password-1" }) })).json()) as { access_token: string };
    auth.authorization = `Bearer ${token.access_token}`;
    const cpe = (await (
      await fetch(`${platformUrl}/api/v1/create_cpe`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ cpe_name: "Drain test", prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney NSW 2000", latitude: -33.8675, longitude: 151.2099 }),
      })
    ).json()) as { cpe_id: string };
    const started = (await (await fetch(`${platformUrl}/api/v1/start_cpe_test`, { method: "POST", headers: auth, body: JSON.stringify({ cpe_id: cpe.cpe_id, peer_ip: "192.0.2.1" }) })).json()) as { sse_id: string };
    expect(started.sse_id).toMatch(/^sse-/);
    const stream = await fetch(`${platformUrl}/api/v1/check-test-status/cpe?cpe_id=${cpe.cpe_id}&sse_id=${started.sse_id}`, { headers: { authorization: auth.authorization } });
    expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = stream.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("data:");
    const metrics = await scrape(platformMetrics);
    expect(Number(metrics.get("linkwise_streams_active")?.metrics[0]?.value)).toBe(1);

    // Every answer from PostgreSQL now takes 700 ms: the next call is slow.
    proxy.slow(700);
    const slow = fetch(`${platformUrl}/api/v1/get_entity`, { headers: { authorization: auth.authorization } });
    await new Promise((r) => setTimeout(r, 200));
    const stoppedAt = Date.now();
    platform.child.kill("SIGTERM");
    await platform.waitFor((l) => l.msg === "shutting down: draining");
    // The listener takes no new connection: a balancer's probe fails at once.
    await expect(fetch(`${platformUrl}/readyz`)).rejects.toThrow();
    // The slow call under way is answered in full.
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(Array.isArray(((await answer.json()) as { items?: unknown[] }).items ?? [])).toBe(true);
    // The stream goes on until the bound (DRAIN_TIMEOUT_MS=1500), then it is closed.
    let streamed = 0;
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (next.done) break;
      streamed += next.value?.byteLength ?? 0;
    }
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1_400);
    expect(await platform.exit).toBe(0);
    expect(platform.lines.some((l) => l.msg === "stopped")).toBe(true);
    expect(streamed).toBeGreaterThanOrEqual(0);
    proxy.slow(0);
  }, 60_000);
});
