import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { configFromEnv } from "../../platform/lib/config.ts";
import { parseTrustProxy } from "../../server/client-address.mjs";
import { boolean, configOrExit, observeVariables, parseEnv, port, readSecretFiles, secretList, text, url, variable } from "../../platform/lib/env-schema.ts";

/**
 * The console's secrets: each may instead come from a file, NAME_FILE (container secrets).
 * DATABASE_URL too: the embedded platform's database decides whether SESSION_SECRET is required.
 */
export const consoleSecrets = ["SESSION_SECRET", "DATABASE_URL"] as const;

/**
 * Every variable the console's process reads (server.mjs's too: PORT, HOST, ACCESS_LOG), checked
 * when the server build is loaded, before it listens (docs/configuration.md). The platform's own
 * variables are checked by its schema (platform/lib/config.ts), here too when the platform is
 * embedded (no API_URL). To add one: a line here and its row in the README's table (a test compares
 * the two).
 */
export const consoleEnvSchema = z
  .object({
    NODE_ENV: text(),
    PORT: port(3000),
    HOST: text(),
    ACCESS_LOG: variable("on or off", (t) => (t === "on" || t === "off" ? t : undefined), "on"),
    DATA_DIR: text("./data"),
    API_URL: url(["http:", "https:"], "http://platform:8000"),
    // Declared here for the check below; the platform's schema says what it must be.
    DATABASE_URL: text(),
    SESSION_SECRET: secretList(16),
    COOKIE_SECURE: boolean(),
    IDP_LOGIN_URL: url(["https:", "http:"], "https://idp.example.com/sso"),
    PRODUCT_NAME: text("Linkwise"),
    CONSOLE_URL: url(["http:", "https:"], "https://console.example.com"),
    S3_ENDPOINT: url(["http:", "https:"], "https://s3.eu-west-1.amazonaws.com"),
    S3_BUCKET: text(),
    S3_FORCE_PATH_STYLE: boolean(),
    STRIPE_PUBLISHABLE_KEY: text(),
    STRIPE_JS_URL: url(["https:", "http:"], "https://js.stripe.com/endive/stripe.js"),
    STRIPE_API_URL: url(["https:", "http:"], "https://api.stripe.com"),
    // Read by server/http.mjs, which parses it again at start (docs/decisions/2026-12-03-abuse-limits.md).
    TRUST_PROXY: variable("addresses or CIDR ranges, loopback, private or none, comma-separated", (t) => {
      try {
        parseTrustProxy(t);
        return t;
      } catch {
        return undefined;
      }
    }, "loopback"),
    ...observeVariables,
    PLATFORM_THREAD: variable("0 or 1", (t) => (t === "0" || t === "1" ? t : undefined), "1"),
    // Read where they are used (platform/thread/host.ts): a bundle's thread files, a profiling switch.
    LINKWISE_PLATFORM_THREAD_DIR: text(),
    LINKWISE_ELU: text(),
  })
  .superRefine((env, ctx) => {
    // Consoles behind a balancer (each on the shared platform or database) must all accept the
    // cookies any of them signed: a secret generated into each one's DATA_DIR would not do.
    if (env.NODE_ENV === "production" && (env.API_URL || env.DATABASE_URL) && !env.SESSION_SECRET) {
      const mode = env.API_URL ? "API_URL" : "DATABASE_URL";
      ctx.issues.push({ code: "custom", path: ["SESSION_SECRET"], input: undefined, message: `must be set (or SESSION_SECRET_FILE) with NODE_ENV=production and ${mode}: every console must accept the sessions another signed` });
    }
  });

export type ConsoleEnv = z.output<typeof consoleEnvSchema>;

/**
 * The console's configuration from `env` (its secrets from NAME_FILE where given), and the
 * platform's too when it runs embedded: a ConfigError names the first variable missing or malformed.
 */
export function consoleConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ConsoleEnv {
  const config = parseEnv(consoleEnvSchema, readSecretFiles(env, consoleSecrets));
  if (!config.API_URL) configFromEnv(env);
  return config;
}

/** Read once, when the server build is loaded: a bad value ends the process with one line. */
export const consoleConfig = configOrExit(() => consoleConfigFromEnv());

export const productName = consoleConfig.PRODUCT_NAME;
export const apiUrl = consoleConfig.API_URL ?? null;
export const isProduction = consoleConfig.NODE_ENV === "production";

/**
 * SESSION_SECRET signs the cookies (a comma-separated list while rotating: the first signs, each
 * one verifies). Without one, a random secret is kept under DATA_DIR so that sessions survive a
 * restart of the embedded default (a production deployment with API_URL or DATABASE_URL must set it).
 */
function loadSessionSecrets(): string[] {
  if (consoleConfig.SESSION_SECRET) return consoleConfig.SESSION_SECRET;
  const dir = path.resolve(consoleConfig.DATA_DIR);
  const file = path.join(dir, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    const secret = randomBytes(32).toString("hex");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return [secret];
  }
}

export const sessionSecrets = loadSessionSecrets();
/** Secure cookies in production, unless COOKIE_SECURE=false (plain-http intranet deployments). */
export const secureCookies = consoleConfig.COOKIE_SECURE ?? isProduction;

/**
 * Where /idp-login?start sends the browser to sign in at the external identity provider (with
 * `state` and `redirect_uri` added); unset: no IdP sign-in (issue 27 item 9).
 */
export const idpLoginUrl = consoleConfig.IDP_LOGIN_URL ?? null;
