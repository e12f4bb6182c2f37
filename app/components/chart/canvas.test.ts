import { describe, expect, it } from "vitest";
import { NARROW_CHART_PX, tickLabel } from "./canvas.tsx";
import { axes } from "./geometry.ts";
import type { ChartSeries } from "./model.ts";

describe("the canvas's time labels", () => {
  // An hour of 5-minute points, as WAN Link RTT shows for range 1h: 12 time ticks.
  const start = Date.UTC(2026, 10, 29, 14, 35);
  const series: ChartSeries[] = [{ name: "RTT", points: Array.from({ length: 13 }, (_, i) => ({ t: new Date(start + i * 300_000).toISOString(), v: 5 + (i % 3) })) }];
  const ax = axes({ kind: "line", series }, series);

  it("labels every other tick in a narrow chart, as the SVG does, and every tick in a wide one", () => {
    const labels = (width: number) => ax.xTicks.map((t) => tickLabel(ax.xTicks, width, t.value)).filter(Boolean);
    expect(ax.xTicks.length).toBeGreaterThan(6);
    const narrow = labels(NARROW_CHART_PX - 1);
    expect(narrow).toEqual(ax.xTicks.filter((t) => !t.minor).map((t) => t.label));
    expect(narrow.length).toBeLessThanOrEqual(Math.ceil(ax.xTicks.length / 2));
    expect(labels(NARROW_CHART_PX)).toEqual(ax.xTicks.map((t) => t.label));
  });

  it("labels a value that is no tick with nothing", () => {
    expect(tickLabel(ax.xTicks, 1000, 12345)).toBe("");
  });
});
