import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { platformAddress } from "../domain/node-files.ts";
import { configFromEnv, platformEnvSchema, platformSecrets } from "./config.ts";
import { ConfigError } from "./env-schema.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-config-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What a production platform instance on PostgreSQL is given (each secret 32 characters or more). */
const production = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://linkwise:pw@db:5432/linkwise",
  NODE_SECRETS_KEY: "a".repeat(64),
  OBJECTS_SECRET: "o".repeat(40),
  PLATFORM_URL: "https://nodes.example.com",
  CONSOLE_URL: "https://console.example.com",
  DATA_DIR_SHARED: "true",
};

/** The one line a configuration fails with. */
function failure(env: NodeJS.ProcessEnv): string {
  try {
    configFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("the configuration was accepted");
}

function secretFile(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe("the platform's configuration", () => {
  it("takes the defaults of the embedded database (the demo account on PGlite only)", () => {
    const config = configFromEnv({});
    expect(config).toMatchObject({ fleetTick: 5000, fleetSeed: 1, fleetTestSpeed: 1, fleetPerformanceSpeed: 1, pcapRetentionDays: 30, tokenTtlHours: 12, port: 8000, seedDemo: true, cacheCallers: "local", s3: null });
    expect(config.consoleUrl).toBe("http://localhost:3000");
    expect(config.platformUrl).toBeUndefined();
    // The service performance test runs as fast as the devices' other tests unless told otherwise.
    expect(configFromEnv({ FLEET_TEST_SPEED: "4" })).toMatchObject({ fleetTestSpeed: 4, fleetPerformanceSpeed: 4 });
    expect(configFromEnv({ FLEET_TEST_SPEED: "4", FLEET_SERVICE_PERFORMANCE_SPEED: "300" })).toMatchObject({ fleetTestSpeed: 4, fleetPerformanceSpeed: 300 });
  });

  it("makes the demo account on PostgreSQL only when SEED_DEMO=true", () => {
    expect(configFromEnv({ DATABASE_URL: production.DATABASE_URL }).seedDemo).toBe(false);
    expect(configFromEnv({ DATABASE_URL: production.DATABASE_URL, SEED_DEMO: "true" }).seedDemo).toBe(true);
    expect(configFromEnv({ SEED_DEMO: "false" }).seedDemo).toBe(false);
  });

  it("accepts a complete production set-up", () => {
    const config = configFromEnv({ ...production, PLATFORM_PORT: "8001", PORT: "9000" });
    expect(config).toMatchObject({ databaseUrl: production.DATABASE_URL, platformUrl: "https://nodes.example.com", consoleUrl: "https://console.example.com", port: 8001, cacheCallers: "shared", seedDemo: false });
  });

  // One case per malformed value: the one line names the variable and what it must be.
  const malformed: [string, string, RegExp][] = [
    ["FLEET_TICK", "abc", /^FLEET_TICK must be a whole number of milliseconds/],
    ["FLEET_TICK", "-5", /^FLEET_TICK must be a whole number/],
    ["FLEET_SEED", "1.5", /^FLEET_SEED must be a whole number from 0/],
    ["FLEET_TEST_SPEED", "500", /^FLEET_TEST_SPEED must be a number from 1 to 100$/],
    ["FLEET_TEST_SPEED", "fast", /^FLEET_TEST_SPEED must be a number from 1 to 100$/],
    ["FLEET_SERVICE_PERFORMANCE_SPEED", "0.5", /^FLEET_SERVICE_PERFORMANCE_SPEED must be a number from 1 to 100000$/],
    ["PCAP_RETENTION_DAYS", "-1", /^PCAP_RETENTION_DAYS must be a whole number of days/],
    ["TOKEN_TTL_HOURS", "0", /^TOKEN_TTL_HOURS must be a whole number of hours from 1 to 720$/],
    ["PORT", "x", /^PORT must be a port number from 1 to 65535$/],
    ["PLATFORM_PORT", "70000", /^PLATFORM_PORT must be a port number from 1 to 65535$/],
    ["DATABASE_URL", "mysql://db/linkwise", /^DATABASE_URL must be a postgres:\/\/ URL|^DATABASE_URL must be a URL/],
    ["DATABASE_URL", "not a url", /^DATABASE_URL must be a URL \(postgres:/],
    ["SMTP_URL", "mail.example.com:25", /^SMTP_URL must be a URL \(smtp:/],
    ["CONSOLE_URL", "console.example.com", /^CONSOLE_URL must be a URL \(https:/],
    ["PLATFORM_URL", "ftp://nodes.example.com", /^PLATFORM_URL must be a URL/],
    ["STRIPE_API_URL", "stripe", /^STRIPE_API_URL must be a URL/],
    ["S3_ENDPOINT", "minio:9000", /^S3_ENDPOINT must be a URL/],
    ["S3_FORCE_PATH_STYLE", "yes", /^S3_FORCE_PATH_STYLE must be true or false$/],
    ["SEED_DEMO", "1", /^SEED_DEMO must be true or false$/],
    ["CALLER_CACHE", "on", /^CALLER_CACHE must be local, shared or off$/],
    ["DEMO_PASSWORD", "short", /^DEMO_PASSWORD must be a password of at least 8 characters$/],
    ["NODE_SECRETS_KEY", "too-short", /^NODE_SECRETS_KEY must be one or more comma-separated secrets of at least 32 characters/],
    ["OBJECTS_SECRET", `${"o".repeat(40)},short`, /^OBJECTS_SECRET must be one or more comma-separated secrets of at least 32 characters/],
  ];
  for (const [name, value, message] of malformed) {
    it(`refuses ${name}=${value}`, () => {
      const line = failure({ [name]: value });
      expect(line).toMatch(message);
      expect(line).not.toContain("\n");
    });
  }

  it("does not repeat a refused value: a URL may hold a password", () => {
    expect(failure({ DATABASE_URL: "mysql://linkwise:hunter2secret@db/linkwise" })).not.toContain("hunter2secret");
  });

  // With NODE_ENV=production and DATABASE_URL, each shared value is required.
  for (const name of ["NODE_SECRETS_KEY", "OBJECTS_SECRET", "PLATFORM_URL", "CONSOLE_URL"] as const) {
    it(`requires ${name} in production on PostgreSQL`, () => {
      const env: NodeJS.ProcessEnv = { ...production };
      delete env[name];
      const line = failure(env);
      expect(line).toMatch(new RegExp(`^${name} must be set.* with NODE_ENV=production and DATABASE_URL: `));
      // Without production or without PostgreSQL the same set-up is fine (one instance, its DATA_DIR).
      expect(() => configFromEnv({ ...env, NODE_ENV: "development" })).not.toThrow();
      const { DATABASE_URL: _, ...embedded } = env;
      expect(() => configFromEnv(embedded)).not.toThrow();
    });
  }

  it("refuses uploads on one instance's own disk in production on PostgreSQL: S3, or DATA_DIR declared shared", () => {
    const { DATA_DIR_SHARED: _, ...own } = production;
    expect(failure(own)).toBe(
      "S3_BUCKET must be set with NODE_ENV=production and DATABASE_URL: any platform instance analyses any PCAP upload, so uploads must be in storage every instance reads (or set DATA_DIR_SHARED=true when DATA_DIR is one volume that every platform instance mounts, or there is one instance)",
    );
    expect(failure({ ...own, DATA_DIR_SHARED: "false" })).toMatch(/^S3_BUCKET must be set/);
    expect(failure({ ...own, DATA_DIR_SHARED: "yes" })).toBe("DATA_DIR_SHARED must be true or false");
    expect(configFromEnv({ ...own, DATA_DIR_SHARED: "true" }).dataDirShared).toBe(true);
    expect(configFromEnv({ ...own, S3_BUCKET: "pcaps" }).s3).toMatchObject({ bucket: "pcaps" });
    // One instance on its own database, or not production: its DATA_DIR is the only one.
    const { DATABASE_URL: __, ...embedded } = own;
    expect(configFromEnv(embedded).dataDirShared).toBe(false);
    expect(() => configFromEnv({ ...own, NODE_ENV: "development" })).not.toThrow();
  });

  it("does not require OBJECTS_SECRET when uploads go to S3", () => {
    const env: NodeJS.ProcessEnv = { ...production, S3_BUCKET: "pcaps" };
    delete env.OBJECTS_SECRET;
    expect(configFromEnv(env).s3).toMatchObject({ bucket: "pcaps", region: "us-east-1", forcePathStyle: false });
  });

  // Each secret may come from a file (container secrets).
  const values: Record<(typeof platformSecrets)[number], string> = {
    DATABASE_URL: "postgres://linkwise:from-file@db:5432/linkwise",
    SMTP_URL: "smtp://mailer:from-file@mail:587",
    NODE_SECRETS_KEY: "k".repeat(48),
    OBJECTS_SECRET: "s".repeat(48),
    DEMO_PASSWORD: "from-a-file-1",
    STRIPE_SECRET_KEY: "sk_test_fromfile",
    STRIPE_WEBHOOK_SECRET: "whsec_fromfile",
    S3_SECRET_ACCESS_KEY: "s3-from-file",
  };
  const read = (name: string, env: NodeJS.ProcessEnv) => {
    const c = configFromEnv({ ...env, S3_BUCKET: "pcaps" });
    const byName: Record<string, unknown> = {
      DATABASE_URL: c.databaseUrl,
      SMTP_URL: c.smtpUrl,
      NODE_SECRETS_KEY: c.nodeSecretsKey,
      OBJECTS_SECRET: c.objectsSecret,
      DEMO_PASSWORD: c.demoPassword,
      STRIPE_SECRET_KEY: c.stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: c.stripe.webhookSecret,
      S3_SECRET_ACCESS_KEY: c.s3?.secretAccessKey,
    };
    return byName[name];
  };
  for (const name of platformSecrets) {
    it(`reads ${name} from ${name}_FILE`, () => {
      // A file as an orchestrator mounts it: the value and a final line break.
      const file = secretFile(name, `${values[name]}\n`);
      expect(read(name, { [`${name}_FILE`]: file })).toBe(values[name]);
      expect(failure({ [name]: values[name], [`${name}_FILE`]: file })).toBe(`${name} and ${name}_FILE are both set: give one of them`);
    });
  }

  it("refuses a secret file that cannot be read or is empty", () => {
    expect(failure({ NODE_SECRETS_KEY_FILE: path.join(dir, "missing") })).toBe(`NODE_SECRETS_KEY_FILE must name a readable file (${path.join(dir, "missing")}: ENOENT)`);
    expect(failure({ NODE_SECRETS_KEY_FILE: secretFile("empty", "\n") })).toMatch(/^NODE_SECRETS_KEY_FILE must name a file holding the value/);
  });

  it("satisfies production's requirement with a secret from a file", () => {
    const env: NodeJS.ProcessEnv = { ...production, NODE_SECRETS_KEY_FILE: secretFile("node-key", "b".repeat(64)) };
    delete env.NODE_SECRETS_KEY;
    expect(configFromEnv(env).nodeSecretsKey).toBe("b".repeat(64));
  });

  it("gives node images PLATFORM_URL, else the console's address", () => {
    expect(Object.keys(platformEnvSchema.shape)).toContain("PLATFORM_URL");
    expect(platformAddress({ config: configFromEnv({ PLATFORM_URL: "https://nodes.example.com/", CONSOLE_URL: "https://console.example.com" }) })).toBe("https://nodes.example.com/api/v1");
    expect(platformAddress({ config: configFromEnv({ CONSOLE_URL: "https://console.example.com" }) })).toBe("https://console.example.com/api/v1");
  });
});

describe("the standalone platform's start", () => {
  const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
  const start = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [tsx, "platform/server.ts"], { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, ...env }, encoding: "utf8", timeout: 110_000 });

  it("stops at once with one line naming a malformed variable", () => {
    const run = start({ FLEET_TICK: "abc" });
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
    expect(run.stderr).toBe("[config] FLEET_TICK must be a whole number of milliseconds (0 turns the fleet clock off)\n");
    // Loading the platform's sources through tsx takes seconds, tens of them on a busy machine.
  }, 120_000);

  it("stops with one line when production on PostgreSQL lacks a shared secret", () => {
    const { NODE_SECRETS_KEY: _, ...env } = production;
    const run = start(env);
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual([
      "[config] NODE_SECRETS_KEY must be set (or NODE_SECRETS_KEY_FILE) with NODE_ENV=production and DATABASE_URL: every instance must decrypt the node keys another wrote",
    ]);
  }, 120_000);
});
