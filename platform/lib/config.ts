import path from "node:path";
import { parseAbuseLimits, type LimitName, type LimitSize } from "./abuse-limit-sizes.ts";
import { parseTrustProxy } from "./client-address.mjs";

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
   * (the speed test, 8–14 s; the activation test, ~53 s). Default 1. The end-to-end server runs
   * them 4 times faster: a Playwright worker waited a minute for each activation test.
   */
  fleetTestSpeed: number;
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
  /** TRUST_PROXY (default `loopback`): the peers whose X-Forwarded-For names the client (lib/client-address.mjs). */
  trustProxy: (address: string) => boolean;
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

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  return {
    dataDir: path.resolve(env.DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    productName: env.PRODUCT_NAME || "Linkwise",
    consoleUrl: (env.CONSOLE_URL || `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ""),
    demoPassword: env.DEMO_PASSWORD || "demo-password-1",
    fleetSeed: Number(env.FLEET_SEED ?? 1),
    fleetTick: env.FLEET_TICK !== undefined && env.FLEET_TICK !== "" ? Number(env.FLEET_TICK) : 5000,
    fleetTestSpeed: testSpeed(env.FLEET_TEST_SPEED),
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 12),
    seedDemo: env.SEED_DEMO !== "false",
    cacheCallers: env.CALLER_CACHE === "off" ? "off" : env.DATABASE_URL || env.CALLER_CACHE === "shared" ? "shared" : "local",
    pcapRetentionDays: env.PCAP_RETENTION_DAYS !== undefined && env.PCAP_RETENTION_DAYS !== "" ? Number(env.PCAP_RETENTION_DAYS) : 30,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || undefined,
      priceId: env.STRIPE_PRICE_ID || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
      apiUrl: env.STRIPE_API_URL || undefined,
    },
    webhookAllowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, ""))
      .filter(Boolean),
    abuseLimits: parseAbuseLimits(env.ABUSE_LIMITS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

/** FLEET_TEST_SPEED: a number from 1 to 100 (anything else, or unset, is real time). */
function testSpeed(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 1 && n <= 100 ? n : 1;
}
