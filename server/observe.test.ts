import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { observeConfigFromEnv, scrubText, validRequestId } from "./observe.mjs";

/** The JSON lines a fresh process writes when it logs `body` (a module's source) with observe(). */
function logLines(body: string, env: Record<string, string> = {}): Record<string, unknown>[] {
  const script = `import { observe } from ${JSON.stringify(path.resolve("server/observe.mjs"))};\nconst o = observe("platform");\n${body}`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, LOG_LEVEL: "", METRICS_PORT: "", ...env } }).toString();
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("the logs", () => {
  it("are JSON lines with a level word, the tier, and the request id of the request under way", () => {
    const [outside, inside] = logLines(`o.logger.info("before"); o.runWithRequest("req-7", () => o.logger.warn({ call: "/x" }, "during"));`);
    expect(outside).toMatchObject({ level: "info", tier: "platform", msg: "before" });
    expect(outside).not.toHaveProperty("request_id");
    expect(inside).toMatchObject({ level: "warn", tier: "platform", msg: "during", call: "/x", request_id: "req-7" });
  });

  it("never hold a secret: by key, at depth, or inside a text", () => {
    const lines = logLines(`
      o.logger.info({ password: "hunter2-pw", headers: { authorization: "Bearer abcdefgh12345", cookie: "__session=s3cr3t" }, body: { node_key: "nk-777", user: { access_token: "tok-888" } } }, "a call");
      o.logger.error({ err: new Error("cannot reach postgres://linkwise:dbpass99@db:5432/x") }, "failed");
      o.logger.info("reset link /reset-password?token=link-token-5 sent, signing with whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    `);
    const text = JSON.stringify(lines);
    for (const secret of ["hunter2-pw", "abcdefgh12345", "s3cr3t", "nk-777", "tok-888", "dbpass99", "link-token-5", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ password: "***", headers: { authorization: "***", cookie: "***" }, body: { node_key: "***", user: { access_token: "***" } } });
    expect((lines[1]!.err as { message: string }).message).toBe("cannot reach postgres://linkwise:***@db:5432/x");
  });

  it("follow LOG_LEVEL", () => {
    expect(logLines(`o.logger.info("quiet"); o.logger.warn("loud");`, { LOG_LEVEL: "warn" }).map((l) => l.msg)).toEqual(["loud"]);
  });
});

describe("the configuration", () => {
  it("refuses a malformed value, naming the variable", () => {
    expect(() => observeConfigFromEnv({ METRICS_PORT: "ninety" })).toThrow(/^METRICS_PORT must be a port number/);
    expect(() => observeConfigFromEnv({ LOG_LEVEL: "loud" })).toThrow(/^LOG_LEVEL must be one of/);
    expect(() => observeConfigFromEnv({ DRAIN_TIMEOUT_MS: "-5" })).toThrow(/^DRAIN_TIMEOUT_MS must be/);
  });

  it("has no metrics, no tracing and no trusted proxy by default", () => {
    expect(observeConfigFromEnv({})).toEqual({ logLevel: "info", metricsPort: null, metricsHost: undefined, drainTimeoutMs: 10_000, tracing: false });
    expect(observeConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", METRICS_PORT: "9464" })).toMatchObject({ tracing: true, metricsPort: 9464 });
    expect(observeConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }).tracing).toBe(false);
  });
});

describe("request ids from outside", () => {
  it("are taken when short and printable, refused otherwise", () => {
    expect(validRequestId("5f0c9a1e-2b7d-4c1e-9a55-0c1d2e3f4a5b")).toBe(true);
    expect(validRequestId("support-case-42")).toBe(true);
    for (const bad of ["", "a b", "x".repeat(129), "line\nbreak", 'quote"', undefined, ["a"]]) expect(validRequestId(bad)).toBe(false);
  });

  it("a text without anything secret-looking is left as it is", () => {
    expect(scrubText("GET /contacts?page=2&size=50")).toBe("GET /contacts?page=2&size=50");
  });
});
