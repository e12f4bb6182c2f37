import { describe, expect, it } from "vitest";
import { derived, sharedAnswer } from "./shared-answer.server.ts";

// A list answer of some KB, as the platform sends one (big enough to be shared).
const listText = (name: string) => JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: `cpe-${i}`, name: `${name} ${i}`, ports: [{ n: 1 }] })), total: 100 });

describe("sharedAnswer", () => {
  it("hands out one frozen object for the same text, even when the text is a new string", () => {
    const text = listText("Quay");
    const a = sharedAnswer(text) as { items: { name: string; ports: { n: number }[] }[] };
    // The same characters, made anew (as a platform answer arrives each time).
    const again = sharedAnswer(JSON.stringify(JSON.parse(text))) as typeof a;
    expect(again).toBe(a);
    expect(a.items[3]!.name).toBe("Quay 3");
    expect(Object.isFrozen(a) && Object.isFrozen(a.items) && Object.isFrozen(a.items[0]) && Object.isFrozen(a.items[0]!.ports[0])).toBe(true);
    // A caller that tried to change a shared answer would change every request's: it fails instead.
    expect(() => {
      a.items[0]!.name = "changed";
    }).toThrow(TypeError);
  });

  it("gives another text another object, and freezes small answers without sharing them", () => {
    expect(sharedAnswer(listText("Quay"))).not.toBe(sharedAnswer(listText("Pier")));
    const small = sharedAnswer('{"a":[1]}') as { a: number[] };
    expect(small).toEqual({ a: [1] });
    expect(Object.isFrozen(small.a)).toBe(true);
    expect(sharedAnswer('{"a":[1]}')).not.toBe(small);
  });

  it("stays bounded: the oldest answers go, and an answer seen again after that is parsed again", () => {
    const first = sharedAnswer(listText("Oldest"));
    for (let i = 0; i < 200; i++) sharedAnswer(listText(`Filler ${i}`));
    const later = sharedAnswer(listText("Oldest"));
    expect(later).toEqual(first);
    expect(later).not.toBe(first);
  });

  it("refuses text that is not JSON (callApi then keeps it as text)", () => {
    expect(() => sharedAnswer(`<html>${"x".repeat(3000)}</html>`)).toThrow(SyntaxError);
  });
});

describe("derived", () => {
  it("remembers what is made of an answer by key, and makes it again for another key or answer", () => {
    const memo = new WeakMap<object, Map<string, string>>();
    const answer = sharedAnswer(listText("Quay")) as object;
    let made = 0;
    const make = (k: string) => () => `${k}:${++made}`;
    expect(derived(memo, answer, "a", make("a"))).toBe("a:1");
    expect(derived(memo, answer, "a", make("a"))).toBe("a:1");
    expect(derived(memo, answer, "b", make("b"))).toBe("b:2");
    expect(derived(memo, sharedAnswer(listText("Pier")) as object, "a", make("a"))).toBe("a:3");
  });
});
