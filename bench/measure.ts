import fs from "node:fs";
import autocannon from "autocannon";

/* The measuring steps of bench/run.ts: wait for the server, one autocannon run, combining runs. */

export async function waitUp(base: string) {
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start");
}

export function rssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export type Row = { name: string; requests_per_s: number; p50_ms: number; p99_ms: number; non2xx: number; errors: number };

export function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** Several runs of one page: requests/s over all of them, the median p50 and p99. */
export function combine(runs: Row[], seconds: number): Row {
  if (runs.length === 0) return { name: "not measured", requests_per_s: 0, p50_ms: 0, p99_ms: 0, non2xx: 0, errors: 0 };
  return {
    name: runs[0]!.name,
    requests_per_s: Math.round(runs.reduce((n, r) => n + r.requests_per_s * seconds, 0) / (seconds * runs.length)),
    p50_ms: median(runs.map((r) => r.p50_ms)),
    p99_ms: median(runs.map((r) => r.p99_ms)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** One autocannon run of `url` at `connections` connections for `seconds`, logged as a JSON line. */
export async function measure(name: string, url: string, cookie: string | undefined, seconds: number, connections: number): Promise<Row> {
  const result = await autocannon({ url, connections, duration: seconds, headers: cookie ? { cookie } : {} });
  const row = {
    name,
    requests_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  console.log(JSON.stringify(row));
  return row;
}
