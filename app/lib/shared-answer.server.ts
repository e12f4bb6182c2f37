/*
 * Shared answers: a platform GET's answer parsed once and handed, frozen, to every request that
 * receives the same text (docs/decisions/2026-11-27-shared-answers.md). The platform answers a
 * list or a monitoring read from its read cache with the same text until something changes, so a
 * busy list screen parsed the same 30–70 KB of JSON on every view. With one object per text, what
 * a loader makes of it (a table's rows JSON, prepared charts) is remembered beside it in a
 * WeakMap (`derived`) and goes when the answer does.
 *
 * The objects are deep-frozen: several requests hold them at once, so a caller that tried to
 * change one would change every other request's answer; frozen, it fails loudly (TypeError in
 * strict mode) instead. Process-local and bounded in entries and characters, oldest out first:
 * a pure function's cache, nothing another instance needs.
 */

const MIN_CHARS = 2_048;
const MAX_ENTRIES = 128;
const MAX_CHARS = 16_000_000;

const answers = new Map<string, unknown>();
let chars = 0;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The parsed answer of `text` (valid JSON), shared: the same frozen object for the same text. A
 * small answer is parsed each time (its lookup would cost what its parse does) but frozen all
 * the same, so that callers never depend on which it was.
 */
export function sharedAnswer(text: string): unknown {
  if (text.length < MIN_CHARS || text.length > MAX_CHARS / 8) return deepFreeze(JSON.parse(text));
  const hit = answers.get(text);
  if (hit !== undefined) {
    // Most recently used last: the Map's order is the eviction order.
    answers.delete(text);
    answers.set(text, hit);
    return hit;
  }
  const value = deepFreeze(JSON.parse(text) as unknown);
  answers.set(text, value);
  chars += text.length;
  for (const [old] of answers) {
    if (answers.size <= MAX_ENTRIES && chars <= MAX_CHARS) break;
    answers.delete(old);
    chars -= old.length;
  }
  return value;
}

/**
 * `make(source)` remembered for a shared answer (or any object that never changes), by `key`
 * (what else the value depends on). Gone with the source.
 */
export function derived<S extends object, V>(memo: WeakMap<S, Map<string, V>>, source: S, key: string, make: () => V): V {
  let byKey = memo.get(source);
  if (!byKey) memo.set(source, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined && !byKey.has(key)) {
    value = make();
    // A handful of keys per answer (the fields of one table, a device's name): bounded anyway.
    if (byKey.size >= 16) byKey.clear();
    byKey.set(key, value);
  }
  return value as V;
}
