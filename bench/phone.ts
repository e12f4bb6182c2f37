// `npm run bench:phone`: every screen on a mid-range phone (issue 60), as Lighthouse sees it.
//
// Lighthouse 12 (pinned in package.json) with its default, mobile profile: a phone's screen,
// simulated throttling (slow 4G, a CPU 4× slower than this machine's). The production build
// (server.mjs) with the demo data, signed in as the demo account (through the console's Login
// form, once, in the browser Lighthouse drives: Lighthouse keeps cookies between runs; a Cookie
// header in its `extraHeaders` was not sent by this Chromium: every page went to /login), on each page of
// bench/phone-pages.ts, and on the shell (the signed-in 404 page: the layout, no data) at the
// start and after every few pages. Prints per page its performance score, Total Blocking Time,
// Largest Contentful Paint and Cumulative Layout Shift, beside the shell's measured nearest
// before it, the machine's load average and Lighthouse's benchmark index at that moment (a
// loaded machine inflates the CPU times that the throttling multiplies: compare two builds side
// by side, in one sitting). Targets (issue 60): score ≥ 95, TBT ≤ 200 ms, LCP ≤ 2.5 s, CLS 0;
// exit code 1 when a page misses one.
//
// Writes bench/out/phone.json (the figures) and bench/out/phone/<page>.json (each page's full
// Lighthouse report: its diagnostics, e.g. `jq '.audits["bootup-time"].details.items'`).
// PHONE_ONLY=a,b measures those pages only (and the shell); PHONE_RUNS=n (default 1) measures each
// page n times and takes the medians; PHONE_COMPARE=<earlier phone.json> prints its figures
// beside; PHONE_BUILD=<dir> serves that build instead of building (`cp -r build bench/out/builds/before`
// before a change: inside the checkout, where its server finds node_modules; a copy in /tmp does
// not start; then a run on each, one after the other); PHONE_OUT=<file> writes the figures there instead; PHONE_SHELL_EVERY (default 8)
// pages between two measurements of the shell; PHONE_PORT (default 3392); CHROMIUM_PATH as for
// the end-to-end tests (scripts/chromium.mjs).
// PHONE_BEFORE=<copy of build/> (made as for PHONE_BUILD) measures side by side, in one sitting:
// a second server on PHONE_PORT+1 serves that build (this one at 127.0.0.1, that one at
// 127.0.0.2, so that the two servers' cookies do not mix), and each page (and the shell) is measured on both builds in turn, the order
// swapped every run; it prints the medians of both and the ratios of this build's TBT and LCP to
// the earlier build's (bench/out/phone-side-by-side.json). Only the ratios of one such sitting say
// what a change did: the machine's load moves TBT by hundreds of ms within minutes.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";
import { findChromium } from "../scripts/chromium.mjs";
import { median, waitUp } from "./measure.ts";
import { phonePages, shell, type PhonePage } from "./phone-pages.ts";
import { apiAs, signIn, startServer } from "./server.ts";

const port = Number(process.env.PHONE_PORT ?? 3392);
// Side by side (PHONE_BEFORE), both servers at a loopback address of the same kind, each its own
// host for the cookies (127.0.0.1 and 127.0.0.2): in an A/A run (the same build on both sides)
// the side at `localhost` came out slower than the one at 127.0.0.1.
const base = process.env.PHONE_BEFORE ? `http://127.0.0.1:${port}` : `http://localhost:${port}`;
const secret = "bench-phone-session-secret";
const password = "bench-password";
const runs = Number(process.env.PHONE_RUNS ?? 1);
const shellEvery = Number(process.env.PHONE_SHELL_EVERY ?? 8);
const only = (process.env.PHONE_ONLY ?? "").split(",").filter(Boolean);
const pages = phonePages.filter((p) => only.length === 0 || only.includes(p.name));
if (pages.length === 0) throw new Error(`PHONE_ONLY=${only.join(",")} names no page of bench/phone-pages.ts`);
const outFile = process.env.PHONE_OUT ?? (only.length ? `bench/out/phone-${only.join("-")}.json` : "bench/out/phone.json");
const targets = { score: 95, tbt_ms: 200, lcp_ms: 2500, cls: 0 };

/** One Lighthouse run's figures. */
interface Figures {
  score: number;
  tbt_ms: number;
  lcp_ms: number;
  cls: number;
  fcp_ms: number;
  /** Lighthouse's measure of this machine's speed at that moment (higher is faster). */
  benchmark_index: number;
  /** The machine's 1-minute load average just before the run. */
  load: number;
}
interface Measured extends Figures {
  name: string;
  url: string;
  shell: Figures;
  /** Lighthouse's diagnostics worth a glance: the main thread's script time, the bytes it calls unused, what blocks rendering. */
  script_ms: number;
  unused_js_kb: number;
  unused_css_kb: number;
  render_blocking: string[];
  failures: string[];
}

const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

// PHONE_BUILD=<dir>: serve that build (a copy of build/ made before a change) instead of building.
const build = process.env.PHONE_BUILD ? path.resolve(process.env.PHONE_BUILD, "server/index.js") : undefined;
if (!build) execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
// PHONE_BEFORE=<dir>: the earlier build, served beside this one (side by side).
const beforeBuild = process.env.PHONE_BEFORE ? path.resolve(process.env.PHONE_BEFORE, "server/index.js") : undefined;
const beforeBase = `http://127.0.0.2:${port + 1}`;
const chromium = findChromium();
if (!chromium) throw new Error("no Chromium (scripts/chromium.mjs): install chromium-headless-shell or set CHROMIUM_PATH");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-phone-"));
const server = startServer({ port, dataDir, secret, password, build });
const beforeDataDir = beforeBuild ? fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-phone-before-")) : undefined;
const beforeServer = beforeBuild ? startServer({ port: port + 1, dataDir: beforeDataDir!, secret, password, build: beforeBuild }) : undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
let lighthouseVersion = "";

async function main() {
  await waitUp(base);
  const demo = await signIn(base, secret, "demo@linkwise.example", password);
  const ctx = { base, api: apiAs(base, demo.access_token) };
  const resolveOn = async (p: PhonePage, c: typeof ctx) => (typeof p.path === "string" ? p.path : p.path(c));
  const resolve = (p: PhonePage) => resolveOn(p, ctx);
  const urls = new Map<PhonePage, string>();
  for (const p of [shell, ...pages]) {
    const url = `${base}${await resolve(p)}`;
    const r = await fetch(url, { headers: p.signedIn === false ? {} : { cookie: demo.cookie }, redirect: "manual" });
    await r.arrayBuffer();
    // The shell is a 404 by design; every other page must answer 200.
    if (r.status !== (p === shell ? 404 : 200)) throw new Error(`${p.name}: ${url} → ${r.status}`);
    urls.set(p, url);
  }

  chrome = await chromeLauncher.launch({ chromePath: chromium!.path, chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"] });
  fs.mkdirSync("bench/out/phone", { recursive: true });
  /** One Lighthouse run of a page (its full report kept in bench/out/phone/<name>.json). */
  async function run(p: PhonePage, url = urls.get(p)!, tag = "") {
    const load = os.loadavg()[0]!;
    const result = await lighthouse(url, {
      port: chrome!.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      // The shell is the signed-in 404 page: its status is the point, not an error.
      ignoreStatusCode: p === shell,
    });
    if (!result) throw new Error(`${p.name}: Lighthouse gave no result`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${p.name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // A page that sent the browser elsewhere (to /login: not signed in) is not the page.
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${p.name}: ${url} ended at ${lhr.finalDisplayedUrl}`);
    lighthouseVersion = lhr.lighthouseVersion;
    fs.writeFileSync(`bench/out/phone/${p.name}${tag}.json`, JSON.stringify(lhr));
    const n = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    type Items = { items?: Record<string, unknown>[]; overallSavingsBytes?: number };
    const details = (id: string) => (lhr.audits[id]?.details ?? {}) as Items;
    const figures: Figures & Pick<Measured, "script_ms" | "unused_js_kb" | "unused_css_kb" | "render_blocking"> = {
      score: round((lhr.categories.performance?.score ?? 0) * 100),
      tbt_ms: round(n("total-blocking-time")),
      lcp_ms: round(n("largest-contentful-paint")),
      cls: round(n("cumulative-layout-shift"), 3),
      fcp_ms: round(n("first-contentful-paint")),
      benchmark_index: round(lhr.environment.benchmarkIndex),
      load: round(load, 2),
      script_ms: round((details("bootup-time").items ?? []).reduce((s, i) => s + Number(i.scripting ?? 0), 0)),
      unused_js_kb: round((details("unused-javascript").overallSavingsBytes ?? 0) / 1024),
      unused_css_kb: round((details("unused-css-rules").overallSavingsBytes ?? 0) / 1024),
      render_blocking: (details("render-blocking-resources").items ?? []).map((i) => String(i.url).replace(base, "")),
    };
    console.log(JSON.stringify({ page: `${p.name}${tag}`, ...figures }));
    return figures;
  }

  /** `run`, once more when Lighthouse fails on the way (a DevTools call timing out on a loaded machine). */
  async function measure(p: PhonePage, url = urls.get(p)!, tag = "") {
    try {
      return await run(p, url, tag);
    } catch (error) {
      console.log(`${p.name}${tag}: ${(error as Error).message}; once more`);
      return run(p, url, tag);
    }
  }

  /** Signs the browser in through the console's own Login form (the demo account): its session cookie stays for every later run. */
  async function signInBrowser(origin = base) {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome!.port}` });
    const page = await browser.newPage();
    await page.goto(`${origin}/login`);
    await page.type('input[name="username"]', "demo@linkwise.example");
    await page.type('input[name="password"]', password);
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    if (new URL(page.url()).pathname === "/login") throw new Error("the demo account's sign-in through the Login form failed");
    await page.close();
    await browser.disconnect();
  }

  if (beforeBuild) return sideBySide(measure, signInBrowser, urls, resolveOn);

  const results: Measured[] = [];
  const perPage = new Map<PhonePage, Awaited<ReturnType<typeof run>>[]>();
  const shellFor = new Map<PhonePage, Figures[]>();
  // The public pages first, signed out; the shell's first measurement stands beside them.
  const signedOut = pages.filter((p) => p.signedIn === false);
  const signedIn = pages.filter((p) => p.signedIn !== false);
  for (let r = 0; r < runs; r++) {
    for (const p of signedOut) perPage.set(p, [...(perPage.get(p) ?? []), await measure(p)]);
  }
  await signInBrowser();
  for (let r = 0; r < runs; r++) {
    let lastShell = await measure(shell);
    for (const p of signedOut) if (r === 0) shellFor.set(p, Array(runs).fill(lastShell));
    for (const [k, p] of signedIn.entries()) {
      if (k > 0 && k % shellEvery === 0) lastShell = await measure(shell);
      perPage.set(p, [...(perPage.get(p) ?? []), await measure(p)]);
      shellFor.set(p, [...(shellFor.get(p) ?? []), lastShell]);
    }
  }
  const med = <T extends Figures>(xs: T[]): Figures => ({
    score: median(xs.map((x) => x.score)),
    tbt_ms: median(xs.map((x) => x.tbt_ms)),
    lcp_ms: median(xs.map((x) => x.lcp_ms)),
    cls: median(xs.map((x) => x.cls)),
    fcp_ms: median(xs.map((x) => x.fcp_ms)),
    benchmark_index: median(xs.map((x) => x.benchmark_index)),
    load: median(xs.map((x) => x.load)),
  });
  for (const p of pages) {
    const xs = perPage.get(p)!;
    const m: Measured = {
      name: p.name,
      url: urls.get(p)!.slice(base.length),
      ...med(xs),
      shell: med(shellFor.get(p)!),
      script_ms: median(xs.map((x) => x.script_ms)),
      unused_js_kb: median(xs.map((x) => x.unused_js_kb)),
      unused_css_kb: median(xs.map((x) => x.unused_css_kb)),
      render_blocking: xs[0]!.render_blocking,
      failures: [],
    };
    if (m.score < targets.score) m.failures.push(`score ${m.score} < ${targets.score}`);
    if (m.tbt_ms > targets.tbt_ms) m.failures.push(`TBT ${m.tbt_ms} ms > ${targets.tbt_ms}`);
    if (m.lcp_ms > targets.lcp_ms) m.failures.push(`LCP ${m.lcp_ms} ms > ${targets.lcp_ms}`);
    if (round(m.cls, 2) > targets.cls) m.failures.push(`CLS ${m.cls} > ${targets.cls}`);
    results.push(m);
  }

  const report = {
    date: new Date().toISOString(),
    lighthouse: lighthouseVersion,
    chromium: await chromeVersion(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    runs,
    targets,
    pages: results,
  };
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(report, null, 2));

  const before = process.env.PHONE_COMPARE ? (JSON.parse(fs.readFileSync(process.env.PHONE_COMPARE, "utf8")) as typeof report) : null;
  const fmt = (f: Figures) => `${f.score} | ${f.tbt_ms} | ${(f.lcp_ms / 1000).toFixed(1)} | ${round(f.cls, 2)}`;
  console.log(`\nLighthouse ${report.lighthouse}, mobile profile, ${report.chromium}, ${report.machine}, ${report.date}${runs > 1 ? `, medians of ${runs} runs` : ""}`);
  console.log(`| page | score | TBT ms | LCP s | CLS | shell: score | TBT | LCP | CLS | load, benchmark index |${before ? " before: score | TBT | LCP | CLS |" : ""} verdict |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|${before ? "---|---|---|---|" : ""}---|`);
  for (const m of results) {
    const was = before?.pages.find((b) => b.name === m.name);
    console.log(`| ${m.url} | ${fmt(m)} | ${fmt(m.shell)} | ${m.load}, ${m.benchmark_index} |${before ? ` ${was ? fmt(was) : "– | – | – | –"} |` : ""} ${m.failures.length ? `FAIL: ${m.failures.join("; ")}` : "ok"} |`);
  }
  console.log(`figures: ${outFile}; each page's Lighthouse report: bench/out/phone/<page>.json`);
  if (results.some((m) => m.failures.length)) process.exitCode = 1;
}

/**
 * PHONE_BEFORE: every page (signed-in ones; the shell first) on the earlier build and on this
 * one in turn, `runs` times, the order swapped each run; the medians of both and this build's
 * TBT and LCP as a ratio of the earlier build's (below 1: this build is faster).
 */
async function sideBySide(
  measure: (p: PhonePage, url?: string, tag?: string) => Promise<Figures>,
  signInBrowser: (origin?: string) => Promise<void>,
  urls: Map<PhonePage, string>,
  resolveOn: (p: PhonePage, c: { base: string; api: ReturnType<typeof apiAs> }) => Promise<string>,
) {
  await waitUp(beforeBase);
  const demo = await signIn(beforeBase, secret, "demo@linkwise.example", password);
  const ctx = { base: beforeBase, api: apiAs(beforeBase, demo.access_token) };
  const measured = [shell, ...pages.filter((p) => p.signedIn !== false)];
  const beforeUrls = new Map<PhonePage, string>();
  for (const p of measured) beforeUrls.set(p, `${beforeBase}${await resolveOn(p, ctx)}`);
  await signInBrowser(base);
  await signInBrowser(beforeBase);
  const sides = [
    { name: "before", tag: "-before", url: (p: PhonePage) => beforeUrls.get(p)! },
    { name: "this build", tag: "", url: (p: PhonePage) => urls.get(p)! },
  ];
  const figures = new Map<string, Figures[]>();
  for (let r = 0; r < runs; r++) {
    for (const p of measured) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        const key = `${p.name}\t${side.name}`;
        figures.set(key, [...(figures.get(key) ?? []), await measure(p, side.url(p), side.tag)]);
      }
    }
  }
  const med = (xs: Figures[], k: keyof Figures) => median(xs.map((x) => x[k]));
  const rows = measured.map((p) => {
    const [b, a] = sides.map((side) => figures.get(`${p.name}\t${side.name}`)!);
    const cell = (xs: Figures[]) => ({
      score: med(xs, "score"),
      tbt_ms: med(xs, "tbt_ms"),
      lcp_ms: med(xs, "lcp_ms"),
      cls: med(xs, "cls"),
      load: med(xs, "load"),
      benchmark_index: med(xs, "benchmark_index"),
      runs: xs.map((x) => `${x.score} · ${x.tbt_ms} · ${(x.lcp_ms / 1000).toFixed(1)} · ${x.cls}`),
    });
    const before = cell(b!);
    const after = cell(a!);
    // Ratios of medians; a TBT of 0 before has no ratio.
    const ratio = (x: number, y: number) => (y > 0 ? round(x / y, 2) : null);
    return { name: p.name, before, after, tbt_ratio: ratio(after.tbt_ms, before.tbt_ms), lcp_ratio: ratio(after.lcp_ms, before.lcp_ms) };
  });
  const report = { date: new Date().toISOString(), lighthouse: lighthouseVersion, before: process.env.PHONE_BEFORE, runs, rows };
  fs.writeFileSync("bench/out/phone-side-by-side.json", JSON.stringify(report, null, 2));
  const fmt = (c: (typeof rows)[number]["before"]) => `${c.score} · ${c.tbt_ms} · ${(c.lcp_ms / 1000).toFixed(1)} · ${c.cls}`;
  console.log(`\nLighthouse ${lighthouseVersion}, mobile profile, side by side (before: ${process.env.PHONE_BEFORE}), ${report.date}, medians of ${runs} runs each, alternating`);
  console.log("| page | before: score · TBT ms · LCP s · CLS | this build | TBT ratio | LCP ratio | load, benchmark index (before; this) |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(`| ${row.name} | ${fmt(row.before)} | ${fmt(row.after)} | ${row.tbt_ratio ?? "–"} | ${row.lcp_ratio ?? "–"} | ${row.before.load}, ${row.before.benchmark_index}; ${row.after.load}, ${row.after.benchmark_index} |`);
  }
  console.log("figures (and each run's): bench/out/phone-side-by-side.json; the reports: bench/out/phone/<page>[-before].json");
}

async function chromeVersion(): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${chrome!.port}/json/version`);
  return ((await r.json()) as { Browser: string }).Browser;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    chrome?.kill();
    for (const [child, dir] of [[server, dataDir], [beforeServer, beforeDataDir]] as const) {
      if (!child || !dir) continue;
      if (child.exitCode === null) {
        child.kill();
        await new Promise((r) => child.once("exit", r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
