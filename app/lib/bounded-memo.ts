/**
 * A process-local memo of a pure function's results, bounded in entries and in total size, least
 * recently used out first (a Map's order is the eviction order; a hit moves its entry last). What
 * several instances must share never goes here (DESIGN: PostgreSQL); this is for what any
 * instance can make again from its inputs: parsed answers, rendered markup, encoded bytes.
 *
 * Long string keys are kept under a short one. V8 hashes a string of more than 16,383 characters
 * by its length alone, so a Map's long keys of one length share a bucket and a lookup compares its
 * key with each of them in turn, to the first character that differs. Such crowds are common here:
 * a page's data is new on every view, one length view after view, the same first few hundred
 * characters (a memo of 256 rendered chunks compared each view's own with all, then twice more to
 * move the hit last). A long key's Map key is its length and three samples of
 * it, short enough to be hashed in full; the entry keeps the whole key, and a lookup hits only when
 * that is the key asked for (a pointer comparison for the same string, a full one for an equal
 * one). Two long keys that share a Map key take turns in its entry.
 */
export interface BoundedMemoLimits<K, V> {
  /** At most this many entries. */
  maxEntries: number;
  /** At most this much in total, as `sizeOf` counts (characters, bytes); default: no limit. */
  maxSize?: number;
  /** An entry's size; default 0 (only the entry count bounds the memo). */
  sizeOf?: (key: K, value: V) => number;
  /** An entry larger than this is not kept (`set` answers false); default maxSize / 4. */
  maxEntrySize?: number;
}

/** V8 hashes a string longer than this by its length alone. */
const V8_HASHED_LENGTH = 16_383;

/** Where `key` is kept in the Map: itself, or for a long string its length and three samples of it. */
export function mapKeyOf<K>(key: K): K | string {
  if (typeof key !== "string" || key.length <= V8_HASHED_LENGTH) return key;
  const middle = key.length >> 1;
  return `${key.length}\u0000${key.slice(0, 64)}\u0000${key.slice(middle - 32, middle + 32)}\u0000${key.slice(-64)}`;
}

interface Entry<K, V> {
  key: K;
  value: V;
  size: number;
}

export class BoundedMemo<K, V> {
  readonly #entries = new Map<K | string, Entry<K, V>>();
  readonly #limits: Required<Omit<BoundedMemoLimits<K, V>, "sizeOf">> & Pick<BoundedMemoLimits<K, V>, "sizeOf">;
  #size = 0;

  constructor(limits: BoundedMemoLimits<K, V>) {
    const maxSize = limits.maxSize ?? Infinity;
    this.#limits = { maxSize, maxEntrySize: maxSize / 4, ...limits };
  }

  /** The value for `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const mapKey = mapKeyOf(key);
    const hit = this.#find(key, mapKey);
    if (hit === undefined) return undefined;
    this.#entries.delete(mapKey);
    this.#entries.set(mapKey, hit);
    return hit.value;
  }

  /** The entry of `key` (kept under `mapKey`): a short key was compared by the Map, a long one is compared here. */
  #find(key: K, mapKey: K | string): Entry<K, V> | undefined {
    const hit = this.#entries.get(mapKey);
    return hit !== undefined && (mapKey === key || hit.key === key) ? hit : undefined;
  }

  /** Keeps `value` for `key`, dropping the least recently used entries past the limits; false when too large to keep. */
  set(key: K, value: V): boolean {
    const size = this.#limits.sizeOf?.(key, value) ?? 0;
    const mapKey = mapKeyOf(key);
    // Whatever the entry holds goes: this key's older value, or a long key that shares its Map key.
    this.#drop(mapKey);
    if (size > this.#limits.maxEntrySize) return false;
    this.#entries.set(mapKey, { key, value, size });
    this.#size += size;
    for (const [oldKey, old] of this.#entries) {
      if (this.#entries.size <= this.#limits.maxEntries && this.#size <= this.#limits.maxSize) break;
      this.#entries.delete(oldKey);
      this.#size -= old.size;
    }
    return true;
  }

  /** The value for `key`, made by `make` and kept when missing. */
  remember(key: K, make: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    const mapKey = mapKeyOf(key);
    return this.#find(key, mapKey) !== undefined && this.#drop(mapKey);
  }

  #drop(mapKey: K | string): boolean {
    const old = this.#entries.get(mapKey);
    if (old === undefined) return false;
    this.#entries.delete(mapKey);
    this.#size -= old.size;
    return true;
  }

  /** Drops every entry whose key `drop` picks. */
  deleteWhere(drop: (key: K) => boolean): void {
    for (const [mapKey, entry] of [...this.#entries]) if (drop(entry.key)) this.#drop(mapKey);
  }

  /** Entries kept. */
  get count(): number {
    return this.#entries.size;
  }

  /** Their total size, as `sizeOf` counts. */
  get size(): number {
    return this.#size;
  }
}
