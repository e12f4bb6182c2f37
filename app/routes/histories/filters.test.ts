import { describe, expect, it } from "vitest";
import { platformFilters, RANGE_ORDER_ERROR, readFilters } from "./filters.ts";

// Issue 27 items 4 and 6: the change log's time filters say what is wrong instead of finding nothing
// (or a 500), and send the platform nothing it would refuse.

const read = (query: string) => {
  const { filters, errors } = readFilters(new URLSearchParams(query));
  return { filters, errors, sent: platformFilters(filters, errors) };
};

describe("/histories filters", () => {
  it("a From after its To says so, and the range is not sent", () => {
    const r = read("from=2026-11-25T12:00&to=2026-11-25T10:00");
    expect(r.errors).toEqual([RANGE_ORDER_ERROR]);
    expect(r.sent).toEqual({});
    expect(r.filters.from).toBe("2026-11-25T12:00"); // kept in the inputs
  });

  it("From and To within the same minute are in order", () => {
    expect(read("from=2026-11-25T10:00&to=2026-11-25T10:00").errors).toEqual([]);
    expect(read("from=2026-11-25T10:00:30&to=2026-11-25T10:00:30").errors).toEqual([]);
  });

  it("a year PostgreSQL cannot hold, or before 1970, is refused in the page, not sent", () => {
    for (const bad of ["0000-01-01T00:00", "1969-12-31T23:59", "0000-01-01T00:00:00Z", "2026-11-25T10:00+23:59"]) {
      const r = read(`from=${encodeURIComponent(bad)}`);
      expect(r.errors, bad).toEqual(["From must be a date and time."]);
      expect(r.sent.from, bad).toBeUndefined();
    }
  });
});
