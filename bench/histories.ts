import { randomBytes } from "node:crypto";
// `npm run bench:histories`: the change log (/histories) of an account with 1,000,000 log rows.
// It reports; it does not fail.
//
// For each database (PGlite always; PostgreSQL too when DATABASE_URL is set: a fresh database is
// created on that server and dropped afterwards), the log rows are written straight into the
// database before the server starts (one INSERT … generate_series), then the production build
// (server.mjs) serves them and, signed in, at 10 connections after a warm-up:
//   1. GET /histories?size=50 (the first page), 2. the last 50-row page, 3. a filtered page
//      (?username= one IAM user's rows, 200,000 of them), each BENCH_SECONDS (default 10) s;
//   (BENCH_PGLITE=0 skips PGlite; BENCH_EXPORT=0 skips the export.)
//   4. GET /histories/export.csv, every row as CSV: MB/s, and the server's RSS sampled every
//      100 ms during it (baseline before, peak during: flat memory means peak ≈ baseline).
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createCookieSessionStorage } from "react-router";

const rows = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const connections = 10;
const secret = "bench-session-secret";
const bigUser = "log@bench.example";
const iamUser = "auditor@bench.example";

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });

type Row = { name: string; requests_per_s: number; p50_ms: number; p99_ms: number; non2xx: number; errors: number };

function rssMb(pid: number, field = "VmRSS") {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Writes the account and its log rows into a migrated database; returns the account id. */
async function seed(opts: { databaseUrl?: string; dataDir?: string }) {
  const { openDatabase } = await import("../platform/db/client.ts");
  const { createAccount } = await import("../platform/domain/accounts.ts");
  const { sql } = await import("drizzle-orm");
  const started = Date.now();
  const database = await openDatabase(opts);
  const account = await createAccount({ db: database.db } as never, { username: bigUser, password: "bench-password", name: "Bench log" });
  // One row a minute back from now; every 5th by the IAM user; eight commands in turn; a small body.
  await database.db.execute(sql`insert into api_log (id, account_id, iam_user_id, account_username, iam_user_username, method, url_path, request_body, query_parameters, status, created_at)
    select 'log-b' || lpad(g::text, 7, '0'), ${account.accountId},
      case when g % 5 = 0 then 'iam-bench' end, ${bigUser}, case when g % 5 = 0 then ${iamUser} end, 'POST',
      (array['/create_ticket','/add_correspondence','/resolve_ticket','/create-contact','/update-contact','/create_entity','/edit_entity_description','/remove-contact'])[g % 8 + 1],
      jsonb_build_object('ticket_id', 'tkt-' || g, 'correspondence', 'Reply number ' || g || ' about the link at site ' || (g % 97)),
      '{}'::jsonb, 200, now() - g * interval '1 minute'
    from generate_series(1, ${rows}) g`);
  await database.db.execute(sql`analyze api_log`);
  await database.close();
  console.log(`seeded ${rows} log rows in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function measure(name: string, url: string, cookie: string, seconds = duration): Promise<Row> {
  const result = await autocannon({ url, connections, duration: seconds, headers: { cookie } });
  const row = { name, requests_per_s: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
  console.log(JSON.stringify(row));
  return row;
}

async function run(kind: "pglite" | "postgres", databaseUrl?: string) {
  const port = kind === "pglite" ? 3392 : 3394;
  const base = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-bench-log-"));
  await seed(databaseUrl ? { databaseUrl } : { dataDir: path.join(dataDir, "pglite") });
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, SESSION_SECRET: secret, COOKIE_SECURE: "false", DEMO_PASSWORD: "bench-password", ACCESS_LOG: "off", FLEET_TICK: "0" };
  if (databaseUrl) {
    // A production deployment on PostgreSQL: the demo account only when asked, the shared secrets given.
    Object.assign(env, { DATABASE_URL: databaseUrl, SEED_DEMO: "true", NODE_SECRETS_KEY: randomBytes(32).toString("hex"), OBJECTS_SECRET: randomBytes(32).toString("hex"), DATA_DIR_SHARED: "true", PLATFORM_URL: `http://localhost:${port}` });
  }
  else delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["server.mjs", "./build/server/index.js"], { env, stdio: ["ignore", "pipe", "inherit"] });
  server.stdout!.on("data", () => {});
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      if (i > 600) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 250));
    }
    const storage = createCookieSessionStorage({ cookie: { name: "__session", secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" } });
    const tokenRes = await fetch(`${base}/api/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: bigUser, password: "bench-password" }) });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const session = await storage.getSession();
    session.set("username", bigUser);
    session.set("access_token", access_token);
    session.set("session_type", "account");
    const sessionCookie = (await storage.commitSession(session)).split(";")[0]!;
    const first = await fetch(`${base}/no-such-page`, { headers: { cookie: sessionCookie } });
    const csrfCookie = first.headers.getSetCookie().find((c) => c.startsWith("csrf="))?.split(";")[0];
    const cookie = `${sessionCookie}; ${csrfCookie}`;

    const size = 50;
    const pages = {
      first: `${base}/histories?size=${size}`,
      last: `${base}/histories?size=${size}&page=${Math.ceil(rows / size)}`,
      filtered: `${base}/histories?size=${size}&username=${encodeURIComponent(iamUser)}`,
    };
    for (const [name, url] of Object.entries(pages)) {
      const r = await fetch(url, { headers: { cookie } });
      const text = await r.text();
      const shown = (text.match(/<tr data-row=/g) ?? []).length;
      console.log(`${name}: status ${r.status}, ${text.length} bytes, ${shown} rows`);
      if (r.status !== 200 || shown === 0) throw new Error(`${url}: ${r.status}, ${shown} rows`);
    }
    for (const url of Object.values(pages)) await autocannon({ url, connections, duration: Math.max(1, Math.round(warmup / 3)), headers: { cookie } });
    const results = [
      // The machine's speed of the moment: the signed-in 404 page (the shell, no data), as bench/run.ts.
      await measure(`${kind}: GET signed-in 404 page (shell only), for scale`, `${base}/no-such-page`, cookie),
      await measure(`${kind}: GET /histories, ${rows} rows, first 50-row page`, pages.first, cookie),
      await measure(`${kind}: GET /histories, ${rows} rows, last 50-row page`, pages.last, cookie),
      await measure(`${kind}: GET /histories?username= (${rows / 5} rows), first page`, pages.filtered, cookie),
    ];

    if (process.env.BENCH_EXPORT === "0") return { kind, results, export: null };
    // The export: every row, read as fast as the client can; RSS sampled meanwhile.
    const baseline = rssMb(server.pid!);
    let peak = baseline;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(server.pid!));
      } catch {}
    }, 100);
    const started = performance.now();
    const res = await fetch(`${base}/histories/export.csv`, { headers: { cookie } });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const exportRow = {
      status: res.status,
      rows: lines - 1,
      mb: Math.round((bytes / 1e6) * 10) / 10,
      seconds: Math.round(seconds * 10) / 10,
      mb_per_s: Math.round((bytes / 1e6 / seconds) * 10) / 10,
      rss_mb_before: baseline,
      rss_mb_peak: peak,
    };
    console.log(`${kind}: export ${JSON.stringify(exportRow)}`);
    return { kind, results, export: exportRow };
  } finally {
    server.kill();
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  // BENCH_PGLITE=0: PostgreSQL only (with DATABASE_URL).
  const reports = process.env.BENCH_PGLITE === "0" ? [] : [await run("pglite")];
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const { default: pg } = await import("pg");
    const name = `bench_histories_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      reports.push(await run("postgres", url.toString()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    }
  }
  const report = { date: new Date().toISOString(), machine: `${os.cpus().length} cores`, load: os.loadavg().map((x) => Math.round(x * 10) / 10), rows, connections, duration_s: duration, reports };
  fs.mkdirSync("bench/out", { recursive: true });
  fs.writeFileSync("bench/out/histories.json", JSON.stringify(report, null, 2));
  console.log("\n| measurement | requests/s | p50 ms | p99 ms |\n|---|---|---|---|");
  for (const r of reports) for (const x of r.results) console.log(`| ${x.name} | ${x.requests_per_s} | ${x.p50_ms} | ${x.p99_ms} |`);
  for (const r of reports) {
    const e = r.export;
    if (!e) continue;
    console.log(`${r.kind}: CSV export of ${e.rows} rows, ${e.mb} MB in ${e.seconds} s = ${e.mb_per_s} MB/s; server RSS ${e.rss_mb_before} MB before, peak ${e.rss_mb_peak} MB during`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
