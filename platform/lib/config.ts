import path from "node:path";
import { z } from "zod";
import type { S3Settings } from "../storage/s3.ts";
import { boolean, integer, observeVariables, parseEnv, port, readSecretFiles, secretList, text, url, variable } from "./env-schema.ts";
import { parseAbuseLimits, type LimitName, type LimitSize } from "./abuse-limit-sizes.ts";
import { parseTrustProxy } from "../../server/client-address.mjs";

/** Everything the platform reads from the environment, in one place. */
export interface PlatformConfig {
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  productName: string;
  /** Public address of the console, for links in e-mails. */
  consoleUrl: string;
  demoPassword: string;
  /** Seed of the simulated provider network (docs/fleet.md): same seed, same network. */
  fleetSeed: number;
  /** Fleet clock period in ms (FLEET_TICK); 0 disables the clock. */
  fleetTick: number;
  /**
   * FLEET_TEST_SPEED: how many times faster than real time the simulated devices' own tests run
   * (the speed test, 8–14 s; the activation test's link checks and configuration steps, 33 s).
   * Default 1. The end-to-end server runs them 4 times faster: a Playwright worker waited for each.
   */
  fleetTestSpeed: number;
  /**
   * FLEET_SERVICE_PERFORMANCE_SPEED: how many times faster than real time the activation test's
   * service performance test runs (15 min, 2 h or 24 h, ITU-T Y.1564). Default FLEET_TEST_SPEED.
   * Tests run it hundreds of times faster, so that a 15-minute test lasts seconds; the report says so.
   */
  fleetPerformanceSpeed: number;
  tokenTtlHours: number;
  seedDemo: boolean;
  /**
   * The read cache (lib/auth.ts, docs/decisions/2026-11-23-read-cache.md):
   * - "local": resolved tokens and a few reads remembered until this process's next write. Only
   *   where this process is the database's sole writer (PGlite, the default there).
   * - "shared": reads remembered per instance, each stamped with the database's cache epoch, which
   *   every write moves on after it commits; each call reads the epoch with its token (one
   *   statement), so a write on any instance is seen on every other at once (DATABASE_URL's default).
   * - "off": every call reads the database (CALLER_CACHE=off).
   */
  cacheCallers: "local" | "shared" | "off";
  /** Uploaded captures older than this are deleted (0 keeps them). */
  pcapRetentionDays: number;
  /** Billing through Stripe (platform/domain/billing.ts); every field optional. */
  stripe: StripeConfig;
  /**
   * WEBHOOK_ALLOW_HOSTS (comma-separated host names or addresses): operations webhooks may use
   * http:// and private or loopback addresses for these hosts only (local testing). Default none.
   */
  webhookAllowHosts: string[];
  /** ABUSE_LIMITS: sizes of the abuse limits that differ from domain/abuse-limits.ts's defaults. */
  abuseLimits: Partial<Record<LimitName, LimitSize>>;
  /** TRUST_PROXY (default `loopback`): the peers whose X-Forwarded-For names the client (server/client-address.mjs). */
  trustProxy: (address: string) => boolean;
  /** Where the standalone platform listens (PLATFORM_PORT, else PORT; 8000). */
  port: number;
  /**
   * PLATFORM_URL: the platform's address as a node reaches it, baked into node images and
   * cloud-init data (node-files.ts); absent: the console's address.
   */
  platformUrl?: string;
  /** NODE_SECRETS_KEY: the key of the nodes' secrets at rest (domain/node-files-crypto.ts); absent: one generated into DATA_DIR. */
  nodeSecretsKey?: string;
  /** OBJECTS_SECRET: signs the embedded store's upload URLs (storage/signing.ts); absent: one generated into DATA_DIR. */
  objectsSecret?: string;
  /** PCAP uploads to an S3-compatible bucket (S3_BUCKET and its companions), else null: files under DATA_DIR. */
  s3?: S3Settings | null;
  /**
   * DATA_DIR_SHARED=true: DATA_DIR is one volume that every platform instance of the deployment
   * mounts (or there is one instance), so the uploads in it are every instance's. Required, in
   * production on PostgreSQL, when uploads do not go to S3 (docs/decisions/2026-12-03-pcap-analyses-on-the-queue.md).
   */
  dataDirShared?: boolean;
}

export interface StripeConfig {
  /** STRIPE_SECRET_KEY: without it the billing calls answer 'Stripe key not found'. */
  secretKey?: string;
  /** STRIPE_PRICE_ID: the price of the subscription each card starts. */
  priceId?: string;
  /** STRIPE_WEBHOOK_SECRET: the signing secret of the webhook endpoint (whsec_…). */
  webhookSecret?: string;
  /** STRIPE_API_URL: another Stripe API address (the tests' stand-in: http://127.0.0.1:4242). */
  apiUrl?: string;
}

/**
 * The secrets: each may instead come from a file, NAME_FILE (container secrets). A value with a
 * password in it (DATABASE_URL, SMTP_URL) counts as one.
 */
export const platformSecrets = [
  "DATABASE_URL",
  "SMTP_URL",
  "NODE_SECRETS_KEY",
  "OBJECTS_SECRET",
  "DEMO_PASSWORD",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "S3_SECRET_ACCESS_KEY",
] as const;

/** A parser that throws on a bad value, as `variable` wants it: undefined then. */
function parsed<T>(parse: (text: string) => T): (text: string) => T | undefined {
  return (text) => {
    try {
      return parse(text);
    } catch {
      return undefined;
    }
  };
}

/**
 * Every variable the platform reads, checked at start (docs/configuration.md). To add one: a line
 * here, its field in PlatformConfig and configFromEnv, and its row in the README's table (a test
 * compares the two).
 */
export const platformEnvSchema = z
  .object({
    NODE_ENV: text(),
    PORT: port(),
    PLATFORM_PORT: port(),
    DATA_DIR: text("./data"),
    DATA_DIR_SHARED: boolean(),
    DATABASE_URL: url(["postgres:", "postgresql:"], "postgres://user:password@host:5432/linkwise"),
    SMTP_URL: url(["smtp:", "smtps:"], "smtp://user:password@host:587"),
    PRODUCT_NAME: text("Linkwise"),
    CONSOLE_URL: url(["http:", "https:"], "https://console.example.com"),
    PLATFORM_URL: url(["http:", "https:"], "https://console.example.com"),
    DEMO_PASSWORD: variable("a password of at least 8 characters", (t) => (t.length >= 8 ? t : undefined), "demo-password-1"),
    SEED_DEMO: boolean(),
    FLEET_SEED: integer("a whole number from 0 to 4294967295", 0, 2 ** 32 - 1, 1),
    FLEET_TICK: integer("a whole number of milliseconds (0 turns the fleet clock off)", 0, 86_400_000, 5000),
    FLEET_TEST_SPEED: variable("a number from 1 to 100", (t) => (/^\d+(\.\d+)?$/.test(t.trim()) && Number(t) >= 1 && Number(t) <= 100 ? Number(t) : undefined), 1),
    FLEET_SERVICE_PERFORMANCE_SPEED: variable("a number from 1 to 100000", (t) => (/^\d+(\.\d+)?$/.test(t.trim()) && Number(t) >= 1 && Number(t) <= 100_000 ? Number(t) : undefined)),
    TOKEN_TTL_HOURS: integer("a whole number of hours from 1 to 720", 1, 720, 12),
    CALLER_CACHE: variable("local, shared or off", (t) => (t === "local" || t === "shared" || t === "off" ? t : undefined)),
    PCAP_RETENTION_DAYS: integer("a whole number of days (0 keeps captures)", 0, 36_500, 30),
    NODE_SECRETS_KEY: secretList(32),
    OBJECTS_SECRET: secretList(32),
    STRIPE_SECRET_KEY: text(),
    STRIPE_PRICE_ID: text(),
    STRIPE_WEBHOOK_SECRET: text(),
    STRIPE_API_URL: url(["http:", "https:"], "https://api.stripe.com"),
    S3_ENDPOINT: url(["http:", "https:"], "https://s3.eu-west-1.amazonaws.com"),
    S3_BUCKET: text(),
    S3_REGION: text("us-east-1"),
    S3_ACCESS_KEY_ID: text(),
    S3_SECRET_ACCESS_KEY: text(),
    S3_FORCE_PATH_STYLE: boolean(),
    WEBHOOK_ALLOW_HOSTS: text(""),
    ...observeVariables,
    TRUST_PROXY: variable("addresses or CIDR ranges, loopback, private or none, comma-separated", parsed(parseTrustProxy), parseTrustProxy(undefined)),
    ABUSE_LIMITS: variable("name=points/duration pairs, comma-separated, such as register.address=200/1h", parsed(parseAbuseLimits), {}),
    // Read where it is used (pcap/queue.ts): where a bundle built elsewhere finds the PCAP worker.
    LINKWISE_PCAP_DIR: text(),
  })
  .superRefine((env, ctx) => {
    // Several instances on one PostgreSQL must share what one writes and another reads: a value
    // generated into each instance's DATA_DIR would differ between them (docs/configuration.md).
    if (env.NODE_ENV !== "production" || !env.DATABASE_URL) return;
    const required: [string, unknown, string][] = [
      ["NODE_SECRETS_KEY", env.NODE_SECRETS_KEY, "every instance must decrypt the node keys another wrote"],
      ["PLATFORM_URL", env.PLATFORM_URL, "the address nodes reach, baked into their images"],
      ["CONSOLE_URL", env.CONSOLE_URL, "the console's address, in e-mails' links"],
    ];
    // The embedded object store signs its upload URLs; with S3 the bucket signs them.
    if (!env.S3_BUCKET) required.push(["OBJECTS_SECRET", env.OBJECTS_SECRET, "every instance must accept the upload URLs another signed (or set S3_BUCKET)"]);
    for (const [name, value, why] of required) {
      if (value === undefined) {
        const file = (platformSecrets as readonly string[]).includes(name) ? ` (or ${name}_FILE)` : "";
        ctx.issues.push({ code: "custom", path: [name], input: undefined, message: `must be set${file} with NODE_ENV=production and DATABASE_URL: ${why}` });
      }
    }
    // Any instance analyses any upload (a job on the shared queue): the uploads must be where every
    // instance reads them. A DATA_DIR of one instance's own disk is not, unless declared shared.
    if (!env.S3_BUCKET && env.DATA_DIR_SHARED !== true) {
      ctx.issues.push({
        code: "custom",
        path: ["S3_BUCKET"],
        input: undefined,
        message:
          "must be set with NODE_ENV=production and DATABASE_URL: any platform instance analyses any PCAP upload, so uploads must be in storage every instance reads (or set DATA_DIR_SHARED=true when DATA_DIR is one volume that every platform instance mounts, or there is one instance)",
      });
    }
  });

/**
 * The platform's configuration from the environment (its secrets from NAME_FILE where given).
 * Throws a ConfigError naming the first variable missing or malformed; platform/server.ts and the
 * console (app/lib/env.server.ts) turn it into one line and an exit.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const e = parseEnv(platformEnvSchema, readSecretFiles(env, platformSecrets));
  const consoleUrl = e.CONSOLE_URL ?? `http://localhost:${e.PORT ?? 3000}`;
  return {
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    productName: e.PRODUCT_NAME,
    consoleUrl,
    platformUrl: e.PLATFORM_URL,
    demoPassword: e.DEMO_PASSWORD,
    // The demo account only where asked: by default on the embedded database (npm start on a
    // laptop), never by default on a PostgreSQL deployment.
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    fleetSeed: e.FLEET_SEED,
    fleetTick: e.FLEET_TICK,
    fleetTestSpeed: e.FLEET_TEST_SPEED,
    fleetPerformanceSpeed: e.FLEET_SERVICE_PERFORMANCE_SPEED ?? e.FLEET_TEST_SPEED,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    // "local" only where this process is the database's sole writer: never with DATABASE_URL.
    cacheCallers: e.CALLER_CACHE === "off" ? "off" : e.DATABASE_URL || e.CALLER_CACHE === "shared" ? "shared" : "local",
    pcapRetentionDays: e.PCAP_RETENTION_DAYS,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      priceId: e.STRIPE_PRICE_ID,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiUrl: e.STRIPE_API_URL,
    },
    webhookAllowHosts: e.WEBHOOK_ALLOW_HOSTS.split(",")
      .map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, ""))
      .filter(Boolean),
    abuseLimits: e.ABUSE_LIMITS,
    trustProxy: e.TRUST_PROXY,
    port: e.PLATFORM_PORT ?? e.PORT ?? 8000,
    nodeSecretsKey: e.NODE_SECRETS_KEY?.join(","),
    objectsSecret: e.OBJECTS_SECRET?.join(","),
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET.trim(),
          region: e.S3_REGION.trim(),
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
        }
      : null,
    dataDirShared: e.DATA_DIR_SHARED ?? false,
  };
}
