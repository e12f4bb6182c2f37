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
});
