import { describe, expect, it } from "vitest";
import { bucketEnd, UntilNextBucket } from "./until-next-bucket.server.ts";

describe("UntilNextBucket", () => {
  it("answers a value until its end, then nothing", () => {
    const memo = new UntilNextBucket<string>();
    memo.set("a", "charts", 1_000, 500);
    expect(memo.get("a", 999)).toBe("charts");
    expect(memo.get("a", 1_000)).toBeNull();
    // Gone once past its end, also for an earlier time asked afterwards.
    expect(memo.get("a", 999)).toBeNull();
  });

  it("keeps nothing whose end has passed, and drops what deleteWhere picks", () => {
    const memo = new UntilNextBucket<number>();
    memo.set("late", 1, 100, 200);
    expect(memo.get("late", 50)).toBeNull();
    memo.set("x token-a", 1, 1_000, 0);
    memo.set("y token-a", 2, 1_000, 0);
    memo.set("x token-b", 3, 1_000, 0);
    memo.deleteWhere((key) => key.endsWith(" token-a"));
    expect([memo.get("x token-a", 1), memo.get("y token-a", 1), memo.get("x token-b", 1)]).toEqual([null, null, 3]);
  });

  it("bucketEnd: the newest bucket's start plus the step; 0 when unknown", () => {
    expect(bucketEnd(["2026-11-28T00:00:00Z", "2026-11-28T00:10:00Z"])).toBe(Date.parse("2026-11-28T00:20:00Z"));
    expect(bucketEnd(["2026-11-28T00:10:00Z"])).toBe(0);
    expect(bucketEnd([])).toBe(0);
  });
});
