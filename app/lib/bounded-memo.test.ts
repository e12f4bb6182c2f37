import { describe, expect, it } from "vitest";
import { BoundedMemo, mapKeyOf } from "./bounded-memo.ts";

describe("BoundedMemo", () => {
  it("drops the least recently used entry past maxEntries (a hit counts as a use)", () => {
    const memo = new BoundedMemo<string, number>({ maxEntries: 2 });
    memo.set("a", 1);
    memo.set("b", 2);
    expect(memo.get("a")).toBe(1);
    memo.set("c", 3);
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toBe(1);
    expect(memo.get("c")).toBe(3);
    expect(memo.count).toBe(2);
  });

  it("keeps the total size within maxSize, and refuses an entry over maxEntrySize", () => {
    const memo = new BoundedMemo<string, string>({
      maxEntries: 100,
      maxSize: 10,
      sizeOf: (_k, v) => v.length,
    });
    expect(memo.set("a", "xx")).toBe(true);
    expect(memo.set("b", "xx")).toBe(true);
    // Over a quarter of maxSize by default: not kept, nothing dropped for it.
    expect(memo.set("big", "xxx")).toBe(false);
    expect(memo.get("big")).toBeUndefined();
    expect(memo.size).toBe(4);
    for (const k of ["c", "d", "e", "f"]) memo.set(k, "xx");
    expect(memo.size).toBe(10);
    memo.set("g", "xx");
    expect(memo.size).toBe(10);
    expect(memo.get("a")).toBeUndefined();
    expect(memo.get("g")).toBe("xx");
  });

  it("replaces an entry in place of adding its size twice; delete and remember", () => {
    const memo = new BoundedMemo<string, string>({
      maxEntries: 10,
      maxSize: 100,
      sizeOf: (k, v) => k.length + v.length,
    });
    memo.set("k", "1234");
    memo.set("k", "12");
    expect(memo.size).toBe(3);
    expect(memo.delete("k")).toBe(true);
    expect(memo.delete("k")).toBe(false);
    expect(memo.size).toBe(0);
    let made = 0;
    const make = () => `v${++made}`;
    expect(memo.remember("r", make)).toBe("v1");
    expect(memo.remember("r", make)).toBe("v1");
    expect(made).toBe(1);
  });

  it("deleteWhere drops the entries it picks and their size", () => {
    const memo = new BoundedMemo<string, string>({ maxEntries: 10, maxSize: 100, sizeOf: (_k, v) => v.length });
    memo.set("a1", "xx");
    memo.set("a2", "xxx");
    memo.set("b1", "x");
    memo.deleteWhere((k) => k.startsWith("a"));
    expect([memo.get("a1"), memo.get("a2"), memo.get("b1")]).toEqual([undefined, undefined, "x"]);
    expect(memo.size).toBe(1);
  });

  it("keeps a long string key under a short Map key and hits only for that key", () => {
    // Longer than V8 hashes in full (16,383 characters): one length, start, middle and end.
    const make = (mark: string) => `${"a".repeat(5000)}${mark}${"b".repeat(15000)}`;
    const one = make("1");
    const two = make("2");
    expect(mapKeyOf(one)).toBe(mapKeyOf(two));
    expect((mapKeyOf(one) as string).length).toBeLessThan(300);
    expect(mapKeyOf("short")).toBe("short");
    expect(mapKeyOf(42)).toBe(42);

    const memo = new BoundedMemo<string, number>({ maxEntries: 10, sizeOf: () => 1 });
    memo.set(one, 1);
    expect(memo.get(one)).toBe(1);
    // An equal string made anew finds it; a different key of the same Map key does not.
    expect(memo.get(`${one.slice(0, 100)}${one.slice(100)}`)).toBe(1);
    expect(memo.get(two)).toBeUndefined();
    expect(memo.delete(two)).toBe(false);
    // They take turns in the entry: setting one replaces the other, size counted once.
    memo.set(two, 2);
    expect(memo.get(one)).toBeUndefined();
    expect(memo.get(two)).toBe(2);
    expect(memo.count).toBe(1);
    expect(memo.size).toBe(1);
    memo.deleteWhere((key) => key === two);
    expect(memo.count).toBe(0);
    expect(memo.size).toBe(0);
  });

  it("finds a long key among many of its length at the cost of a short one", () => {
    const memo = new BoundedMemo<string, number>({ maxEntries: 256 });
    // A page's data: one length, the same first 20,000 characters, new on every view (as a memo of rendered chunks saw it).
    const data = (i: number) => `${"d".repeat(20000)}${String(100000 + i)}`;
    for (let i = 0; i < 256; i++) memo.set(data(i), i);
    // Flat strings, as a page's chunks are, and the code warmed up first: only the lookups are timed.
    const flat = (text: string) => Buffer.from(text).toString();
    for (let i = 0; i < 256; i++) memo.get(flat(data(5000 + i)));
    const asked = Array.from({ length: 256 }, (_, i) => flat(data(1000 + i)));
    let found = 0;
    const started = performance.now();
    for (const key of asked) if (memo.get(key) !== undefined) found++;
    const perMiss = (performance.now() - started) / asked.length;
    expect(found).toBe(0);
    expect(memo.count).toBe(256);
    // Kept under themselves, all 256 were in one Map bucket, and each miss compared 20,000
    // characters of each: ~0.25 ms a miss on the 2-core machine; now ~2 microseconds.
    expect(perMiss).toBeLessThan(0.05);
  });
});
