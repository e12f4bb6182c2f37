import { describe, expect, it } from "vitest";
import { encodedOnce } from "./encoded-once.server.ts";

describe("encodedOnce", () => {
  it("hands a string back the first time, its remembered UTF-8 bytes from the second on", () => {
    const chunk = `<tr>${"é".repeat(3000)}</tr>${Math.random()}`;
    expect(encodedOnce(chunk)).toBe(chunk);
    const bytes = encodedOnce(chunk);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect((bytes as Buffer).toString("utf8")).toBe(chunk);
    // The same bytes object each time after that, also for an equal string made anew.
    expect(encodedOnce(chunk)).toBe(bytes);
    expect(encodedOnce(`${chunk.slice(0, 10)}${chunk.slice(10)}`)).toBe(bytes);
  });

  it("stays bounded: strings seen once do not push out what repeats beyond its limits", () => {
    const kept = `kept ${"x".repeat(4000)} ${Math.random()}`;
    encodedOnce(kept);
    const keptBytes = encodedOnce(kept);
    // Many strings seen once each (the page's data, new on every view).
    for (let i = 0; i < 1000; i++) expect(encodedOnce(`once ${i} ${"y".repeat(3000)}`)).toBeTypeOf("string");
    expect(encodedOnce(kept)).toBe(keptBytes);
  });

  it("never hands out the bytes of another long chunk that shares its memo entry (bounded-memo.ts)", () => {
    // Longer than V8 hashes in full: the same length, start, middle and end.
    const make = (mark: string) => `<script>${"a".repeat(5000)}${mark}${"b".repeat(15000)}</script>`;
    const one = make("1");
    const two = make("2");
    encodedOnce(one);
    expect(Buffer.isBuffer(encodedOnce(one))).toBe(true);
    expect(encodedOnce(two)).toBe(two);
    expect((encodedOnce(two) as Buffer).toString("utf8")).toBe(two);
    expect(encodedOnce(one)).toBe(one);
    expect((encodedOnce(one) as Buffer).toString("utf8")).toBe(one);
  });

  it("keeps the long chunks that repeat while a new one of the same length comes on every view", () => {
    const stable = `<div>${"s".repeat(20000)}</div>`;
    encodedOnce(stable);
    const stableBytes = encodedOnce(stable);
    for (let i = 0; i < 500; i++) {
      // The page's data: one length, one start and end, new on every view.
      const data = `<script>${String(100000 + i)}${"d".repeat(20000)}</script>`;
      expect(encodedOnce(data)).toBe(data);
      expect(encodedOnce(stable)).toBe(stableBytes);
    }
  });
});
