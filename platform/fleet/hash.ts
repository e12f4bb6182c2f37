/*
 * The fleet's only source of variety: a fast 32-bit integer hash of (seed, object, metric, bucket).
 * Nothing here is random at run time, so every value can be recomputed for any time on read.
 * (murmur3's finaliser as the mixer: cheap, and good enough that neighbouring buckets look
 * unrelated.)
 */

export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a of a string (object ids, app names), mixed. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** The hash of (key, metric, bucket); `key` is already seed ⊕ object. */
export function h3(key: number, metric: number, bucket: number): number {
  return mix32(mix32(key ^ Math.imul(metric, 0x9e3779b1)) ^ Math.imul(bucket | 0, 0x7feb352d) ^ ((bucket / 4294967296) | 0));
}

/** A uniform number in [0, 1) for (key, metric, bucket). */
export function u01(key: number, metric: number, bucket: number): number {
  return h3(key, metric, bucket) / 4294967296;
}

/** The per-object key: seed and object id mixed once per call, not per point. */
export function objectKey(seed: number, id: string): number {
  return mix32((seed >>> 0) ^ hashString(id));
}

/** Metric numbers: each stream of numbers has its own, so they never correlate by accident. */
export const M = {
  level: 1,
  slow: 2,
  fast: 3,
  burst: 4,
  txRatio: 5,
  outageDay: 6,
  outageStart: 7,
  outageLength: 8,
  outageCause: 9,
  rttJitter: 10,
  lossBurst: 11,
  loss: 12,
  mem: 13,
  disk: 14,
  ambient: 15,
  fan: 16,
  cpuNoise: 17,
  peak: 18,
  perf: 19,
  apps: 20,
  appShare: 21,
  session: 22,
  flows: 23,
  ip: 24,
  city: 25,
  attack: 26,
  place: 27,
  hop: 28,
  ping: 29,
  speed: 30,
  lan: 31,
  diag: 32,
  recovery: 33,
  capacity: 34,
} as const;
