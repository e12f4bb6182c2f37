// `npm run bench`: what each page of bench/pages.ts costs over the shell, and the JavaScript it loads.
//
// Starts the production build (server.mjs) with the demo data and a second account holding
// 100,000 contacts (written into the database before the server starts), signs in as each (the
// session and CSRF cookies a browser holds after its first page), makes each page's data
// (`setup`), warms up, then measures every page at 10 connections in rounds: in each round a page
// is measured and, right after it, the shell (the signed-in 404 page); the page's ratio is the
// median over the rounds of page ÷ the shell measured beside it. This virtual machine's speed
// drifts by tens of per cent over a minute: a page compared with a shell measured minutes apart
// would be charged for the drift. Then the JavaScript chunks (gzip) a browser loads for each page
// and whether they hold chart code, a bare node:http server answering /contacts' bytes from
// memory (the floor), and the server's RSS. Beside each ratio, the same ratio in the server's CPU
// time per request (/proc), which other work on the machine disturbs much less.
//
// Fails (exit code 1) when a page misses a target (ratio, p99, JavaScript, chart code where
// none is shown or none where a chart is). BENCH_ONLY=a,b measures those pages only;
// BENCH_SECONDS (per measurement, default 2), BENCH_ROUNDS (default 3), BENCH_WARMUP_SECONDS
// (default 20, shared by the pages), BENCH_PROFILE=<dir> (CPU profiles of the server),
// BENCH_SERVE=<file> (make the data, then keep serving; <file> says where each page is),
// BENCH_PORT (default 3390; the bare server takes the next one), BENCH_NODE_FLAGS (more flags for
// the server's node, after its own: `--trace-gc`, `--import <file>`) and BENCH_STDOUT=<file> (the
// server's standard output, where --trace-gc writes, instead of nowhere).
//
// BENCH_VARIANTS="<name>[@<tree>][:<VAR>=<value>]…;…" measures several servers side by side in one
// run (docs/decisions/2026-12-03-caches-and-patches.md): one server per variant, each with its own
// data, in <tree> (a checkout with its node_modules and build; default this one) and with those
// environment variables (CALLER_CACHE=off, PLATFORM_THREAD=0, …). Each round measures every page on
// every variant in turn (the order alternating), each beside its own shell; the table then gives
// each variant's ratios (CPU and requests/s) and how they compare with the first variant's.
import { execSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { pagesJs } from "./js-chunks.ts";
import { combine, measure, median, rssMb, waitUp, type Row } from "./measure.ts";
import { pages as allPages, type BenchContext } from "./pages.ts";
import { apiAs, signIn as signInAs, startServer } from "./server.ts";

const port = Number(process.env.BENCH_PORT ?? 3390);
const base = `http://localhost:${port}`;
const secret = "bench-session-secret";
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const connections = 10;
const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const pages = allPages.filter((p) => only.length === 0 || only.includes(p.name));
if (pages.length === 0) throw new Error(`BENCH_ONLY=${only.join(",")} names no page of bench/pages.ts`);

interface Variant {
  name: string;
  cwd?: string;
  env: Record<string, string>;
  port: number;
  base: string;
  dataDir: string;
}
const variants: Variant[] = (process.env.BENCH_VARIANTS ?? "").split(";").filter(Boolean).map((spec, i) => {
  const [head, ...vars] = spec.split(":");
  const [name, cwd] = head!.split("@");
  const env = Object.fromEntries(vars.map((v) => [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)]));
  // Each variant its own port, two apart (the bare server takes the next one of the first).
  return { name: name!, cwd, env, port: port + 2 * i, base: `http://localhost:${port + 2 * i}`, dataDir: "" };
});
if (variants.length === 0) variants.push({ name: "", env: {}, port, base, dataDir: "" });
for (const v of variants) v.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-bench-"));
const several = variants.length > 1;

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
for (const v of variants) if (v.cwd && !fs.existsSync(path.join(v.cwd, "build/server/index.js"))) throw new Error(`${v.cwd}: no build (npx react-router build && node scripts/build-platform.mjs there)`);

// The 100,000-contact account, written straight into the server's database before it starts
// (through the API it would take many minutes): one INSERT … generate_series.
const bigUser = "big@bench.example";
const bigContacts = pages.some((p) => p.as === "big") ? 100_000 : 1;
for (const { dataDir } of variants) {
  const { openDatabase } = await import("../platform/db/client.ts");
  const { createAccount } = await import("../platform/domain/accounts.ts");
  const { sql } = await import("drizzle-orm");
  const database = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
  const big = await createAccount({ db: database.db } as never, { username: bigUser, password: "bench-password", name: "Bench 100k" });
  await database.db.execute(sql`insert into contacts (contact_id, account_id, first_name, last_name, email, contact_type, created_at, updated_at)
    select 'con-big' || lpad(i::text, 6, '0'), ${big.accountId}, 'First' || i, 'Last' || (${bigContacts} - i), 'c' || i || '@bench.example',
      'business', timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
    from generate_series(1, ${bigContacts}) as i`);
  await database.db.execute(sql`analyze contacts`);
  await database.close();
}

const profileArgs = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const servers = variants.map((v) =>
  startServer({
    port: v.port, dataDir: v.dataDir, secret, password: "bench-password", stdout: process.env.BENCH_STDOUT, cwd: v.cwd, env: v.env,
    nodeArgs: [...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean), ...profileArgs],
  }),
);
const server = servers[0]!;

type Measured = { name: string; label: string; url: string; runs: Row[]; shell: Row[]; cpu: number[]; shellCpu: number[]; ratio: number; cpu_ratio: number; p99_ms: number; js_kb: number | null; chart_chunks: string[] | null; chunks: string[]; failures: string[] };

/** A server's CPU time so far (all its threads), ms: /proc/<pid>/stat's utime + stime, in clock ticks of 10 ms. */
function serverCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One measurement, and the server's CPU milliseconds per request during it (pushed to `cpu`). */
async function measured(pid: number, name: string, url: string, cookie: string, cpu: number[]): Promise<Row> {
  const before = serverCpuMs(pid);
  const row = await measure(name, url, cookie, seconds, connections);
  cpu.push((serverCpuMs(pid) - before) / Math.max(1, row.requests_per_s * seconds));
  return row;
}

/** A variant's server signed in, its pages' data made: its cookies and each page's URL. */
async function prepare(v: Variant) {
  await waitUp(v.base);
  const signIn = (username: string) => signInAs(v.base, secret, username, "bench-password");
  const demo = await signIn("demo@linkwise.example");
  const cookies = { demo: demo.cookie, big: (await signIn(bigUser)).cookie };
  const ctx: BenchContext = { base: v.base, api: apiAs(v.base, demo.access_token) };

  // Each page's data and URL, and one look at it (status, size) before measuring.
  const urls: string[] = [];
  for (const page of pages) {
    const url = `${v.base}${await page.setup(ctx)}`;
    const r = await fetch(url, { headers: { cookie: cookies[page.as ?? "demo"] } });
    const text = await r.text();
    console.log(`${v.name ? `[${v.name}] ` : ""}${page.label}: ${url.slice(v.base.length)} → ${r.status}, ${text.length} bytes, ${(text.match(/<tr/g) ?? []).length} table rows, ${(text.match(/<svg role="img"/g) ?? []).length} charts or maps`);
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    urls.push(url);
  }
  return { cookies, urls, shellUrl: `${v.base}/no-such-page` };
}

async function main() {
  const prepared: Awaited<ReturnType<typeof prepare>>[] = [];
  for (const v of variants) prepared.push(await prepare(v));
  const { cookies, urls, shellUrl } = prepared[0]!;
  // BENCH_SERVE=<file>: keep the server up with the pages' data made, and write where they are
  // (base, each page's URL and cookie) to <file>: for looking into one page by hand.
  if (process.env.BENCH_SERVE) {
    const serving = Object.fromEntries(pages.map((p, i) => [p.name, { url: urls[i], cookie: cookies[p.as ?? "demo"] }]));
    fs.writeFileSync(process.env.BENCH_SERVE, JSON.stringify({ base, pid: server.pid, shell: { url: shellUrl, cookie: cookies.demo }, pages: serving }, null, 2));
    console.log(`serving on ${base}; pages in ${process.env.BENCH_SERVE}; stop with Ctrl-C`);
    await new Promise(() => {});
  }

  // Warm up before measuring: V8 keeps optimising for ~20 s of load; a server that has run for a
  // while is what users meet. The shell gets a quarter, the pages share the rest.
  for (const p of prepared) {
    await autocannon({ url: p.shellUrl, connections, duration: Math.max(1, Math.round(warmup / 4)), headers: { cookie: p.cookies.demo } });
    for (const [i, page] of pages.entries()) {
      await autocannon({ url: p.urls[i]!, connections, duration: Math.max(1, Math.round((warmup * 0.75) / pages.length)), headers: { cookie: p.cookies[page.as ?? "demo"] } });
    }
  }

  const resultsOf = variants.map((v, j) => pages.map((p, i): Measured => ({ name: p.name, label: p.label, url: prepared[j]!.urls[i]!.slice(v.base.length), runs: [], shell: [], cpu: [], shellCpu: [], ratio: 0, cpu_ratio: 0, p99_ms: 0, js_kb: null, chart_chunks: null, chunks: [], failures: [] })));
  const results = resultsOf[0]!;
  for (let r = 0; r < rounds; r++) {
    // A different order each round, the page and the shell in alternating order; with several
    // variants, each page on each of them in turn (the order of the variants alternating too).
    for (let k = 0; k < pages.length; k++) {
      const i = (k + r) % pages.length;
      const page = pages[i]!;
      const order = variants.map((_, j) => j);
      if ((r + k) % 2) order.reverse();
      for (const j of order) {
        const p = prepared[j]!;
        const pid = servers[j]!.pid!;
        const cookie = p.cookies[page.as ?? "demo"];
        const m = resultsOf[j]![i]!;
        const measurePage = async () => m.runs.push(await measured(pid, page.label, p.urls[i]!, cookie, m.cpu));
        const measureShell = async () => m.shell.push(await measured(pid, "GET signed-in 404 page (the shell)", p.shellUrl, cookie, m.shellCpu));
        if ((r + k + j) % 2) await measureShell().then(measurePage);
        else await measurePage().then(measureShell);
      }
    }
  }
  if (several) return reportVariants(resultsOf);

  // JavaScript a browser loads for each page (js-chunks.ts).
  try {
    const js = await pagesJs(base, cookies.demo, urls.map((u, i) => (pages[i]!.as === "big" ? null : u)).filter((u): u is string => u !== null));
    let j = 0;
    for (const [i, page] of pages.entries()) {
      if (page.as === "big") continue;
      const m = js[j++]!;
      Object.assign(results[i]!, { js_kb: m.kb, chart_chunks: m.chartChunks, chunks: m.names });
    }
  } catch (error) {
    console.log(`browser measurement skipped: ${(error as Error).message}`);
  }

  for (const [i, page] of pages.entries()) {
    const m = results[i]!;
    m.ratio = Math.round(median(m.runs.map((run, k) => run.requests_per_s / m.shell[k]!.requests_per_s)) * 100) / 100;
    m.p99_ms = median(m.runs.map((run) => run.p99_ms));
    // The same ratio in CPU time per request: steadier than requests/s when other work shares the machine.
    m.cpu_ratio = Math.round((median(m.shellCpu) / median(m.cpu)) * 100) / 100;
    const t = page.targets;
    if (m.ratio < t.ratio) m.failures.push(`ratio ${m.ratio} < ${t.ratio}`);
    if (m.p99_ms >= t.p99_ms) m.failures.push(`p99 ${m.p99_ms} ms ≥ ${t.p99_ms}`);
    if (t.js_kb !== undefined && m.js_kb !== null && m.js_kb > t.js_kb) m.failures.push(`JavaScript ${m.js_kb} KB > ${t.js_kb}`);
    if (t.chart_code === false && m.chart_chunks && m.chart_chunks.length > 0) m.failures.push(`loads chart code (${m.chart_chunks.join(", ")})`);
    if (t.chart_code === true && m.chart_chunks && m.chart_chunks.length === 0) m.failures.push("no chart code found (the detector in bench/js-chunks.ts is out of date?)");
  }

  // The floor: the same /contacts bytes from memory, no framework.
  let bareRow: Row | null = null;
  const contactsAt = pages.findIndex((p) => p.name === "contacts");
  if (contactsAt >= 0) {
    const html = Buffer.from(await (await fetch(urls[contactsAt]!, { headers: { cookie: cookies.demo } })).arrayBuffer());
    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": html.length });
      res.end(html);
    });
    await new Promise<void>((r) => bare.listen(port + 1, r));
    bareRow = await measure("bare node:http, same /contacts bytes", `http://localhost:${port + 1}/`, undefined, seconds * 3, connections);
    bare.close();
  }
  const shellAll = combine(results.flatMap((m) => m.shell), seconds);
  const rss = rssMb(server.pid!);

  const report = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    seconds_per_measurement: seconds,
    rounds,
    warmup_s: warmup,
    connections,
    shell: shellAll,
    bare: bareRow,
    pages: results.map((m, i) => ({ ...m, requests_per_s: combine(m.runs, seconds).requests_per_s, cpu_ms_per_request: Math.round(median(m.cpu) * 100) / 100, targets: pages[i]!.targets, runs: undefined, shell: undefined, cpu: undefined, shellCpu: undefined })),
    server_rss_mb_after: rss,
  };
  fs.mkdirSync("bench/out", { recursive: true });
  fs.writeFileSync(only.length ? `bench/out/pages-${only.join("-")}.json` : "bench/out/pages.json", JSON.stringify(report, null, 2));

  console.log("\n| page | requests/s | ratio to the shell | p99 ms | JavaScript KB gzip | CPU ms/request (ratio) | verdict |\n|---|---|---|---|---|---|---|");
  for (const [i, m] of results.entries()) {
    const t = pages[i]!.targets;
    console.log(`| ${m.label} | ${combine(m.runs, seconds).requests_per_s} | ${m.ratio} (≥ ${t.ratio}) | ${m.p99_ms} (< ${t.p99_ms}) | ${m.js_kb ?? "–"}${t.js_kb ? ` (≤ ${t.js_kb})` : ""} | ${median(m.cpu).toFixed(2)} (${m.cpu_ratio}) | ${m.failures.length ? `FAIL: ${m.failures.join("; ")}` : "ok"} |`);
  }
  console.log(`| the shell (signed-in 404) | ${shellAll.requests_per_s} | 1 | ${shellAll.p99_ms} | | ${median(results.flatMap((m) => m.shellCpu)).toFixed(2)} | |`);
  if (bareRow) console.log(`| bare node:http, /contacts' bytes | ${bareRow.requests_per_s} | | ${bareRow.p99_ms} | | | |`);
  for (const m of results) if (m.chunks.length) console.log(`JavaScript chunks of ${m.url}: ${m.chunks.join(", ")}${m.chart_chunks?.length ? ` (chart code: ${m.chart_chunks.join(", ")})` : ""}`);
  console.log(`server RSS after the run: ${rss} MB`);
  if (results.some((m) => m.failures.length)) process.exitCode = 1;
}

/**
 * Several variants: per page, each variant's CPU ratio and requests/s ratio to its own shell
 * (medians over the rounds of the ratios measured side by side) and, after the first variant,
 * how each compares with the first's (its ratio ÷ the first's: below 1, the variant is slower).
 */
function reportVariants(resultsOf: Measured[][]) {
  const ratios = (m: Measured) => ({
    cpu: median(m.cpu.map((c, k) => m.shellCpu[k]! / c)),
    rps: median(m.runs.map((run, k) => run.requests_per_s / m.shell[k]!.requests_per_s)),
    cpu_ms: median(m.cpu),
    spread: [Math.min(...m.cpu.map((c, k) => m.shellCpu[k]! / c)), Math.max(...m.cpu.map((c, k) => m.shellCpu[k]! / c))],
  });
  const table = pages.map((page, i) => ({ page: page.name, variants: variants.map((v, j) => ({ variant: v.name, ...ratios(resultsOf[j]![i]!) })) }));
  const f = (n: number) => n.toFixed(2);
  console.log(`\n| page | ${variants.map((v) => `${v.name}: CPU ratio (range), rps ratio`).join(" | ")} |\n|---|${variants.map(() => "---|").join("")}`);
  for (const row of table) {
    const first = row.variants[0]!;
    const cells = row.variants.map((x, j) => `${f(x.cpu)} (${f(x.spread[0]!)}–${f(x.spread[1]!)}), ${f(x.rps)}${j ? ` [×${f(x.cpu / first.cpu)}, ×${f(x.rps / first.rps)}]` : ""}`);
    console.log(`| ${row.page} | ${cells.join(" | ")} |`);
  }
  console.log(`shell CPU ms/request: ${variants.map((v, j) => `${v.name} ${f(median(resultsOf[j]!.flatMap((m) => m.shellCpu)))}`).join(", ")}`);
  console.log(`server RSS after the run (MB): ${variants.map((v, j) => `${v.name} ${rssMb(servers[j]!.pid!)}`).join(", ")}`);
  fs.mkdirSync("bench/out", { recursive: true });
  fs.writeFileSync("bench/out/variants.json", JSON.stringify({ date: new Date().toISOString(), seconds_per_measurement: seconds, rounds, variants, pages: table, raw: resultsOf }, null, 2));
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    // The server's data goes once it has shut down (it closes its database last).
    for (const s of servers) {
      if (s.exitCode === null) {
        s.kill();
        await new Promise((r) => s.once("exit", r));
      }
    }
    for (const v of variants) fs.rmSync(v.dataDir, { recursive: true, force: true });
  });
