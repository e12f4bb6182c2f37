/**
 * Speed of the simulated provider network (npm run bench:fleet), on this machine:
 *   - one-week traffic series (1 h buckets, 168 points) for 50 objects in one call (target < 20 ms)
 *   - the whole /main-dashboard data (tabs 2–6) of one device for one week (target < 50 ms)
 * Each is run a few times to warm up, then timed over many runs; the median and p95 are printed.
 */
import { performance } from "node:perf_hooks";
import { createFleet } from "../platform/fleet/index.ts";

const fleet = createFleet(Number(process.env.FLEET_SEED ?? 1));
const now = Date.parse("2026-11-23T12:34:56Z");
const objects = Array.from({ length: 50 }, (_, i) => ({ id: `ep-bench-${i}`, kind: "endpoint" }));
const device = { id: "cpe-bench-1", kind: "cpe", lat: 50.11, lon: 8.68, contractedMbps: 500 };

function time(name: string, runs: number, fn: () => unknown, target: number) {
  for (let i = 0; i < 20; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = performance.now();
    fn();
    t.push(performance.now() - a);
  }
  t.sort((a, b) => a - b);
  const med = t[Math.floor(t.length / 2)]!;
  const p95 = t[Math.floor(t.length * 0.95)]!;
  // The median is the figure against the target; p95 shows what a busy machine adds (GC, other load).
  console.log(`${name}: min ${t[0]!.toFixed(2)} ms, median ${med.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (target < ${target} ms: ${med < target ? "met" : "MISSED"})`);
}

const s = fleet.series("endpoint", objects, "traffic", "1w", now);
console.log(`series: ${Object.keys(s).length} objects × ${s[objects[0]!.id]!.length} points`);
time("one-week traffic series, 50 objects, one call", 200, () => fleet.series("endpoint", objects, "traffic", "1w", now), 20);
time("one-week node metrics, 50 nodes, one call", 100, () => fleet.series("service_node", objects, "node_metrics", "1w", now), 20);
time("main dashboard, one device, one week", 200, () => fleet.deviceDashboard(device, "1w", now, { ddos: { blockMalicious: true, mitigation: true } }), 50);
