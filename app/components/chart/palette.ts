/*
 * The five series colours (an Okabe–Ito subset, README.md): CSS variables set per theme in
 * app/app.css, so the SVG follows a theme switch at once and the canvas reads them again.
 * Lines differ by dash and point style too, so colour is never the only difference.
 */

export const PALETTE_VARS = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5"] as const;

/** The values app.css gives the variables (the tests check each against both themes' backgrounds). */
export const PALETTES = {
  corporate: ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#A66F00"],
  "linkwise-dark": ["#3A93D0", "#E36C1A", "#00A87A", "#CC79A7", "#B88000"],
} as const;
/** The 'Other' series (the sum of the series beyond five): grey, in the same two themes. */
export const OTHER_COLORS = { corporate: "#767676", "linkwise-dark": "#8C8C8C" } as const;

/** SVG stroke-dasharray per series (solid, dashed, dotted, dash-dot, long dash; 'Other' last). */
export const DASHES = ["", "6 3", "2 3", "8 3 2 3", "12 4", "4 2 1 2 1 2"] as const;
/** chart.js borderDash, the same patterns. */
export const DASH_ARRAYS: number[][] = DASHES.map((d) => (d ? d.split(" ").map(Number) : []));
/** Point shapes: chart.js pointStyle names; the SVG draws the same ones (svg.tsx). */
export const POINT_STYLES = ["circle", "rect", "triangle", "rectRot", "crossRot", "cross"] as const;
export type PointStyle = (typeof POINT_STYLES)[number];

/** Series i's colour: the five, then 'Other' (index 5). */
export const seriesColorVar = (i: number) => (i < PALETTE_VARS.length ? `var(${PALETTE_VARS[i]})` : "var(--chart-other)");

/** The current theme's colours, read from the page (browser only). */
export interface LivePalette {
  /** The five colours and 'Other' (index 5). */
  series: string[];
  text: string;
  grid: string;
}

export function readPalette(el: Element = document.documentElement): LivePalette {
  const style = getComputedStyle(el);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    series: [...PALETTE_VARS.map((name, i) => v(name, PALETTES.corporate[i]!)), v("--chart-other", OTHER_COLORS.corporate)],
    text: v("--chart-text", "#1f2937"),
    grid: v("--chart-grid", "#d9dde3"),
  };
}
