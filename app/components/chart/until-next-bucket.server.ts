import { BoundedMemo } from "../../lib/bounded-memo.ts";

/*
 * Prepared charts (or anything derived from bucketed samples) kept in this instance's memory until
 * the newest bucket ends: the samples, and so the charts, only change when a new bucket begins.
 * /dashboard's charts and the nodes' Monitoring tab keep theirs here, each in its own memo. Derived
 * data only, keyed by the caller (the session's token in the key: never shared between sessions),
 * bounded (500 entries, least recently used out first).
 */

/** When the newest bucket of these times ends: its start plus the step between the last two (0 when unknown). */
export function bucketEnd(times: readonly string[]): number {
  const last = Date.parse(times[times.length - 1] ?? "");
  const step = last - Date.parse(times[times.length - 2] ?? "");
  return Number.isFinite(last) && step > 0 ? last + step : 0;
}

export class UntilNextBucket<V> {
  readonly #memo = new BoundedMemo<string, { expires: number; value: V }>({
    maxEntries: 500,
  });

  get(key: string, now = Date.now()): V | null {
    const entry = this.#memo.get(key);
    if (!entry) return null;
    if (entry.expires > now) return entry.value;
    this.#memo.delete(key);
    return null;
  }

  /** Keeps `value` until `expires` (ms; an end already past keeps nothing). */
  set(key: string, value: V, expires: number, now = Date.now()): void {
    if (expires > now) this.#memo.set(key, { expires, value });
  }

  delete(key: string): void {
    this.#memo.delete(key);
  }

  /** Drops the entries whose key `drop` picks (Refresh: one session's). */
  deleteWhere(drop: (key: string) => boolean): void {
    this.#memo.deleteWhere(drop);
  }
}
