import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsoleServer } from "./http.mjs";

// No request may end the console's process or leave its connection hanging (issue 10 items 1, 3).
// Each server runs in a child process: a crash there must fail the test, not kill the runner.

const serverScript = (handlerSource: string) => `
import { createConsoleServer } from ${JSON.stringify(path.resolve("server/http.mjs"))};
const server = createConsoleServer({ handler: ${handlerSource} });
server.listen(0, "127.0.0.1", () => process.stdout.write("PORT " + server.address().port + "\\n"));
`;

async function startChild(handlerSource: string): Promise<{ child: ChildProcess; port: number; exited: () => boolean; stderr: () => string }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", serverScript(handlerSource)], { stdio: ["ignore", "pipe", "pipe"] });
  let exited = false;
  let err = "";
  child.on("exit", () => (exited = true));
  child.stderr!.on("data", (d) => (err += d));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", () => reject(new Error(`server exited: ${err}`)));
  });
  return { child, port, exited: () => exited, stderr: () => err };
}

/**
 * Writes raw bytes on one keep-alive socket and collects what comes back until `until` matches
 * (or the time is up).
 */
function rawExchange(port: number, writes: (Buffer | string)[], until: RegExp, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let got = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("data", (d) => {
      got += d.toString("latin1");
      if (until.test(got)) done();
    });
    socket.on("error", done);
    socket.on("connect", () => {
      for (const w of writes) socket.write(w);
    });
  });
}

const get = (port: number, pathname: string) =>
  new Promise<number>((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: pathname }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    }).on("error", reject);
  });

describe("an exception no request can catch (docs/decisions/2026-12-03-observability-and-draining.md)", () => {
  it("is logged, readiness fails, the request under way finishes, and the process exits 1", async () => {
    const script = `
import { createConsoleServer } from ${JSON.stringify(path.resolve("server/http.mjs"))};
import { exitOnFatal } from ${JSON.stringify(path.resolve("server/observe.mjs"))};
const server = createConsoleServer({
  log: false,
  health: { ready: async () => ({ ok: true, checks: {} }) },
  handler: async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, 600));
    if (url.pathname === "/late-throw") {
      // A library throwing from a timer during a request: no try/catch can reach it.
      setTimeout(() => { throw new Error("thrown outside the request's promise"); }, 1);
    }
    return new Response("ok", { headers: { "content-length": "2" } });
  },
});
exitOnFatal(async () => {
  // As server.mjs: draining makes readiness fail at once, then waits for the requests under way.
  const drained = server.drain(5000);
  const ready = await server.ready();
  process.stdout.write("READY-AFTER-FATAL " + ready.ok + "\\n");
  await drained;
});
server.listen(0, "127.0.0.1", () => process.stdout.write("PORT " + server.address().port + "\\n"));
`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const port = await new Promise<number>((resolve) => {
      const look = () => {
        const m = /PORT (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
        else setTimeout(look, 20);
      };
      look();
    });
    const slow = get(port, "/slow");
    await new Promise((r) => setTimeout(r, 100));
    expect(await get(port, "/late-throw")).toBe(200);
    // The request under way when it happened still gets its answer.
    expect(await slow).toBe(200);
    expect(await exited).toBe(1);
    const fatal = out.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { level: string; msg: string; err?: { message: string } }).find((l) => l.level === "fatal");
    expect(fatal?.msg).toMatch(/uncaught exception/);
    expect(fatal?.err?.message).toBe("thrown outside the request's promise");
    expect(out).toContain("READY-AFTER-FATAL false");
  });
});

describe("a request that cancels its body early (the no-boundary PCAP upload)", () => {
  let server: Awaited<ReturnType<typeof startChild>>;
  beforeAll(async () => {
    // As the upload route does when busboy refuses the Content-Type: cancel the body, answer 303.
    server = await startChild(`async (request) => {
      const url = new URL(request.url);
      if (url.pathname === "/upload") {
        // The route reads the session first: the body keeps arriving meanwhile.
        await new Promise((r) => setTimeout(r, 20));
        // React Router hands the action a copy of the request with its own signal.
        await new Request(request, { signal: new AbortController().signal }).body?.cancel();
        return new Response(null, { status: 303, headers: { location: "/pcap-analyzer" } });
      }
      if (url.pathname === "/unread") return new Response(null, { status: 302, headers: { location: "/login" } });
      return new Response("ok", { headers: { "content-length": "2" } });
    }`);
  });
  afterAll(() => server.child.kill());

  it("answers, and the process keeps serving (no ERR_INVALID_STATE crash)", async () => {
    const head = `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data\r\nContent-Length: 1000000\r\n\r\n`;
    const got = await rawExchange(server.port, [head, Buffer.alloc(1_000_000, 1)], /303 See Other/);
    expect(got).toMatch(/^HTTP\/1\.1 303/);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.exited(), server.stderr()).toBe(false);
    expect(await get(server.port, "/after")).toBe(200);
  });

  it("keeps the keep-alive connection usable after an early answer to an unread 1 MB body", async () => {
    const head = `POST /unread HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n`;
    const next = `GET /next HTTP/1.1\r\nHost: x\r\n\r\n`;
    const got = await rawExchange(server.port, [head, Buffer.alloc(1_000_000, 2), next], /HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok/);
    expect(got).toMatch(/^HTTP\/1\.1 302/);
    expect(got).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok$/);
    // The same for the cancelled body.
    const head2 = `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data\r\nContent-Length: 1000000\r\n\r\n`;
    const got2 = await rawExchange(server.port, [head2, Buffer.alloc(1_000_000, 3), next], /HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok/);
    expect(got2).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok$/);
    expect(server.exited(), server.stderr()).toBe(false);
  });
});

describe("errors inside a request", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = createConsoleServer({
      async handler(request) {
        const url = new URL(request.url);
        if (url.pathname === "/throw") throw new Error("a bug in a loader");
        if (url.pathname === "/reject-body") {
          // A body stream that fails after the headers went out.
          const body = new ReadableStream({
            pull(controller) {
              controller.error(new Error("late failure"));
            },
          });
          return new Response(body, { headers: { "content-type": "application/octet-stream" } });
        }
        if (url.pathname === "/echo") return new Response(await request.text());
        return new Response("ok", { headers: { "content-length": "2" } });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("answers 500 to a throwing handler, cuts a failing stream, answers 400 to a malformed request, and keeps serving", async () => {
    expect(await get(port, "/throw")).toBe(500);
    const cut = await rawExchange(port, ["GET /reject-body HTTP/1.1\r\nHost: x\r\n\r\n"], /$^/, 1000);
    expect(cut).toMatch(/^HTTP\/1\.1 200/);
    const malformed = await rawExchange(port, ["GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"], /400/);
    expect(malformed).toMatch(/^HTTP\/1\.1 400/);
    // A client that goes away in the middle of its body.
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc");
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on("error", () => {});
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await get(port, "/fine")).toBe(200);
  });
});
