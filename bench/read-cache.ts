/**
 * What the read cache is worth with many accounts (npm run bench:read-cache): 20 accounts each view
 * their contacts (list-account and a 50-row page of get-contact, the calls of a /contacts view),
 * while one of them writes a contact every 50 ms. In-process platform on PGlite ("local" mode).
 *   - "per account" is the platform as it is: a write forgets its own account's remembered reads.
 *   - "global" forgets every account's after each write, as the platform did before 2026-11-29
 *     (docs/decisions/2026-11-23-read-cache.md).
 * Prints, per mode, the views per second the readers got (one view at a time) and the mean and p99
 * time of a view; 19 of the 20 accounts' data never changes during a run.
 * BENCH_SECONDS (default 6) per run; the modes alternate over BENCH_ROUNDS (default 2).
 */
import { performance } from "node:perf_hooks";
import { createPlatformApp } from "../platform/app.ts";
import { forgetCachedReads } from "../platform/lib/auth.ts";
import { testPlatform } from "../platform/test/harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const p = await testPlatform();
const deps = { ...p.deps, config: { ...p.deps.config, cacheCallers: "local" as const } };
const app = createPlatformApp(deps);

async function call(method: "GET" | "POST", path: string, token: string, body?: unknown) {
  const res = await app.fetch(
    new Request(`http://platform.bench/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

const contact = (account: number, i: number) => ({ first_name: `First${i}`, last_name: `Account${account}`, email: `c${i}.a${account}@bench.example`, contact_type: "technical", entity_name: "Bench HQ" });
const accounts: { token: string }[] = [];
for (let a = 0; a < 20; a++) {
  const account = await p.newAccount();
  await call("POST", "create_entity", account.token, { entity_name: "Bench HQ" });
  for (let i = 0; i < 30; i++) await call("POST", "create-contact", account.token, contact(a, i));
  accounts.push(account);
}

/** One run: the readers view round-robin while accounts[0] writes every 50 ms. */
async function run(mode: "per account" | "global") {
  // The same start for both: nothing remembered.
  await forgetCachedReads(deps);
  const until = performance.now() + seconds * 1000;
  let written = 0;
  const writer = (async () => {
    while (performance.now() < until) {
      await call("POST", "create-contact", accounts[0]!.token, contact(0, 1000 + written++));
      if (mode === "global") await forgetCachedReads(deps);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const times: number[] = [];
  let k = 0;
  while (performance.now() < until) {
    const account = accounts[k++ % accounts.length]!;
    const t0 = performance.now();
    await Promise.all([call("GET", "list-account", account.token), call("GET", "get-contact?page=1&size=50&sort=first_name", account.token)]);
    times.push(performance.now() - t0);
    // A server gets to its timers between requests: so does the writer here.
    await new Promise((r) => setImmediate(r));
  }
  await writer;
  times.sort((x, y) => x - y);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return { mode, views_per_s: Math.round(times.length / seconds), mean_ms: +mean.toFixed(2), p99_ms: +times[Math.floor(times.length * 0.99)]!.toFixed(2), writes: written };
}

// Warm up, then alternate.
await run("per account");
for (let r = 0; r < rounds; r++) for (const mode of r % 2 ? (["global", "per account"] as const) : (["per account", "global"] as const)) console.log(JSON.stringify(await run(mode)));
// The harness's database lives as long as this process.
process.exit(0);
