import { describe, expect, it } from "vitest";
import { BoundedMemo } from "./bounded-memo.ts";

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
});
