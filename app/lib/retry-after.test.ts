import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formFailure, passRetryAfter } from "./action.server.ts";

// A 429 of the platform's abuse limits on a console form (docs/decisions/2026-12-03-abuse-limits.md).

describe("a 429 on a form", () => {
  const form = new FormData();
  form.set("username", "ada@example.test");
  const submission = parseWithZod(form, { schema: z.object({ username: z.string() }) });

  it("shows the platform's sentence in the form and keeps status and Retry-After", () => {
    const reply = formFailure(submission, { ok: false, status: 429, detail: "Too many registrations. Try again in 42 minutes.", data: null, retryAfter: "2520" }, { headers: { "Cache-Control": "no-store" } });
    const init = reply.init as { status: number; headers: Headers };
    expect(init.status).toBe(429);
    expect(init.headers.get("Retry-After")).toBe("2520");
    expect(init.headers.get("Cache-Control")).toBe("no-store");
    expect(reply.data.result.error?.[""]).toEqual(["Too many registrations. Try again in 42 minutes."]);
  });

  it("the route's headers pass Retry-After on beside its own and its parent's", () => {
    const headers = passRetryAfter({ "Cache-Control": "no-store" })({
      actionHeaders: new Headers({ "Retry-After": "60", "X-Other": "dropped" }),
      parentHeaders: new Headers({ "Content-Security-Policy": "default-src 'self'" }),
    });
    expect(Object.fromEntries(headers)).toEqual({ "cache-control": "no-store", "content-security-policy": "default-src 'self'", "retry-after": "60" });
    expect(passRetryAfter()({ actionHeaders: new Headers(), parentHeaders: new Headers() }).has("Retry-After")).toBe(false);
  });
});
