import { describe, expect, it } from "vitest";
import { formatMilliseconds } from "./pcap.ts";

describe("formatMilliseconds", () => {
  it("keeps sub-millisecond precision and trims long values", () => {
    expect(formatMilliseconds(0.012)).toBe("0.012 ms");
    expect(formatMilliseconds(1.23456)).toBe("1.235 ms");
    expect(formatMilliseconds(20.5)).toBe("20.5 ms");
    expect(formatMilliseconds(450)).toBe("450.0 ms");
    expect(formatMilliseconds(1234.56)).toBe("1,234.6 ms");
    expect(formatMilliseconds(0)).toBe("0 ms");
  });
});
