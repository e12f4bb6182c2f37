import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createConsoleServer } from "./http.mjs";

// What the console's pages and the platform are told about the browser's address
// (docs/decisions/2026-12-03-abuse-limits.md): X-Forwarded-For, rewritten by the server.

const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A server whose handler answers the X-Forwarded-For it was given. */
async function echo(trustProxy?: string): Promise<string> {
  const server = createConsoleServer({ trustProxy, handler: (request) => new Response(request.headers.get("x-forwarded-for") ?? "(none)") });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const seenBy = async (base: string, forwardedFor?: string) =>
  (await fetch(`${base}/login`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} })).text();

describe("the browser's address", () => {
  it("is the peer's own when the peer is no trusted hop: a header the browser sent is replaced", async () => {
    const base = await echo("none");
    expect(await seenBy(base)).toBe("127.0.0.1");
    expect(await seenBy(base, "198.51.100.7")).toBe("127.0.0.1");
  });

  it("is what a trusted hop (by default a proxy on this machine) reports, read from the right", async () => {
    const base = await echo();
    expect(await seenBy(base, "198.51.100.7")).toBe("198.51.100.7");
    expect(await seenBy(base, "1.2.3.4, 198.51.100.7")).toBe("198.51.100.7");
    expect(await seenBy(base)).toBe("127.0.0.1");
  });

  it("a malformed TRUST_PROXY stops the server at start, naming the variable", () => {
    expect(() => createConsoleServer({ trustProxy: "balancer.internal", handler: () => new Response() })).toThrow(/^TRUST_PROXY must be/);
  });
});
