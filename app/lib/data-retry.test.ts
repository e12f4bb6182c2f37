import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../platform/test/ports.ts";
import { hasFailedRequests, retryFailedRequests, subscribeFailedRequests, wrapFetch } from "./data-retry.ts";

// The router's data requests against a real HTTP server: refused (nothing listening), then answered.

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(port: number, answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const server = http.createServer(answer);
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

/** Resolves once the wrapper holds a request (a refused connection takes a moment to be known). */
const held = () =>
  new Promise<void>((resolve) => {
    if (hasFailedRequests()) return resolve();
    const stop = subscribeFailedRequests(() => {
      if (hasFailedRequests()) {
        stop();
        resolve();
      }
    });
  });

describe("wrapFetch (issue 63 item 32)", () => {
  it("holds a data request that fails on the network and sends it again, body and all, on Retry", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/routers`;
    const wrapped = wrapFetch(fetch, () => base);
    const answer = wrapped(new URL("/routers.data", base), { method: "POST", body: new URLSearchParams({ intent: "refresh" }) });
    let settled = false;
    void answer.then(() => (settled = true), () => (settled = true));
    await held();
    expect(settled).toBe(false);
    await serve(port, (req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => res.end(`${req.method} ${req.url} ${body}`));
    });
    retryFailedRequests();
    expect(hasFailedRequests()).toBe(false);
    expect(await (await answer).text()).toBe("POST /routers.data intent=refresh");
  });

  it("holds a gateway's 502 (not the console's answer), and passes the console's own errors through", async () => {
    let calls = 0;
    const port = await serve(0, (req, res) => {
      calls++;
      if (req.url === "/x.data" && calls === 1) return res.writeHead(502).end("Bad Gateway");
      if (req.url === "/y.data") return res.writeHead(503, { "X-Remix-Response": "yes" }).end("unavailable");
      res.end("ok");
    });
    const at = (path: string) => new URL(path, `http://127.0.0.1:${port}/`);
    const wrapped = wrapFetch(fetch, () => at("/").href);
    const x = wrapped(at("/x.data"));
    await held();
    retryFailedRequests();
    expect(await (await x).text()).toBe("ok");
    expect((await wrapped(at("/y.data"))).status).toBe(503);
    expect(hasFailedRequests()).toBe(false);
  });

  it("drops a held request the router aborts, and leaves other requests alone", async () => {
    const port = await freePort();
    const at = (path: string) => new URL(path, `http://127.0.0.1:${port}/`);
    const wrapped = wrapFetch(fetch, () => at("/").href);
    const controller = new AbortController();
    const answer = wrapped(at("/contacts.data"), { signal: controller.signal });
    await held();
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
    expect(hasFailedRequests()).toBe(false);
    // Not a data request: the page's own fetch fails as fetch does.
    await expect(wrapped(at("/routers/speed-test-result?id=x"))).rejects.toBeInstanceOf(TypeError);
    expect(hasFailedRequests()).toBe(false);
  });
});
