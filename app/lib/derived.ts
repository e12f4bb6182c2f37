/**
 * `make()` remembered beside `source`, an object that never changes (a shared platform answer, a
 * parsed list), by `key` (what else the value depends on). Gone with the source. Browser-safe:
 * the server's shared answers (shared-answer.server.ts) and the pages' own parsed data use it.
 */
export function derived<S extends object, V>(memo: WeakMap<S, Map<string, V>>, source: S, key: string, make: () => V): V {
  let byKey = memo.get(source);
  if (!byKey) memo.set(source, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined && !byKey.has(key)) {
    value = make();
    // A handful of keys per source (the fields of one table, a device's name): bounded anyway.
    if (byKey.size >= 16) byKey.clear();
    byKey.set(key, value);
  }
  return value as V;
}
