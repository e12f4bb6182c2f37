import type { ChartKind, ChartSpec } from "../../components/chart/model.ts";

/*
 * The device tabs' charts from the platform's samples: one table-driven builder, so every chart
 * says its title, unit and series the same way. `t` is the sample's time unless a series says.
 */

export interface SeriesOf<S> {
  name: string;
  value: (s: S) => number | null;
  time?: (s: S) => string | number;
}

export function chartOf<S extends { timestamp: string }>(
  spec: {
    title: string;
    unit: string;
    kind?: ChartKind;
    yDomain?: readonly [number, number];
    xLabel?: string;
    description?: string;
  },
  samples: readonly S[],
  series: readonly SeriesOf<S>[],
): ChartSpec {
  return {
    kind: "line",
    ...spec,
    series: series.map((s) => ({
      name: s.name,
      points: samples.map((x) => ({
        t: s.time ? s.time(x) : x.timestamp,
        v: s.value(x),
      })),
    })),
  };
}

/** A ratio (0–1) as a percentage. */
export const percent = (ratio: number) => ratio * 100;
/** Bits per second as Mbps. */
export const mbps = (bps: number) => bps / 1_000_000;
