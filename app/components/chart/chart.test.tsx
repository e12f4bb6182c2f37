import fs from "node:fs";
import type React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Chart, chartMarkup } from "./chart.tsx";
import { axes } from "./geometry.ts";
import { ChartDataLink } from "./data-link.tsx";
import { preparedChartWithMarkup, withSvgMarkup } from "./markup.server.tsx";
import { describe as describeChart, drawnSeries, OTHER, packedSeries, prepareChart, round3, shownBands, SVG_MARKUP, unpackChart, type ChartSeries, type ChartSpec } from "./model.ts";
import { OTHER_COLORS, PALETTES, PALETTE_VARS } from "./palette.ts";

const T0 = Date.parse("2026-11-25T00:00:00Z");
const at = (i: number) => new Date(T0 + i * 600_000).toISOString();
const series = (name: string, values: (number | null)[]): ChartSeries => ({ name, points: values.map((v, i) => ({ t: at(i), v })) });

const render = (spec: ChartSpec, error?: string) => renderToStaticMarkup(<Chart spec={spec} error={error} />);

describe("chart kit: figures", () => {
  it("rounds to 3 decimals", () => {
    expect(round3(1.23456)).toBe(1.235);
    expect(round3(-0.0004)).toBe(0);
    expect(round3(2)).toBe(2);
    expect(drawnSeries([series("a", [0.1 + 0.2, 1 / 3, null])])[0]!.points.map((p) => p.v)).toEqual([0.3, 0.333, null]);
  });

  it("draws the five largest series and sums the rest as 'Other'", () => {
    const many = [1, 7, 3, 9, 5, 2, 8].map((k, i) => series(`s${i}`, [k, k * 10]));
    const drawn = drawnSeries(many);
    expect(drawn.map((s) => s.name)).toEqual(["s1", "s2", "s3", "s4", "s6", OTHER]);
    // s0 (1, 10) + s5 (2, 20)
    expect(drawn[5]!.points.map((p) => p.v)).toEqual([3, 30]);
    expect(drawnSeries(many.slice(0, 5)).map((s) => s.name)).toEqual(["s0", "s1", "s2", "s3", "s4"]);
  });
});

// WCAG 2.1 relative luminance and contrast; the backgrounds are the themes' base-100 (app.css, daisyUI).
const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const hexLuminance = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) / 255) + 0.7152 * channel(((n >> 8) & 255) / 255) + 0.0722 * channel((n & 255) / 255);
};
/** OKLCH → linear sRGB luminance (Björn Ottosson's OKLab matrices). */
const oklchLuminance = (l: number, c: number, h: number) => {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const L = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const M = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const S = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const r = 4.0767416621 * L - 3.3077115913 * M + 0.2309699292 * S;
  const g = -1.2684380046 * L + 2.6097574011 * M - 0.3413193965 * S;
  const bl = -0.0041960863 * L - 0.7034186147 * M + 1.707614701 * S;
  return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
};
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

describe("chart kit: colours", () => {
  const css = fs.readFileSync(new URL("../../app.css", import.meta.url), "utf8");
  const darkBase = /name: "linkwise-dark";[\s\S]*?--color-base-100: oklch\(([\d.]+)% ([\d.]+) ([\d.]+)\)/.exec(css)!;
  const backgrounds = { corporate: 1, "linkwise-dark": oklchLuminance(Number(darkBase[1]) / 100, Number(darkBase[2]), Number(darkBase[3])) };

  for (const [theme, colours] of Object.entries(PALETTES)) {
    for (const [i, colour] of [...colours, OTHER_COLORS[theme as keyof typeof OTHER_COLORS]].entries()) {
      it(`${theme} colour ${i + 1} (${colour}) has ≥ 3:1 contrast against both themes' backgrounds`, () => {
        for (const bg of Object.values(backgrounds)) expect(contrast(hexLuminance(colour), bg)).toBeGreaterThanOrEqual(3);
      });
    }
  }

  it("app.css sets the variables to these values in both themes", () => {
    const block = (selector: string) => css.slice(css.indexOf(selector), css.indexOf("}", css.indexOf(selector)));
    const light = block('[data-theme="corporate"] {');
    const dark = block('[data-theme="linkwise-dark"] {');
    PALETTE_VARS.forEach((v, i) => {
      expect(light).toContain(`${v}: ${PALETTES.corporate[i]};`);
      expect(dark).toContain(`${v}: ${PALETTES["linkwise-dark"][i]};`);
    });
  });
});

describe("chart kit: the server's SVG and table", () => {
  const spec: ChartSpec = { title: "Endpoints: transmit", unit: "bytes/s", kind: "line", series: [series("Laptops", [0, 500, 1000, 250]), series("Branch", [100, 200, null, 400])] };

  it("is a figure with an img SVG (title, description), axes with ticks and unit, a path per series, a legend", () => {
    const html = render(spec);
    expect(html).toMatch(/^<figure class="chart @container[^"]*" data-chart-state="ok" data-chart-layer="svg"><figcaption[^>]*>Endpoints: transmit<\/figcaption>/);
    expect(html).toMatch(/<svg role="img" aria-labelledby="(\S+)-title \1-desc"/);
    expect(html).toContain("<title id=");
    expect(html).toContain("Endpoints: transmit from 2026-11-25 00:00 UTC to 2026-11-25 00:30 UTC, 2 series; peak 1k bytes/s (Laptops at 2026-11-25 00:20 UTC).</desc>");
    // y axis: unit, ticks 0 … 1k; x axis: UTC ticks and its title
    expect(html).toContain(">bytes/s</text>");
    for (const label of ["0", "200", "400", "600", "800", "1k"]) expect(html).toContain(`>${label}</text>`);
    expect(html).toContain(">Time (UTC)</text>");
    expect(html).toContain(">Nov 25</text>");
    expect(html).toContain(">00:10</text>");
    // One path per series, gaps left open; the second dashed.
    const paths = [...html.matchAll(/<g class="chart-series" data-series="([^"]+)"><path d="([^"]+)"[^>]*?(stroke-dasharray="[^"]+")?[^>]*>/g)];
    expect(paths.map((m) => m[1])).toEqual(["Laptops", "Branch"]);
    expect(paths[0]![2]).toBe("M0,190L333,95L667,0L1000,143");
    expect(paths[1]![2]).toBe("M0,171L333,152M1000,114Z");
    expect(html).toContain('stroke-dasharray="6 3"');
    expect(html).toMatch(/style="stroke:var\(--chart-1\);?"/);
    expect(html).toMatch(/<ul class="chart-legend[^"]*">.*Laptops.*Branch.*<\/ul>/);
  });

  it("has the data as a table behind 'Show data': units in headers, UTC times, 3 decimals, every series", () => {
    const many = Array.from({ length: 7 }, (_, i) => series(`ep${i}`, [i + 0.12345, i]));
    const html = render({ ...spec, series: many });
    expect(html).toContain("<details class=\"chart-data mt-2\"><summary");
    expect(html).toContain(">Show data</summary>");
    expect(html).toContain("Time (UTC)</th>");
    for (let i = 0; i < 7; i++) expect(html).toContain(`>ep${i} (bytes/s)</th>`);
    expect(html).toContain('<time datetime="2026-11-25T00:00:00.000Z">2026-11-25 00:00 UTC</time>');
    expect(html).toContain('<td data-label="ep6 (bytes/s)">6.123</td>');
    // The legend: five series and Other.
    expect(html.match(/<li class="flex min-w-0/g)).toHaveLength(6);
    expect(html).toContain(">Other</span>");
  });

  it("stacked bars stack with d3's stack, on category axes", () => {
    const bars: ChartSpec = { title: "Top talkers", unit: "bytes", kind: "stacked-bar", xLabel: "Endpoint", series: [{ name: "rx_bytes", points: [{ t: "ep-a", v: 30 }, { t: "ep-b", v: 10 }] }, { name: "tx_bytes", points: [{ t: "ep-a", v: 10 }, { t: "ep-b", v: 5 }] }] };
    const ax = axes(bars, drawnSeries(bars.series));
    expect(ax.yDomain).toEqual([0, 40]);
    const html = render(bars);
    expect(html.match(/<rect /g)?.length).toBe(4 + 2); // four bars, two legend swatches
    expect(html).toContain(">ep-a</text>");
    expect(html).toContain(">Endpoint</th>");
  });

  it("says 'No data' for empty series and shows a failed call's error in the chart's place", () => {
    expect(render({ ...spec, series: [] })).toContain(">No data</p>");
    expect(render({ ...spec, series: [series("x", [])] })).toContain(">No data</p>");
    const failed = render(spec, "The service is unavailable right now.");
    expect(failed).toContain('data-chart-state="error"');
    expect(failed).toContain(">The service is unavailable right now.</p>");
    expect(failed).not.toContain("<svg");
  });

  it("shades bands (announced maintenance) behind the series, clipped to the axis, named in the sentence and under the chart", () => {
    const banded: ChartSpec = {
      ...spec,
      bands: [
        { start: at(1), end: at(2), label: "Announced maintenance" },
        { start: at(-6), end: at(0), label: "Before the range" },
        { start: at(2), end: at(9), label: "Runs past the end" },
      ],
    };
    const html = render(banded);
    const rects = [...html.matchAll(/<rect class="chart-band" data-band="([^"]+)" x="([\d.]+)" width="([\d.]+)" y="0" height="190"/g)];
    // The band ending where the axis starts is not drawn; the last one is clipped to the axis' end.
    expect(rects.map((m) => [m[1], Math.round(Number(m[2])), Math.round(Number(m[3]))])).toEqual([
      ["Announced maintenance", 333, 333],
      ["Runs past the end", 667, 333],
    ]);
    // Behind the series: drawn first.
    expect(html.indexOf("chart-band")).toBeLessThan(html.indexOf("chart-series"));
    expect(html).toContain("Shaded: Announced maintenance from 2026-11-25 00:10 UTC to 2026-11-25 00:20 UTC;");
    expect(html).toMatch(/<ul class="chart-band-list[^"]*" aria-label="Shaded on the chart"><li[^>]*>.*Announced maintenance: <time datetime="2026-11-25T00:10:00.000Z">2026-11-25 00:10 UTC<\/time> to/i);
    expect(html).not.toContain("Before the range");
    // The prepared chart keeps those over the drawn times (the canvas and the markup draw from it).
    expect(unpackChart(prepareChart(banded)).bands).toEqual(shownBands(banded, drawnSeries(banded.series)));
    expect(prepareChart(banded).bands!.length).toBeGreaterThan(0);
    // No bands: nothing added.
    expect(render(spec)).not.toContain("chart-band");
  });

  it("tells apart series of the same name by their ids: legend, table, canvas and prepared chart (issue 63 item 21)", () => {
    const twins: ChartSpec = { ...spec, series: [{ ...series("Analytics VPC", [1, 2]), id: "ep-1a2b" }, { ...series("Analytics VPC", [3, 4]), id: "ep-3c4d" }, series("Branch", [5, 6])] };
    const html = render(twins);
    expect([...html.matchAll(/<span class="break-all">([^<]+)<\/span>/g)].map((m) => m[1])).toEqual(["Analytics VPC (ep-1a2b)", "Analytics VPC (ep-3c4d)", "Branch"]);
    expect(html).toContain(">Analytics VPC (ep-1a2b) (bytes/s)</th>");
    expect(html).toContain(">Analytics VPC (ep-3c4d) (bytes/s)</th>");
    expect(packedSeries(prepareChart(twins)).series.map((s) => s.name)).toEqual(["Analytics VPC (ep-1a2b)", "Analytics VPC (ep-3c4d)", "Branch"]);
    // Without ids, their places: still two names.
    expect(drawnSeries([series("A", [1]), series("A", [2])]).map((s) => s.name)).toEqual(["A (1)", "A (2)"]);
    // A name of its own stays as it is, id or not.
    expect(drawnSeries([{ ...series("A", [1]), id: "x" }]).map((s) => s.name)).toEqual(["A"]);
  });

  it("says one time as one time, not 'from 08:00 to 08:00'", () => {
    const one: ChartSpec = { title: "Trend", unit: "Mbps", kind: "line", series: [series("Download", [5])] };
    expect(describeChart(one, drawnSeries(one.series))).toBe("Trend at 2026-11-25 00:00 UTC, 1 series; peak 5 Mbps (Download at 2026-11-25 00:00 UTC).");
    const hours: ChartSpec = { title: "Peak", unit: "Mbps", kind: "scatter", xAxis: "hour-of-day", series: [{ name: "Download", points: [{ t: Date.UTC(1970, 0, 1, 8), v: 5 }] }] };
    expect(describeChart(hours, drawnSeries(hours.series))).toBe("Peak, 1 series; peak 5 Mbps (Download at 08:00 to 09:00 UTC).");
  });

  it("draws the y labels in a gutter of their own, left of the plot: never over the first bar (issue 63 item 21)", () => {
    const bars: ChartSpec = { title: "Top Apps by Hits", unit: "hits", kind: "bar", xLabel: "Application", series: [{ name: "Hits", points: [{ t: "HTTPS", v: 11_000_000 }, { t: "Zoom", v: 2_000_000 }] }] };
    const html = render(bars);
    const gutter = /<svg aria-hidden="true" width="(\d+)"[^>]*class="chart-y-labels[^"]*"[^>]*>(.*?)<\/svg><svg role="img"/.exec(html);
    expect(gutter, html).not.toBeNull();
    expect(Number(gutter![1])).toBeGreaterThanOrEqual(36);
    for (const label of ["0", "2M", "4M", "10M", "12M"]) expect(gutter![2]).toContain(`>${label}</text>`);
    // The plot's SVG has the bars and the x labels, no y label.
    const plot = html.slice(html.indexOf('<svg role="img"'));
    expect(plot).not.toContain(">10M</text>");
    expect(plot).toContain(">HTTPS</text>");
  });

  it("honours a fixed y domain (0–100 %)", () => {
    const cpu: ChartSpec = { title: "CPU", unit: "%", kind: "area", yDomain: [0, 100], series: [series("cpu_p", [10, 20])] };
    expect(axes(cpu, drawnSeries(cpu.series)).yDomain).toEqual([0, 100]);
    expect(describeChart(cpu, drawnSeries(cpu.series))).toContain("peak 20 %");
  });
});

describe("chart kit: prepared charts and 'Show data' by URL", () => {
  it("writes a prepared chart's server markup without unpacking its series (only hydrated canvases need them)", () => {
    const spec: ChartSpec = { title: "Load", unit: "%", kind: "line", series: [{ name: "CPU", points: [{ t: "2026-11-25T10:00:00Z", v: 1 }, { t: "2026-11-25T11:00:00Z", v: 2 }] }] };
    const prepared = { ...prepareChart(spec), markup: true, [SVG_MARKUP]: "<svg data-test-markup></svg>" };
    // A packed string that cannot be parsed: rendering must not need it.
    const html = renderToStaticMarkup(<Chart spec={{ ...prepared, packed: "not json" }} />);
    expect(html).toContain("<svg data-test-markup></svg>");
    expect(html).toContain('data-chart-state="ok"');
    const none = { ...prepareChart({ ...spec, series: [] }), markup: true, packed: "not json" };
    expect(renderToStaticMarkup(<Chart spec={none} />)).toContain('data-chart-state="empty"');
  });

  it("prepares a chart and its markup once while its spec is the same (preparedChartWithMarkup)", () => {
    const spec: ChartSpec = { title: "Load", unit: "%", kind: "line", series: [{ name: "CPU", points: [{ t: "2026-11-25T10:00:00Z", v: 1.5 }, { t: "2026-11-25T11:00:00Z", v: null }] }] };
    const first = preparedChartWithMarkup(spec, "load");
    expect(first).toEqual(withSvgMarkup(prepareChart(spec), "load"));
    expect(preparedChartWithMarkup(structuredClone(spec), "load")).toBe(first);
    // Anything else is another chart: the id, a value, a gap, a time, a name, the title.
    const other = (change: (s: ChartSpec) => void) => {
      const s = structuredClone(spec);
      change(s);
      return preparedChartWithMarkup(s, "load");
    };
    expect(preparedChartWithMarkup(spec, "load-2")).not.toBe(first);
    expect(other((s) => (s.series[0]!.points[0]!.v = 1.5000001))).not.toBe(first);
    expect(other((s) => (s.series[0]!.points[1]!.v = 0))).not.toBe(first);
    expect(other((s) => (s.series[0]!.points[0]!.t = "2026-11-25T10:10:00Z"))).not.toBe(first);
    expect(other((s) => (s.series[0]!.name = "RAM"))).not.toBe(first);
    expect(other((s) => (s.title = "Memory"))).not.toBe(first);
  });

  const many: ChartSpec = { title: "Endpoints: transmit", unit: "bytes/s", kind: "line", series: Array.from({ length: 8 }, (_, i) => series(`ep${i}`, [i + 0.12345, i * 2, null])) };
  /** Rendered inside a router (the data link reads the location). */
  const inRouter = (element: React.ReactElement, url = "/dashboard?range=1d") => {
    const Stub = createRoutesStub([{ path: "/dashboard", Component: () => element }]);
    return renderToStaticMarkup(<Stub initialEntries={[url]} />);
  };

  it("keeps only the drawn series (five largest + 'Other'), rounded, on one x axis, with the sentence", () => {
    const prepared = prepareChart(many);
    const packed = packedSeries(prepared);
    expect(typeof prepared.packed).toBe("string");
    expect(packed.series.map((s) => s.name)).toEqual(["ep3", "ep4", "ep5", "ep6", "ep7", OTHER]);
    expect(packed.x).toEqual([0, 1, 2].map((i) => Date.parse(at(i))));
    expect(packed.series[0]!.v).toEqual([3.123, 6, null]);
    // ep0 + ep1 + ep2: 0.12345 + 1.12345 + 2.12345, 0 + 2 + 4
    expect(packed.series[5]!.v).toEqual([3.369, 6, null]);
    expect(prepared.description).toBe(describeChart(many, drawnSeries(many.series)));
    // Unpacked, it is the drawn series exactly: the SVG and the canvas draw the same as from the full spec.
    const drawn = drawnSeries(many.series).map((s) => ({ ...s, points: s.points.map((p) => ({ ...p, t: Date.parse(String(p.t)) })) }));
    expect(unpackChart(prepared).series).toEqual(drawn);
    expect(JSON.stringify(prepared).length).toBeLessThan(JSON.stringify(many).length);
  });

  it("draws the same SVG from the prepared chart as from the full spec; its table comes from `data` only", () => {
    const strip = (html: string) => html.replace(/_R_[a-zA-Z0-9_]*_/g, "");
    const full = strip(render(many));
    const prepared = strip(renderToStaticMarkup(<Chart spec={prepareChart(many)} />));
    expect(prepared).toBe(full.replace(/<details[\s\S]*<\/details>/, ""));
    expect(prepared).not.toContain("<table");
    // The server's markup (made once, cached) is that same drawing.
    const strip2 = (html: string) => html.replace(/(id|aria-labelledby|href)="[^"]*"/g, "");
    expect(strip2(renderToStaticMarkup(<Chart spec={withSvgMarkup(prepareChart(many), "c1")} />))).toBe(strip2(prepared));
  });

  it("writes one markup for the server's chart and for a chart the browser draws itself (chartMarkup), with no canvas before the interactive layer", () => {
    const prepared = prepareChart(many);
    expect(withSvgMarkup(prepared, "c1")[SVG_MARKUP]).toBe(chartMarkup(prepared, "c1"));
    // A chart given whole is written by the same writer, under its figure's id.
    const html = renderToStaticMarkup(<Chart spec={many} figureId="c2" />);
    expect(html).toContain(`<div class="chart-server">${chartMarkup(many, "c2")}</div>`);
    expect(html).toContain('data-chart-layer="svg"');
    expect(html).not.toContain("<canvas");
  });

  it("'Show data' is a link to ?data=<id>; open, the table (every object) in a focusable region and 'Hide data'", () => {
    const closed = inRouter(<ChartDataLink id="endpoints-tx" title="Endpoints: transmit" table={null} />);
    expect(closed).toContain('href="/dashboard?range=1d&amp;data=endpoints-tx#endpoints-tx-data"');
    expect(closed).toContain('aria-expanded="false"');
    expect(closed).toContain(">Show data</a>");
    const open = inRouter(<ChartDataLink id="endpoints-tx" title="Endpoints: transmit" table="<tbody><tr><td>1</td></tr></tbody>" />, "/dashboard?range=1d&data=endpoints-tx");
    expect(open).toContain('href="/dashboard?range=1d#endpoints-tx"');
    expect(open).toContain('aria-expanded="true" aria-controls="endpoints-tx-data"');
    expect(open).toContain(">Hide data</a>");
    expect(open).toMatch(/<div id="endpoints-tx-data"[^>]*tabindex="0" role="region" aria-label="Endpoints: transmit: the data"><table [^>]*><tbody><tr><td>1<\/td>/);
  });
});
