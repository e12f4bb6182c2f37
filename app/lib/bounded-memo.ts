/**
 * A process-local memo of a pure function's results, bounded in entries and in total size, least
 * recently used out first (a Map's order is the eviction order; a hit moves its entry last). What
 * several instances must share never goes here (DESIGN: PostgreSQL); this is for what any
 * instance can make again from its inputs: parsed answers, rendered markup, encoded bytes.
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

export class BoundedMemo<K, V> {
  readonly #entries = new Map<K, { value: V; size: number }>();
  readonly #limits: Required<Omit<BoundedMemoLimits<K, V>, "sizeOf">> & Pick<BoundedMemoLimits<K, V>, "sizeOf">;
  #size = 0;

  constructor(limits: BoundedMemoLimits<K, V>) {
    const maxSize = limits.maxSize ?? Infinity;
    this.#limits = { maxSize, maxEntrySize: maxSize / 4, ...limits };
  }

  /** The value for `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` for `key`, dropping the least recently used entries past the limits; false when too large to keep. */
  set(key: K, value: V): boolean {
    const size = this.#limits.sizeOf?.(key, value) ?? 0;
    this.delete(key);
    if (size > this.#limits.maxEntrySize) return false;
    this.#entries.set(key, { value, size });
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
    const old = this.#entries.get(key);
    if (old === undefined) return false;
    this.#entries.delete(key);
    this.#size -= old.size;
    return true;
  }

  /** Drops every entry whose key `drop` picks. */
  deleteWhere(drop: (key: K) => boolean): void {
    for (const key of [...this.#entries.keys()]) if (drop(key)) this.delete(key);
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
