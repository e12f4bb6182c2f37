import { describe, expect, it } from "vitest";
import { formatBytes } from "./format.ts";

describe("formatBytes", () => {
  it("writes bytes whole and larger sizes with one decimal at most, in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1024 * 1024)).toBe("1 MB");
    expect(formatBytes(5.25 * 1024 ** 3)).toBe("5.3 GB");
    expect(formatBytes(Number.NaN)).toBe("—");
  });
});
