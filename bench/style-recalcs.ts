// `npx tsx bench/style-recalcs.ts`: how many elements the browser restyles while a page loads and
// hydrates (issue 60). A benchmark, not a test.
//
// Style work grows with the rules the stylesheet holds, not only with the page: a `:has()` whose
// subject is <body> or every element makes Chromium restyle far more of the document on each DOM
// change (React hydrating, a chart's layer attaching). This counts it: the production build with
// the demo data (bench/server.ts, as `npm run bench:phone`), signed in, a phone's viewport, each
// page opened fresh with a Chromium trace running until the shell marks itself hydrated
// (`.shell[data-hydrated]`) and SETTLE_MS more; per page the sum of the trace's UpdateLayoutTree
// `elementCount` (elements restyled), how many recalculations and their time. Medians of
// STYLE_RUNS (default 3) views, after one view of each page to warm the server.
//
// STYLE_BUILD=<copy of build/> also measures that build (kept from before a change:
// `cp -r build bench/out/builds/before`), the two alternating, and prints both side by side.
// STYLE_ONLY=a,b picks pages of bench/phone-pages.ts (default: the ones below). Element counts do
// not depend on the machine's load; the times do.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { chromiumPath } from "../tests/e2e/env.ts";
import { median, waitUp } from "./measure.ts";
import { phonePages, type PhonePage } from "./phone-pages.ts";
import { apiAs, signIn, startServer } from "./server.ts";

const SETTLE_MS = Number(process.env.STYLE_SETTLE_MS ?? 1000);
const runs = Number(process.env.STYLE_RUNS ?? 3);
const defaults = ["dashboard", "main-dashboard", "main-dashboard-performance", "main-dashboard-ddos", "endpoints", "contacts"];
const only = (process.env.STYLE_ONLY ?? defaults.join(",")).split(",").filter(Boolean);
const pages = phonePages.filter((p) => only.includes(p.name) && p.signedIn !== false);
if (pages.length === 0) throw new Error(`STYLE_ONLY=${only.join(",")} names no signed-in page of bench/phone-pages.ts`);
const secret = "bench-style-session-secret";
const password = "bench-password";

interface View {
  /** Elements restyled: the sum of UpdateLayoutTree's elementCount. */
  elements: number;
  /** UpdateLayoutTree events (style recalculations). */
  recalcs: number;
  /** Their total duration, ms. */
  recalc_ms: number;
}

interface Target {
  name: string;
  base: string;
  cookie: string;
  urls: Map<PhonePage, string>;
}

type TraceEvent = { name: string; ph: string; dur?: number; args?: { elementCount?: number; data?: { elementCount?: number } } };

/** One fresh view of `url`: its style work from navigation to hydration + SETTLE_MS. */
async function view(browser: Browser, t: Target, url: string): Promise<View> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  await context.addCookies(
    t.cookie.split("; ").map((c) => {
      const [name, ...value] = c.split("=");
      return { name: name!, value: value.join("="), url: t.base };
    }),
  );
  const page = await context.newPage();
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  await page.goto(url, { waitUntil: "load", timeout: 120_000 });
  if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${page.url()}`);
  await page.locator(".shell[data-hydrated]").waitFor({ timeout: 120_000 });
  await page.waitForTimeout(SETTLE_MS);
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
  await context.close();
  let elements = 0;
  let recalcs = 0;
  let recalcUs = 0;
  for (const e of trace.traceEvents) {
    if (e.name !== "UpdateLayoutTree") continue;
    // A complete event ('X') holds its duration and count; a begin/end pair holds the count on the end ('E').
    if (e.ph === "X" || e.ph === "B") recalcs++;
    if (e.ph === "X") recalcUs += e.dur ?? 0;
    elements += e.args?.elementCount ?? e.args?.data?.elementCount ?? 0;
  }
  return { elements, recalcs, recalc_ms: recalcUs / 1000 };
}

async function prepare(name: string, port: number, build: string | undefined): Promise<{ target: Target; stop: () => Promise<void> }> {
  const base = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-style-"));
  const server = startServer({ port, dataDir, secret, password, build });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill();
      await new Promise((r) => server.once("exit", r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUp(base);
    const demo = await signIn(base, secret, "demo@linkwise.example", password);
    const ctx = { base, api: apiAs(base, demo.access_token) };
    const urls = new Map<PhonePage, string>();
    for (const p of pages) urls.set(p, `${base}${typeof p.path === "string" ? p.path : await p.path(ctx)}`);
    return { target: { name, base, cookie: demo.cookie, urls }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main() {
  const beforeBuild = process.env.STYLE_BUILD ? path.resolve(process.env.STYLE_BUILD, "server/index.js") : undefined;
  execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
  const prepared = [await prepare("this build", 3394, undefined)];
  if (beforeBuild) prepared.unshift(await prepare(`before (${process.env.STYLE_BUILD})`, 3395, beforeBuild));
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
  try {
    const targets = prepared.map((p) => p.target);
    for (const p of pages) for (const t of targets) await view(browser, t, t.urls.get(p)!);
    const results = new Map<string, View[]>();
    for (let r = 0; r < runs; r++) {
      for (const p of pages) {
        // Alternate which build goes first.
        for (const t of r % 2 === 0 ? targets : [...targets].reverse()) {
          const key = `${p.name}\t${t.name}`;
          results.set(key, [...(results.get(key) ?? []), await view(browser, t, t.urls.get(p)!)]);
        }
      }
    }
    console.log(`\nElements restyled from navigation to hydration + ${SETTLE_MS} ms, medians of ${runs} views (load average ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`| page | ${targets.map((t) => `${t.name}: elements | recalcs | ms`).join(" | ")} |`);
    console.log(`|---|${targets.map(() => "---|---|---|").join("")}`);
    for (const p of pages) {
      const cells = targets.map((t) => {
        const vs = results.get(`${p.name}\t${t.name}`)!;
        return `${median(vs.map((v) => v.elements))} | ${median(vs.map((v) => v.recalcs))} | ${median(vs.map((v) => v.recalc_ms)).toFixed(0)}`;
      });
      console.log(`| ${p.name} | ${cells.join(" | ")} |`);
    }
  } finally {
    await browser.close();
    for (const p of prepared) await p.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
