import fs from "node:fs";
import { z } from "zod";

/*
 * What both processes' configuration schemas are made of (the console's: app/lib/env.server.ts;
 * the platform's: lib/config.ts). Each reads the environment once, at start; a value missing or
 * malformed stops the process with one line naming the variable and what it must be
 * (docs/configuration.md). Environment values are strings: an empty one counts as unset.
 */

/** A variable missing or malformed: `message` is the one line the process prints before it stops. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

/**
 * NAME_FILE for each secret NAME: the value is read from that file (container secrets mounted as
 * files), its final line break dropped. Both set is an error, as is a file that cannot be read or is
 * empty. Answers a copy of `env` with the secrets' values filled in.
 */
export function readSecretFiles(env: Env, secrets: readonly string[]): Env {
  const out: Env = { ...env };
  for (const name of secrets) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) throw new ConfigError(`${name} and ${name}_FILE are both set: give one of them`);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new ConfigError(`${name}_FILE must name a readable file (${file}: ${(err as NodeJS.ErrnoException).code ?? "unreadable"})`);
    }
    text = text.replace(/\r?\n$/, "");
    if (!text.trim()) throw new ConfigError(`${name}_FILE must name a file holding the value (${file} is empty)`);
    out[name] = text;
  }
  return out;
}

/**
 * One variable: unset (or empty) gives `fallback`; otherwise `parse` answers its value, or undefined
 * when the text is not acceptable, and the error says `NAME must be <mustBe>`.
 */
export function variable<T>(mustBe: string, parse: (text: string) => T | undefined): z.ZodType<T | undefined>;
export function variable<T>(mustBe: string, parse: (text: string) => T | undefined, fallback: T): z.ZodType<T>;
export function variable<T>(mustBe: string, parse: (text: string) => T | undefined, fallback?: T) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === "") return fallback;
      const value = parse(text);
      if (value === undefined) {
        ctx.issues.push({ code: "custom", message: `must be ${mustBe}`, input: text });
        return z.NEVER;
      }
      return value;
    });
}

/** Any text (unset: `fallback`, or undefined without one). */
export function text(): z.ZodType<string | undefined>;
export function text(fallback: string): z.ZodType<string>;
export function text(fallback?: string) {
  return fallback === undefined ? variable("text", (t) => t) : variable("text", (t) => t, fallback);
}

/** A whole number from `min` to `max`. */
export function integer(mustBe: string, min: number, max: number, fallback: number) {
  return variable(mustBe, (t) => (/^\d+$/.test(t.trim()) && Number(t) >= min && Number(t) <= max ? Number(t) : undefined), fallback);
}

/** `true` or `false`. */
export function boolean(fallback?: boolean) {
  const parse = (t: string) => (t === "true" ? true : t === "false" ? false : undefined);
  return fallback === undefined ? variable("true or false", parse) : variable("true or false", parse, fallback);
}

/** An absolute URL with one of `protocols` (e.g. ["http:", "https:"]), without its trailing slash. */
export function url(protocols: readonly string[], example: string) {
  const mustBe = `${protocols.length > 1 ? "a URL" : `a ${protocols[0]}// URL`} (${example})`;
  return variable(mustBe, (t) => {
    try {
      const u = new URL(t.trim());
      return protocols.includes(u.protocol) && u.host ? t.trim().replace(/\/+$/, "") : undefined;
    } catch {
      return undefined;
    }
  });
}

/**
 * A secret, or a comma-separated list of them while one is rotated (the first in use, the others
 * still accepted): each at least `min` characters.
 */
export function secretList(min: number) {
  return variable(`one or more comma-separated secrets of at least ${min} characters each (openssl rand -hex 32)`, (t) => {
    const list = t.split(",").map((s) => s.trim()).filter(Boolean);
    return list.length > 0 && list.every((s) => s.length >= min) ? list : undefined;
  });
}

/** A TCP port (unset: `fallback`, or undefined without one). */
export function port(fallback?: number) {
  const parse = (t: string) => (/^\d+$/.test(t.trim()) && Number(t) >= 1 && Number(t) <= 65535 ? Number(t) : undefined);
  return fallback === undefined ? variable("a port number from 1 to 65535", parse) : variable("a port number from 1 to 65535", parse, fallback);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/**
 * What server/observe.mjs reads in both tiers (logs, metrics, traces, draining; docs/operations.md),
 * declared in each process's schema so that a bad value stops it at start with the others.
 */
export const observeVariables = {
  LOG_LEVEL: variable(`one of ${LOG_LEVELS.join(", ")}`, (t) => (LOG_LEVELS.includes(t.trim().toLowerCase()) ? t.trim().toLowerCase() : undefined), "info"),
  // 0: any free port (tests).
  METRICS_PORT: variable("a port number from 0 to 65535", (t) => (/^\d+$/.test(t.trim()) && Number(t) <= 65535 ? Number(t) : undefined)),
  METRICS_HOST: text(),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(["http:", "https:"], "http://collector:4318"),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(["http:", "https:"], "http://collector:4318/v1/traces"),
  OTEL_TRACES_EXPORTER: text(),
  OTEL_SDK_DISABLED: boolean(),
  OTEL_SERVICE_NAME: text(),
  DRAIN_TIMEOUT_MS: integer("a whole number of milliseconds", 0, 3_600_000, 10_000),
};

/**
 * Parses `env` with `schema`; the first problem found becomes a ConfigError naming its variable
 * (`FLEET_TICK must be …`). A schema's cross-variable checks name theirs through the issue's path.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.length ? String(issue.path[0]) : "configuration";
  throw new ConfigError(`${name} ${issue.message}`);
}

/**
 * Runs `load` at start: a ConfigError prints its one line (no stack trace) and ends the process
 * with exit code 78 (EX_CONFIG, sysexits.h), so an orchestrator can tell it from a crash.
 */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`[config] ${err.message}\n`);
    process.exit(78);
  }
}

/** The variables a schema declares (for the README's table, and its test). */
export function declaredVariables(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape);
}
