import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { SERVER_NODE_FLAGS } from "../server/node-flags.mjs";
import { chromiumPath } from "../tests/e2e/env.ts";

/*
 * The main thread of a page with charts on a slow phone, two builds side by side
 * (docs/decisions/2026-12-03-charts-interactive-layer.md): each build's server on a fresh PGlite
 * with the demo account, then, alternating between them, a fresh signed-in page of each URL with
 * the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate) and a long-task observer from the first
 * script on. Per view: the long tasks' sum and Total Blocking Time (the part of each over 50 ms)
 * until `SETTLE_MS` after load, the JavaScript bytes (gzip, as sent) and the chunks loaded.
 *
 *   npx tsx bench/charts-layer.ts /path/to/before/checkout /path/to/after/checkout [rounds]
 *
 * Each checkout must be built (`npm run build`). Ratios, not absolute figures: the machine is shared.
 */

const [beforeDir, afterDir, roundsArg] = process.argv.slice(2);
if (!beforeDir || !afterDir) throw new Error("usage: charts-layer.ts BEFORE_DIR AFTER_DIR [rounds]");
const ROUNDS = Number(roundsArg ?? 4);
const URLS = ["/dashboard?range=1d", "/main-dashboard", "/main-dashboard?tab=health"];
const SETTLE_MS = 6000;
const demo = { username: "demo@linkwise.example", password: "demo-password-1" };

function startServer(dir: string, port: number): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.mjs", "./build/server/index.js"], {
    cwd: dir,
    stdio: ["ignore", "ignore", fs.openSync(`/tmp/charts-layer-${port}.log`, "w")],
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: `/tmp/charts-layer-${port}`, COOKIE_SECURE: "false", SEED_DEMO: "true", DEMO_PASSWORD: demo.password, DATABASE_URL: "", ACCESS_LOG: "off" },
  });
}

async function up(base: string) {
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${base}/login`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${base} did not start`);
}

interface View {
  tbt: number;
  /** The longest task: how long a tap may wait at worst. */
  maxTask: number;
  longTasks: number;
  jsKb: number;
  chunks: string[];
}

/** Signs in once per server (a password check is slow on purpose): the views reuse its cookies. */
async function signedIn(browser: Browser, base: string): Promise<Awaited<ReturnType<BrowserContext["storageState"]>>> {
  const context = await browser.newContext({ baseURL: base });
  for (let attempt = 0; ; attempt++) {
    try {
      const login = await context.request.get("/login");
      const csrf = /name="csrf"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="csrf"/.exec(await login.text());
      const res = await context.request.post("/login", { form: { csrf: csrf?.[1] ?? csrf?.[2] ?? "", username: demo.username, password: demo.password, redirectTo: "" }, maxRedirects: 0, timeout: 120_000 });
      if (res.status() === 302 || res.status() === 303) break;
      throw new Error(`sign-in: ${res.status()}`);
    } catch (e) {
      // The demo account is made in the background on a fresh database.
      if (attempt > 20) throw e;
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  const state = await context.storageState();
  await context.close();
  return state;
}

const sessions = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();

async function view(browser: Browser, base: string, url: string, blockLayer = false): Promise<View> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, storageState: sessions.get(base) });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  // The build without its interactive layer (chart.js, Leaflet never load): what the layer costs.
  if (blockLayer) await page.route(/\/assets\/(canvas|leaflet-map)-[^/]+\.js$/, (route) => route.abort());
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  let bytes = 0;
  const chunks: string[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (res) => {
    if (!res.url().endsWith(".js")) return;
    chunks.push(res.url().replace(/^.*\/assets\//, "").replace(/-[\w-]{8}\.js$/, ""));
    pending.push(
      res.request().sizes().then(
        (s) => void (bytes += s.responseBodySize),
        () => {},
      ),
    );
  });
  await page.goto(url, { waitUntil: "load", timeout: 180_000 });
  await page.waitForTimeout(SETTLE_MS);
  await Promise.all(pending);
  const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
  await context.close();
  return { maxTask: Math.max(0, ...long), tbt: long.reduce((s, d) => s + Math.max(0, d - 50), 0), longTasks: long.reduce((s, d) => s + d, 0), jsKb: bytes / 1024, chunks };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const servers = [startServer(beforeDir, 3301), startServer(afterDir, 3302)];
try {
  const bases = { before: "http://localhost:3301", after: "http://localhost:3302" };
  await Promise.all(Object.values(bases).map(up));
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-background-networking"] });
  for (const base of Object.values(bases)) sessions.set(base, await signedIn(browser, base));
  const results: Record<string, Record<"before" | "after" | "after, no layer", View[]>> = {};
  // A first view of each warms both servers (caches, JIT) and is not counted.
  for (const url of URLS) for (const base of Object.values(bases)) await view(browser, base, url);
  for (let r = 0; r < ROUNDS; r++) {
    for (const url of URLS) {
      results[url] ??= { before: [], after: [], "after, no layer": [] };
      // Alternate which goes first, so that neither always meets the other's after-effects.
      const order = r % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
      for (const which of order) results[url][which].push(await view(browser, bases[which], url));
      results[url]["after, no layer"].push(await view(browser, bases.after, url, true));
    }
  }
  await browser.close();
  for (const [url, { before, after, "after, no layer": noLayer }] of Object.entries(results)) {
    const line = (name: string, vs: View[]) =>
      `  ${name}: TBT median ${median(vs.map((v) => v.tbt)).toFixed(0)} ms, longest task ${median(vs.map((v) => v.maxTask)).toFixed(0)} ms (${vs.map((v) => v.tbt.toFixed(0)).join(", ")}), long tasks ${median(vs.map((v) => v.longTasks)).toFixed(0)} ms, JS ${median(vs.map((v) => v.jsKb)).toFixed(1)} KB, chunks ${vs[0]!.chunks.length}`;
    console.log(`${url} (CPU ×4, ${SETTLE_MS / 1000} s after load, ${ROUNDS} rounds each, alternating)`);
    console.log(line("before", before));
    console.log(line("after ", after));
    console.log(line("after, no layer", noLayer));
    console.log(`  after/before TBT ${(median(after.map((v) => v.tbt)) / Math.max(1, median(before.map((v) => v.tbt)))).toFixed(2)}`);
    console.log(`  chunks only before: ${before[0]!.chunks.filter((c) => !after[0]!.chunks.includes(c)).join(" ")}`);
    console.log(`  chunks only after:  ${after[0]!.chunks.filter((c) => !before[0]!.chunks.includes(c)).join(" ")}`);
  }
} finally {
  for (const s of servers) s.kill("SIGTERM");
}
