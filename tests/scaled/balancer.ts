import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * The balancer in front of the platform instances, as a provider puts one between its consoles and
 * its platforms: an HTTP proxy that sends each request to the first instance of its order that
 * takes the connection, and fails over to the next when one refuses it (a killed instance). Each
 * console has its own, with a different first choice, so that which platform serves what is
 * known, and recorded: "started through one platform, streamed through another" is then a fact the
 * test reads, not a coin toss. A request whose instance dies after taking it is not sent again
 * unless it is a GET or HEAD (what nginx's proxy_next_upstream does by default).
 */

export interface Upstream {
  name: string;
  port: number;
}

export interface Served {
  at: number;
  upstream: string;
  method: string;
  path: string;
  status: number;
}

export interface Balancer {
  url: string;
  port: number;
  /** Every request answered, with the instance that answered it. */
  served: Served[];
  close(): Promise<void>;
}

const RETRYABLE = new Set(["GET", "HEAD"]);

export async function startBalancer(order: () => Upstream[]): Promise<Balancer> {
  const served: Served[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void proxy(req, res, Buffer.concat(chunks)));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  async function proxy(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    for (const upstream of order()) {
      const outcome = await forward(upstream, req, res, body);
      if (outcome === "done") return;
      if (outcome === "taken-and-lost" && !RETRYABLE.has(req.method ?? "GET")) break;
    }
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("no platform instance answered");
  }

  /** "refused": the instance did not take the connection (try the next); "taken-and-lost": it died before answering. */
  function forward(upstream: Upstream, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<"done" | "refused" | "taken-and-lost"> {
    return new Promise((resolve) => {
      let connected = false;
      const out = http.request(
        { host: "127.0.0.1", port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent: false },
        (answer) => {
          served.push({ at: Date.now(), upstream: upstream.name, method: req.method ?? "GET", path: req.url ?? "/", status: answer.statusCode ?? 0 });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          // Streams (server-sent events) pass through as they come; an instance that dies mid-stream
          // ends the client's response too, as a real balancer's would.
          answer.pipe(res);
          answer.on("error", () => res.destroy());
          answer.on("aborted", () => res.destroy());
          res.on("close", () => answer.destroy());
          resolve("done");
        },
      );
      out.on("socket", (s) => s.on("connect", () => (connected = true)));
      out.on("error", () => resolve(connected ? "taken-and-lost" : "refused"));
      out.end(body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
