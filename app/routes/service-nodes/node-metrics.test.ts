import { describe, expect, it } from "vitest";
import type { NodeMetricsSample } from "../../../platform/contract/nodes.ts";
import { NODE_CHARTS, nodeChartSpec } from "./node-metrics.ts";

/* The Monitoring tab's series are named in words: a legend read "CPU (cpu_p)", "Fan (cpu.fan.rpm)" (issue 63 item 16). */

const sample: NodeMetricsSample = { "@timestamp": "2026-12-03T08:00:00.000Z", "tx.bytes": 1, "rx.bytes": 2, cpu_p: 3, "mem.usage": 4, "cpu.fan.rpm": 5, ambient: 6, cpu: 7, disk: 8 };
const keys = Object.keys(sample).filter((k) => k !== "@timestamp");

describe("node Monitoring: the series' names", () => {
  const names = NODE_CHARTS.map((c) => nodeChartSpec(c, [sample], "Edge One").series.map((s) => s.name));

  it("are the words of the legends and the tables' headers", () => {
    expect(names).toEqual([["Transmit", "Receive"], ["CPU", "Memory", "Disk"], ["Ambient", "CPU"], ["Fan"]]);
  });

  it("hold no metric key", () => {
    for (const name of names.flat()) for (const key of keys) expect(name, name).not.toContain(key);
  });

  it("still chart each key's values", () => {
    const values = NODE_CHARTS.flatMap((c) => nodeChartSpec(c, [sample], "Edge One").series.map((s) => s.points[0]!.v));
    expect(values.sort()).toEqual(keys.map((k) => sample[k as keyof typeof sample]).sort());
  });
});
