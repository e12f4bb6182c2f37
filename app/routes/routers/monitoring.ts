import type { ChartSpec, PreparedChart } from "../../components/chart/model.ts";
import { monitoringRanges } from "../../../platform/contract/devices.ts";
import type { DeviceMonitoring } from "./model.ts";

/*
 * The Monitoring tab's charts (spec 3 §2.10, §3 WAN health and utilization samples): WAN link
 * health, RTT and packet loss, and the utilization ratios shown × 100. One table of charts; the
 * loader (app/lib/device-monitoring.server.ts) prepares them, the tab (monitoring.tsx) draws them.
 */


/** The ranges, 1d (the platform's default) first: the first is the URL's default. */
export const DEVICE_RANGES = ["1d", ...monitoringRanges.filter((r) => r !== "1d")] as const;

interface ChartDef {
  id: string;
  title: string;
  unit: string;
  yDomain?: readonly [number, number];
  series: (m: DeviceMonitoring) => ChartSpec["series"];
}

const line = <R extends { timestamp: string }>(name: string, rows: readonly R[], v: (r: R) => number) => ({ name, points: rows.map((r) => ({ t: r.timestamp, v: v(r) })) });

export const DEVICE_CHARTS: readonly ChartDef[] = [
  { id: "wan-health", title: "WAN link health", unit: "%", yDomain: [0, 100], series: (m) => [line("Health", m.health, (r) => r.health)] },
  { id: "wan-rtt", title: "Round-trip time", unit: "ms", series: (m) => [line("RTT", m.health, (r) => r.RTT_ms)] },
  { id: "wan-loss", title: "Packet loss", unit: "%", series: (m) => [line("Packet loss", m.health, (r) => r["Loss Rate"])] },
  {
    id: "wan-utilization",
    title: "WAN link utilization",
    unit: "%",
    yDomain: [0, 100],
    series: (m) => [
      line("Receive average", m.utilization, (r) => r.rx_avg_util * 100),
      line("Receive peak", m.utilization, (r) => r.rx_peak_util * 100),
      line("Transmit average", m.utilization, (r) => r.tx_avg_util * 100),
      line("Transmit peak", m.utilization, (r) => r.tx_peak_util * 100),
    ],
  },
];

export interface DeviceChart {
  id: string;
  chart: PreparedChart;
  /** The 'Show data' table when the URL asks for it (`?data=id`), else null. */
  table: string | null;
}

/** The tab's data, from the loader. */
export interface CpeMonitoring {
  range: string;
  uptime: number | null;
  charts: DeviceChart[];
  error: string | null;
}
