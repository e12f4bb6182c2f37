import type { ChartSpec, PreparedChart } from "../../components/chart/model.ts";
import { CHART_RANGES } from "../../components/chart/range-toggle.tsx";
import type { NodeMetricsSample } from "../../../platform/contract/nodes.ts";

/*
 * The Monitoring tab's charts (spec 2 §3 Node metrics, §9): traffic; CPU, memory and disk and the
 * temperatures on a 0–100 axis; the fan on 0–5000 rpm. Ranges are the shared list (default 1h).
 * Each series is named in words (legends, the canvas, the tables); the sample's key stays here.
 */

export type MetricKey = Exclude<keyof NodeMetricsSample, "@timestamp">;

export const NODE_CHARTS: { id: string; title: string; unit: string; yDomain?: readonly [number, number]; keys: [MetricKey, string][] }[] = [
  { id: "node-traffic", title: "Traffic", unit: "bytes/s", keys: [["tx.bytes", "Transmit"], ["rx.bytes", "Receive"]] },
  { id: "node-load", title: "CPU, memory and disk", unit: "%", yDomain: [0, 100], keys: [["cpu_p", "CPU"], ["mem.usage", "Memory"], ["disk", "Disk"]] },
  { id: "node-temperatures", title: "Temperatures", unit: "°C", yDomain: [0, 100], keys: [["ambient", "Ambient"], ["cpu", "CPU"]] },
  { id: "node-fan", title: "CPU fan", unit: "rpm", yDomain: [0, 5000], keys: [["cpu.fan.rpm", "Fan"]] },
];

export const NODE_RANGES = CHART_RANGES;
export type NodeRange = (typeof NODE_RANGES)[number];
export const nodeRangeMs: Record<NodeRange, number> = { "1h": 3600_000, "3h": 3 * 3600_000, "12h": 12 * 3600_000, "1d": 86400_000, "3d": 3 * 86400_000, "1w": 7 * 86400_000 };

export function nodeChartSpec(chart: (typeof NODE_CHARTS)[number], samples: readonly NodeMetricsSample[], nodeName: string): ChartSpec {
  return {
    title: `${nodeName}: ${chart.title}`,
    unit: chart.unit,
    kind: "line",
    yDomain: chart.yDomain,
    series: chart.keys.map(([key, name]) => ({ name, points: samples.map((s) => ({ t: s["@timestamp"], v: s[key] })) })),
  };
}

export interface NodeChart {
  id: string;
  chart: PreparedChart;
  /** The 'Show data' table when the URL asks for it (`?data=id`), else null. */
  table: string | null;
}


/** The Monitoring tab's data, from the loader (lib/node-monitoring.server.ts). */
export interface Monitoring {
  range: NodeRange;
  charts: NodeChart[];
  error: string | null;
}
