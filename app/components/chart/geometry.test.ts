import { scaleUtc } from "d3-scale";
import { describe, expect, it } from "vitest";
import { xTicksOption } from "./canvas.tsx";
import { axes, chooseTimeTicks, labelsFit, labelWidth, PLOT_W, X_TIERS, Y_GUTTER, type Axes } from "./geometry.ts";
import { drawnSeries, type ChartSeries, type ChartSpec } from "./model.ts";

/*
 * The x labels are chosen by the room they have (issue 63 item 21: at 320 px '08:5009:00' ran
 * together): at every width the labels shown do not overlap, a narrower chart shows fewer, and the
 * server's SVG hides, per width step, exactly the labels not chosen for it.
 */

const minutes = (start: number, count: number, step = 60_000): ChartSeries => ({ name: "RTT", points: Array.from({ length: count }, (_, i) => ({ t: new Date(start + i * step).toISOString(), v: 5 + (i % 7) })) });
const T0 = Date.UTC(2026, 10, 29, 8, 0);
const specs: Record<string, ChartSpec> = {
  "1h of minutes": { title: "t", unit: "%", kind: "line", series: [minutes(T0, 61)] },
  "1h of 5 minutes": { title: "t", unit: "%", kind: "line", series: [minutes(T0 + 600_000, 13, 300_000)] },
  "1d of hours": { title: "t", unit: "%", kind: "line", series: [minutes(T0, 25, 3_600_000)] },
  "1w of hours": { title: "t", unit: "%", kind: "line", series: [minutes(T0, 169, 3_600_000)] },
  "apps": {
    title: "t",
    unit: "hits",
    kind: "bar",
    series: [{ name: "Hits", points: ["HTTPS", "Google Workspace", "Microsoft Teams", "Zoom", "YouTube", "Windows Update", "AWS S3", "GitHub", "Netflix", "Dropbox"].map((t, i) => ({ t, v: 100 - i })) }],
  },
};
const ax = (spec: ChartSpec): Axes => axes(spec, drawnSeries(spec.series));
/** Where a tick's label sits in a plot `width` px wide. */
const placed = (a: Axes, ticks: { value: number; label: string }[], width: number) => ticks.map((t) => ({ x: ((a.time ? a.x(t.value) : t.value) / PLOT_W) * width, label: t.label }));

describe("the x labels' chooser", () => {
  for (const [name, spec] of Object.entries(specs)) {
    it(`${name}: no two labels overlap at any width from 160 to 1400 px, and a narrower chart shows no more`, () => {
      const a = ax(spec);
      let before = Infinity;
      for (let width = 1400; width >= 160; width -= 20) {
        const ticks = a.xTicksAt(width);
        expect(ticks.length, `${width} px`).toBeGreaterThan(0);
        expect(labelsFit(placed(a, ticks, width), width), `${width} px: ${ticks.map((t) => t.label).join(" ")}`).toBe(true);
        expect(ticks.length, `${width} px`).toBeLessThanOrEqual(before);
        before = ticks.length;
      }
    });

    it(`${name}: the server's SVG leaves out, at each width step, the labels not chosen for it`, () => {
      const a = ax(spec);
      X_TIERS.forEach((_, i) => {
        const shown = a.xTicks.filter((t) => !t.off.includes(i));
        expect(shown.map((t) => t.label)).toEqual(a.xTicksAt(Math.max(200, X_TIERS[i]!) - Y_GUTTER).map((t) => t.label));
      });
    });
  }

  it("an hour of minutes at 320 px (a 200 px figure): a few labels, not twelve", () => {
    const a = ax(specs["1h of minutes"]!);
    const narrow = a.xTicksAt(200 - Y_GUTTER).map((t) => t.label);
    expect(narrow.length).toBeGreaterThanOrEqual(2);
    expect(narrow.length).toBeLessThanOrEqual(4);
    expect(a.xTicksAt(1000).length).toBeGreaterThanOrEqual(5);
  });

  it("measures labels as the system fonts draw them at 12 px, a little wider", () => {
    // Chromium's Roboto at 12 px: '08:50' 30.0, 'Nov 25' 38.0, 'Microsoft Tea…' 83.4, 'HTTPS' 39.3.
    for (const [label, drawn] of [["08:50", 30], ["Nov 25", 38], ["Microsoft Tea…", 83.4], ["HTTPS", 39.3]] as const) {
      expect(labelWidth(label)).toBeGreaterThanOrEqual(drawn);
      expect(labelWidth(label)).toBeLessThan(drawn * 1.3);
    }
  });

  it("keeps labels inside the plot and apart: two labels closer than their widths do not fit", () => {
    expect(labelsFit([{ x: 0, label: "08:50" }, { x: 30, label: "09:00" }], 300)).toBe(false);
    expect(labelsFit([{ x: 0, label: "08:50" }, { x: 100, label: "09:00" }], 300)).toBe(true);
    expect(labelsFit([{ x: 150, label: "Microsoft Teams" }], 60)).toBe(false);
  });

  it("labels two bars of one name with their ids in full where there is room (Top Talkers)", () => {
    const twins: ChartSpec = { title: "t", unit: "bytes", kind: "stacked-bar", series: [{ name: "Rx", points: ["Analytics VPC (ep-bjnd4kr236wd)", "Analytics VPC (ep-l1zzfwwhjdpe)"].map((t, i) => ({ t, v: 10 - i })) }] };
    expect(ax(twins).xTicksAt(800).map((t) => t.label)).toEqual(["Analytics VPC (ep-bjnd4kr236wd)", "Analytics VPC (ep-l1zzfwwhjdpe)"]);
    // Narrow: one of them, whole, rather than two that read the same.
    expect(ax(twins).xTicksAt(200).map((t) => t.label)).toEqual(["Analytics VPC (ep-bjnd4kr236wd)"]);
  });

  it("falls back to one label when even two do not fit", () => {
    const scale = scaleUtc().domain([T0, T0 + 3_600_000]).range([0, PLOT_W]);
    expect(chooseTimeTicks(scale, 40, (d) => d.toISOString().slice(11, 16))).toHaveLength(1);
  });
});

describe("time axes of one time, and of the hours of a day", () => {
  it("one time (a 1h range of a daily chart): an hour either side, labels that differ", () => {
    const one: ChartSpec = { title: "Peak Hour Throughput Trend (Mbps)", unit: "Mbps", kind: "line", series: [{ name: "Download", points: [{ t: "2026-12-03T00:00:00.000Z", v: 565 }] }] };
    const a = ax(one);
    expect(a.xDomain).toEqual([Date.parse("2026-12-02T23:00:00Z"), Date.parse("2026-12-03T01:00:00Z")]);
    const labels = a.xTicksAt(600).map((t) => t.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain("Dec 3");
  });

  it("an hour-of-day axis spans the whole day and labels midnight as 00:00", () => {
    const hour = (h: number) => Date.UTC(1970, 0, 1, h);
    const peak: ChartSpec = { title: "Peak", unit: "Mbps", kind: "scatter", xDomain: [hour(0), hour(23)], xAxis: "hour-of-day", series: [{ name: "Download", points: [{ t: hour(8), v: 400 }] }] };
    const a = ax(peak);
    expect(a.xDomain).toEqual([hour(0), hour(23)]);
    const labels = a.xTicksAt(800).map((t) => t.label);
    expect(labels[0]).toBe("00:00");
    expect(labels.every((l) => /^\d\d:00$/.test(l))).toBe(true);
  });
});

describe("the canvas's x ticks", () => {
  it("are chosen for the axis' width as chart.js lays it out, and labelled", () => {
    const a = ax(specs["1h of minutes"]!);
    const option = xTicksOption(a);
    const axis = { width: 180, chart: { width: 240 }, ticks: [] as { value: number }[] };
    option.afterBuildTicks(axis);
    expect(axis.ticks.map((t) => t.value)).toEqual(a.xTicksAt(180).map((t) => t.value));
    expect(axis.ticks.map((t) => option.label(t.value))).toEqual(a.xTicksAt(180).map((t) => t.label));
    axis.width = 900;
    option.afterBuildTicks(axis);
    expect(axis.ticks.length).toBeGreaterThan(a.xTicksAt(180).length);
    expect(option.label(12345)).toBe("");
  });
});
