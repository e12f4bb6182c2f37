import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/lib/env-schema.ts";
import { consoleConfigFromEnv, consoleSecrets } from "./env.server.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-console-config-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const secret = "c".repeat(40);
/** A console instance of a scaled deployment: production, a separate platform, a shared secret. */
const scaled = { NODE_ENV: "production", API_URL: "http://platform:8000/", SESSION_SECRET: secret };

function failure(env: NodeJS.ProcessEnv): string {
  try {
    consoleConfigFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("the console's configuration", () => {
  it("takes the embedded default's defaults", () => {
    expect(consoleConfigFromEnv({})).toMatchObject({ PORT: 3000, ACCESS_LOG: "on", DATA_DIR: "./data", PRODUCT_NAME: "Linkwise", PLATFORM_THREAD: "1" });
  });

  it("accepts a scaled console and reads a rotation's list of session secrets", () => {
    const config = consoleConfigFromEnv({ ...scaled, SESSION_SECRET: `${secret}, ${"d".repeat(32)}` });
    expect(config.API_URL).toBe("http://platform:8000");
    expect(config.SESSION_SECRET).toEqual([secret, "d".repeat(32)]);
  });

  const malformed: [string, string, string][] = [
    ["PORT", "x", "PORT must be a port number from 1 to 65535"],
    ["PORT", "0", "PORT must be a port number from 1 to 65535"],
    ["ACCESS_LOG", "false", "ACCESS_LOG must be on or off"],
    ["API_URL", "platform:8000", "API_URL must be a URL (http://platform:8000)"],
    ["IDP_LOGIN_URL", "idp.example.com", "IDP_LOGIN_URL must be a URL (https://idp.example.com/sso)"],
    ["CONSOLE_URL", "/console", "CONSOLE_URL must be a URL (https://console.example.com)"],
    ["STRIPE_JS_URL", "js.stripe.com", "STRIPE_JS_URL must be a URL (https://js.stripe.com/endive/stripe.js)"],
    ["COOKIE_SECURE", "no", "COOKIE_SECURE must be true or false"],
    ["PLATFORM_THREAD", "off", "PLATFORM_THREAD must be 0 or 1"],
    ["SESSION_SECRET", "short", "SESSION_SECRET must be one or more comma-separated secrets of at least 16 characters each (openssl rand -hex 32)"],
  ];
  for (const [name, value, line] of malformed) {
    it(`refuses ${name}=${value}`, () => {
      expect(failure({ API_URL: "http://platform:8000", [name]: value })).toBe(line);
    });
  }

  it("checks the embedded platform's variables too (no API_URL)", () => {
    expect(failure({ FLEET_TICK: "abc" })).toBe("FLEET_TICK must be a whole number of milliseconds (0 turns the fleet clock off)");
    // A separate platform checks its own.
    expect(() => consoleConfigFromEnv({ API_URL: "http://platform:8000", FLEET_TICK: "abc" })).not.toThrow();
  });

  it("requires SESSION_SECRET in production with API_URL or DATABASE_URL", () => {
    expect(failure({ NODE_ENV: "production", API_URL: "http://platform:8000" })).toBe(
      "SESSION_SECRET must be set (or SESSION_SECRET_FILE) with NODE_ENV=production and API_URL: every console must accept the sessions another signed",
    );
    expect(failure({ NODE_ENV: "production", DATABASE_URL: "postgres://db/linkwise", NODE_SECRETS_KEY: "k".repeat(64), OBJECTS_SECRET: "o".repeat(64), PLATFORM_URL: "https://c.example", CONSOLE_URL: "https://c.example" })).toMatch(
      /^SESSION_SECRET must be set \(or SESSION_SECRET_FILE\) with NODE_ENV=production and DATABASE_URL/,
    );
    // One console on its own embedded database keeps the secret generated into DATA_DIR.
    expect(() => consoleConfigFromEnv({ NODE_ENV: "production" })).not.toThrow();
  });

  it("reads SESSION_SECRET from SESSION_SECRET_FILE", () => {
    expect(consoleSecrets).toContain("SESSION_SECRET");
    const file = path.join(dir, "SESSION_SECRET");
    fs.writeFileSync(file, `${secret}\n`);
    const { SESSION_SECRET: _, ...env } = scaled;
    expect(consoleConfigFromEnv({ ...env, SESSION_SECRET_FILE: file }).SESSION_SECRET).toEqual([secret]);
    expect(failure({ ...scaled, SESSION_SECRET_FILE: file })).toBe("SESSION_SECRET and SESSION_SECRET_FILE are both set: give one of them");
  });

  it("reads DATABASE_URL from DATABASE_URL_FILE: in production it requires SESSION_SECRET too", () => {
    const file = path.join(dir, "DATABASE_URL");
    fs.writeFileSync(file, "postgres://linkwise:pw@db:5432/linkwise\n");
    const platform = { NODE_SECRETS_KEY: "k".repeat(64), OBJECTS_SECRET: "o".repeat(64), PLATFORM_URL: "https://c.example", CONSOLE_URL: "https://c.example", DATA_DIR_SHARED: "true" };
    expect(failure({ NODE_ENV: "production", DATABASE_URL_FILE: file, ...platform })).toMatch(/^SESSION_SECRET must be set .* and DATABASE_URL/);
    expect(consoleConfigFromEnv({ NODE_ENV: "production", DATABASE_URL_FILE: file, SESSION_SECRET: secret, ...platform }).DATABASE_URL).toBe("postgres://linkwise:pw@db:5432/linkwise");
  });
});

describe("the console's start (server.mjs on the build)", () => {
  beforeAll(() => {
    execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "ignore" });
  }, 300_000);

  const start = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ["server.mjs", "./build/server/index.js"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, ...env },
      encoding: "utf8",
      timeout: 60_000,
    });

  it("stops before listening with one line naming a malformed variable", () => {
    const run = start({ PORT: "x" });
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("[config] PORT must be a port number from 1 to 65535\n");
  });

  it("stops with one line when a scaled production console has no session secret", () => {
    const run = start({ NODE_ENV: "production", API_URL: "http://127.0.0.1:9" });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual([
      "[config] SESSION_SECRET must be set (or SESSION_SECRET_FILE) with NODE_ENV=production and API_URL: every console must accept the sessions another signed",
    ]);
  });
});
