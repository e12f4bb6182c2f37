import type { DashboardChart } from "./model.ts";

/*
 * The prepared charts of a (session, range, charted objects), kept in this instance's memory until the traffic's
 * last bucket ends: get-net-stats of every object is the page's one big cost (~0.6 MB of JSON for
 * 54 objects over a day) and its buckets only change when a new one begins. Derived data only,
 * never shared between sessions (the key is the session's token), dropped by Refresh, bounded in
 * size. A `?data=` view reads afresh (the table needs every object) and stores its charts, so the
 * chart and the table show the same figures.
 */

interface Entry {
  expires: number;
  charts: DashboardChart[];
}

const MAX_ENTRIES = 500;
const entries = new Map<string, Entry>();
const keyOf = (token: string, key: string) => `${key} ${token}`;

export function cachedCharts(token: string, key: string, now = Date.now()): DashboardChart[] | null {
  const entry = entries.get(keyOf(token, key));
  if (!entry) return null;
  if (entry.expires > now) return entry.charts;
  entries.delete(keyOf(token, key));
  return null;
}

/** Keeps the charts (without their table) until `expires` (the end of the newest bucket). */
export function storeCharts(token: string, key: string, charts: DashboardChart[], expires: number, now = Date.now()) {
  if (expires <= now) return;
  for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key);
  // Oldest first (a Map keeps insertion order).
  while (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(keyOf(token, key), { expires, charts: charts.map((c) => ({ ...c, table: null })) });
}

/** Refresh: the session's charts are read again. */
export function dropCharts(token: string) {
  for (const key of entries.keys()) if (key.endsWith(` ${token}`)) entries.delete(key);
}

/** When the newest bucket of these times ends (a new bucket changes the charts): its start plus the step. */
export function bucketEnd(times: readonly string[]): number {
  const last = Date.parse(times[times.length - 1] ?? "");
  const step = last - Date.parse(times[times.length - 2] ?? "");
  return Number.isFinite(last) && step > 0 ? last + step : 0;
}
