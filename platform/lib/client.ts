import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { resolveClientAddress } from "./client-address.mjs";
import type { Env } from "./context.ts";

/**
 * The address of the client a call is made for (docs/decisions/2026-12-03-abuse-limits.md).
 * Standalone (`npm run start:platform`), @hono/node-server gives the connection as `c.env.incoming`:
 * its peer's address, or, from a hop TRUST_PROXY names (the consoles), X-Forwarded-For. Embedded
 * (the console's worker thread, or its own thread) there is no connection: the caller is this
 * process's console, which always sends the address it resolved itself (server/http.mjs).
 */
// why `any`: called from handlers of every input type (validated JSON or query); only headers are read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function clientAddress(c: Context<Env, any, any>): string | null {
  // why the cast: Env declares no Bindings; under @hono/node-server they are { incoming, outgoing }.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const peer = incoming ? (incoming.socket?.remoteAddress ?? "") : null;
  return resolveClientAddress(peer, c.req.header("x-forwarded-for"), c.get("deps").config.trustProxy);
}
