import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A download taken and never answered: the downloader's port, and what it asked for. */
export interface HeldDownload {
  remotePort: number;
  at: number;
  /** The request's path: `/{bucket}/{key}…` */
  what: string;
}

/**
 * A plain HTTP proxy in front of the test S3 server (s3.ts) that can hold the next object download
 * (a GET of `/{bucket}/{key}`, path style): taken and never answered, so the platform instance
 * analysing that capture is caught with its job in hand (its analysis waits for the file) and can
 * be killed. Everything else, and every download once `holdNext` is off, goes through unchanged,
 * headers included (the SigV4 signature covers the Host the client sent, which is this proxy's).
 */
export async function startHoldingS3Proxy(upstream: string) {
  const state = { holdNext: false };
  const held: HeldDownload[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    if (state.holdNext && req.method === "GET" && /^\/[^/?]+\/[^?]+/.test(path)) {
      state.holdNext = false;
      held.push({ remotePort: req.socket.remotePort ?? 0, at: Date.now(), what: path });
      return;
    }
    const out = http.request(new URL(path, upstream), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    held,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
