import type { z } from "@hono/zod-openapi";
import { Latency } from "../contract/common.shapes.ts";
import { defineCall } from "../lib/openapi.ts";

/**
 * Test Reachability's one rule, for measure-endpoint-latency and measure-app-service-latency alike
 * (issue 27 item 8): a measurement changes nothing (nothing is stored, and it is not a change in
 * the change log: `reads`), so, like a read, every role may run it, readonly IAM users included.
 * A malformed body is 422 and an unknown id 404 for both. The console runs it on a button press
 * (a POST), never from a page's GET.
 */
export const measureLatencyCall = <const P extends `/${string}`, B extends z.ZodType>(o: { path: P; tags: readonly string[]; summary: string; description: string; body: B }) =>
  defineCall({ method: "post", path: o.path, tags: o.tags, summary: o.summary, description: `${o.description} Every role may measure; nothing is stored.`, reads: true, body: o.body, response: Latency, errors: [404] });
