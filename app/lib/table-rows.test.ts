import { describe, expect, it } from "vitest";
import { rowsJson, rowsJsonOf, tableRows } from "./table-rows.ts";

const roundTrip = <T>(rows: T[]) => tableRows({ rows: rowsJson(rows) });

describe("table rows as JSON text", () => {
  it("writes same-shaped rows column-keyed and reads them back as they were", () => {
    const rows = [
      { id: "a", name: "Ada \"Countess\" <Lovelace>", n: 1, tags: ["x"], when: null, ok: true },
      { id: "b", name: "Grace", n: 2.5, tags: [], when: "2026-11-23", ok: false },
    ];
    const text = rowsJson(rows);
    expect(text.startsWith('{"k":["id","name","n","tags","when","ok"]')).toBe(true);
    expect(text.length).toBeLessThan(JSON.stringify(rows).length);
    expect(roundTrip(rows)).toEqual(rows);
  });

  it("keeps a plain array for rows of other shapes, and for none", () => {
    const shapes = [
      [],
      [{ id: "a", x: 1 }, { id: "b" }],
      [{ id: "a" }, { id: "b", extra: 1 }],
      [{ id: "a", x: undefined }],
      [["array", "row"]],
      ["text"],
    ];
    for (const rows of shapes) {
      expect(rowsJson(rows as unknown[]).startsWith("[")).toBe(true);
      expect(roundTrip(rows as unknown[])).toEqual(JSON.parse(JSON.stringify(rows)));
    }
  });

  it("reduces rows to a table's fields, a missing one as null", () => {
    const rows = [
      { id: "a", name: "Ada", secret: "s1", n: 1 },
      { id: "b", name: "Grace", secret: "s2" },
    ];
    const text = rowsJsonOf(rows, ["id", "name", "n"]);
    expect(text).not.toContain("secret");
    expect(tableRows({ rows: text })).toEqual([
      { id: "a", name: "Ada", n: 1 },
      { id: "b", name: "Grace", n: null },
    ]);
    expect(rowsJsonOf([], ["id"])).toBe("[]");
  });
});
