import { describe, expect, it, vi } from "vitest";
import { gridCharts, sharedGridCharts } from "./grid.server.ts";
import type { ChartSpec } from "./model.ts";

const spec = (title: string, v: number): ChartSpec => ({
  title,
  unit: "ms",
  kind: "line",
  series: [{ name: "RTT", points: [0, 1, 2].map((i) => ({ t: `2026-11-28T0${i}:00:00Z`, v: v + i })) }],
});

const params = (query = "") => new URLSearchParams(query);

describe("sharedGridCharts", () => {
  it("builds the specs once per answer and key, and gives the same prepared charts again", () => {
    const answer = Object.freeze({ samples: [1, 2, 3] });
    const make = vi.fn(() => [
      { id: "rtt", spec: spec("RTT", 10) },
      { id: "loss", spec: spec("Loss", 0) },
    ]);
    const first = sharedGridCharts(params(), answer, "k", make);
    const again = sharedGridCharts(params(), answer, "k", make);
    expect(make).toHaveBeenCalledTimes(1);
    expect(again.map((c) => c.id)).toEqual(["rtt", "loss"]);
    expect(again[0]!.chart).toBe(first[0]!.chart);
    expect(again.every((c) => c.table === null)).toBe(true);
    // The same charts as gridCharts makes of the same specs.
    expect(gridCharts(params(), make.mock.results[0]!.value).map((c) => c.chart)).toEqual(first.map((c) => c.chart));
  });

  it("makes the specs again for another key or another answer", () => {
    const make = vi.fn(() => [{ id: "rtt", spec: spec("RTT", 5) }]);
    const a = Object.freeze({});
    sharedGridCharts(params(), a, "one", make);
    sharedGridCharts(params(), a, "two", make);
    sharedGridCharts(params(), Object.freeze({}), "one", make);
    expect(make).toHaveBeenCalledTimes(3);
  });

  it("writes the 'Show data' table of the chart the URL asks for, and no other", () => {
    const answer = Object.freeze({});
    const make = () => [
      { id: "rtt", spec: spec("RTT", 10) },
      { id: "loss", spec: spec("Loss", 7) },
    ];
    sharedGridCharts(params(), answer, "", make);
    const charts = sharedGridCharts(params("data=loss"), answer, "", make);
    expect(charts[0]!.table).toBeNull();
    expect(charts[1]!.table).toContain("Loss");
    expect(charts[1]!.table).toContain("9");
    // An id that is not one of the charts asks for nothing.
    expect(sharedGridCharts(params("data=nope"), answer, "", make).every((c) => c.table === null)).toBe(true);
  });
});
