import { describe, expect, it } from "vitest";
import { cleanText, textPattern } from "./fields.ts";

/*
 * The text check of the field builders and the `pattern` the OpenAPI document gives those fields
 * (issue 63 item 25): the same characters refused, whichever way a client reads the pattern.
 */

describe("textPattern", () => {
  it("refuses the characters cleanText refuses, with and without the u flag", () => {
    for (const multiline of [false, true]) {
      const check = cleanText(multiline);
      const patterns = [new RegExp(textPattern(multiline)), new RegExp(textPattern(multiline), "u")];
      const differ: string[] = [];
      for (let code = 0; code <= 0xffff; code++) {
        // Lone surrogates: refused by cleanText and, for every field, by the text guard; the document says so once.
        if (code >= 0xd800 && code <= 0xdfff) continue;
        const s = `a${String.fromCharCode(code)}b`;
        for (const p of patterns) if (p.test(s) !== check(s)) differ.push(`${multiline ? "multiline" : "single line"} U+${code.toString(16).padStart(4, "0")} ${p.flags}`);
      }
      expect(differ).toEqual([]);
      // Whole strings: a surrogate pair is text; a tab is allowed only where lines are.
      for (const p of patterns) {
        expect(p.test("Oslo office 😀")).toBe(true);
        expect(p.test("")).toBe(true);
        expect(p.test("a\tb")).toBe(multiline);
        expect(p.test("a\r\nb")).toBe(multiline);
        expect(p.test("a\u0000b")).toBe(false);
      }
    }
  });
});
