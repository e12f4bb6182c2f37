// The server the end-to-end tests run against: the production build on a fresh data directory.
// Its database is PGlite in that directory, or, when E2E_DATABASE_URL is set (`npm test` sets it to
// a private database it creates and drops when PostgreSQL answers), that PostgreSQL database: the
// production set-up, and the server's share of the run's CPU 25–30 → 16–18 CPU-seconds on
// contacts.spec + entities.spec (PGlite runs PostgreSQL in WebAssembly on the server's thread).
import { execSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { SERVER_NODE_FLAGS } from "../server/node-flags.mjs";
import { startStripeStandin } from "../tests/stripe-standin.mjs";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
fs.rmSync(dataDir, { recursive: true, force: true });
execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
// Billing talks to a local Stripe stand-in (tests/stripe-standin.mjs): the platform's `stripe`
// client through STRIPE_API_URL, the browser's Stripe.js double and Checkout page from it too.
const stripe = await startStripeStandin();
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.mjs", "./build/server/index.js"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    COOKIE_SECURE: "false",
    // The specs sign in as the demo account (dashboard, billing, routers…): made only where asked,
    // and a PostgreSQL deployment does not make it by default.
    SEED_DEMO: "true",
    DEMO_PASSWORD: "demo-password-1",
    // What a production deployment on PostgreSQL must be given (docs/configuration.md), new each run.
    SESSION_SECRET: randomBytes(32).toString("hex"),
    NODE_SECRETS_KEY: randomBytes(32).toString("hex"),
    OBJECTS_SECRET: randomBytes(32).toString("hex"),
    // One instance: its DATA_DIR holds every upload (a scaled deployment uses S3: tests/scaled/).
    DATA_DIR_SHARED: "true",
    PLATFORM_URL: `http://localhost:${process.env.PORT}`,
    CONSOLE_URL: `http://localhost:${process.env.PORT}`,
    // /idp-login?start sends the browser here (never followed by the tests: they read its state).
    IDP_LOGIN_URL: "https://idp.example/sso",
    STRIPE_SECRET_KEY: "sk_test_standin",
    STRIPE_PUBLISHABLE_KEY: "pk_test_standin",
    STRIPE_PRICE_ID: "price_standin_monthly",
    STRIPE_WEBHOOK_SECRET: "whsec_standin",
    STRIPE_API_URL: stripe.url,
    STRIPE_JS_URL: `${stripe.url}/stripe.js`,
    // Operations webhooks to the specs' own receivers on 127.0.0.1 (http, loopback: allowed for this host only).
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
    // The devices' own tests 4 times faster (the activation test's checks and steps ~8 s instead
    // of 33 s), and its service performance test 300 times (15 min in 3 s; its report says it was
    // accelerated): the specs follow them to their end, and a worker otherwise waited for each.
    FLEET_TEST_SPEED: "4",
    FLEET_SERVICE_PERFORMANCE_SPEED: "300",
    // The whole suite is one browser address (127.0.0.1) that registers an account per test and
    // invites IAM users into one worker account: the per-address limits are lifted, the
    // per-address-and-account ones stay (docs/decisions/2026-12-03-abuse-limits.md).
    ABUSE_LIMITS: ["login", "code", "reset", "register", "invite"].map((k) => `${k}.address=1000000/1h`).join(",") + ",invite.account=1000000/1h",
    // Never a DATABASE_URL of the environment: the tests write freely into their database.
    DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
  },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => stripe.close().finally(() => process.exit(code ?? 0)));
