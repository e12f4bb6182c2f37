import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv.ts";

describe("csv", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("x\ny")).toBe('"x\ny"');
    expect(csvCell(null)).toBe("");
  });
  it("defuses formulas but keeps negative numbers", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell(-3)).toBe("-3");
  });
  it("writes a header and rows with CRLF", () => {
    expect(toCsv([{ header: "A", value: (r: { a: number }) => r.a }], [{ a: 1 }, { a: 2 }])).toBe("A\r\n1\r\n2\r\n");
  });
});
