import { chartTableHtml } from "../../components/chart/chart-table.tsx";
import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { gridCharts, sharedGridCharts } from "../../components/chart/grid.server.ts";
import type { ChartSpec } from "../../components/chart/model.ts";
import type { WanLinkUtilization } from "../../../platform/contract/monitoring.ts";
import { chartOf, mbps, percent } from "./charts.ts";
import { part } from "./feeds.server.ts";
import type { DeviceTabContext } from "./model.ts";

/*
 * WAN Link Utilization's part of the loader (tab-utilization.tsx): dashboard_get_wan_link_utilization
 * as three charts — the utilization ratios × 100, each day's busiest hour placed on the hours of
 * the day (scatter), and each day's peak — and the peak hours as rows for the scatter's table.
 */

type Util = WanLinkUtilization["utilization"][number];
type Trend = WanLinkUtilization["peak_hours"]["peak_throughput_trend"][number];

/** A day's busiest hour: where it sits on the scatter's axis of hours (a reference day, 00:00–23:00 UTC). */
export interface PeakHourRow {
  hour: number;
  day: string;
  rx: number;
  tx: number;
}
export const hourOnAxis = (hour: number) => Date.UTC(1970, 0, 1, hour);
const hh = (h: number) => `${String(h % 24).padStart(2, "0")}:00`;
/** A busiest hour as the span it is: '08:00 to 09:00'. */
export const hourSpan = (h: number) => `${hh(h)} to ${hh(h + 1)}`;

export function peakHourRows(u: WanLinkUtilization | null): PeakHourRow[] {
  const scatter = u?.peak_hours.peak_hour_scatter_plot ?? {};
  return Object.entries(scatter)
    .flatMap(([hour, days]) =>
      days.map((d) => ({
        hour: Number(hour),
        day: d.timestamp.slice(0, 10),
        rx: d["rx.mbps"],
        tx: d["tx.mbps"],
      })),
    )
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

export function utilizationCharts(u: WanLinkUtilization | null): { id: string; spec: ChartSpec }[] {
  const rows = peakHourRows(u);
  const busiest = rows.reduce<PeakHourRow | null>((m, r) => (m && m.rx >= r.rx ? m : r), null);
  return [
    {
      id: "wan-utilization",
      spec: chartOf<Util>(
        {
          title: "Upload/Download Utilization (%)",
          unit: "%",
          yDomain: [0, 100],
        },
        u?.utilization ?? [],
        [
          { name: "Download (average)", value: (s) => percent(s.rx_avg_util) },
          { name: "Download (peak)", value: (s) => percent(s.rx_peak_util) },
          { name: "Upload (average)", value: (s) => percent(s.tx_avg_util) },
          { name: "Upload (peak)", value: (s) => percent(s.tx_peak_util) },
        ],
      ),
    },
    {
      id: PEAK_HOUR_ID,
      spec: {
        title: "Daily Site Traffic Peak Hour (Mbps)",
        unit: "Mbps",
        kind: "scatter",
        xLabel: "Hour of day (UTC)",
        // The whole day on the axis, whatever hours the range holds: one day's peak at 1h sat on an axis from 08:00 to 08:00.
        xDomain: [hourOnAxis(0), hourOnAxis(23)],
        xAxis: "hour-of-day",
        description: busiest
          ? `The busiest hour of ${rows.length === 1 ? "the day" : `each of ${rows.length} days`}, by hour of day (UTC); the highest, ${busiest.rx.toFixed(3)} Mbps down, on ${busiest.day} from ${hourSpan(busiest.hour)}.`
          : "No day in this time range.",
        series: [
          {
            name: "Download",
            points: rows.map((r) => ({ t: hourOnAxis(r.hour), v: r.rx })),
          },
          {
            name: "Upload",
            points: rows.map((r) => ({ t: hourOnAxis(r.hour), v: r.tx })),
          },
        ],
      },
    },
    {
      id: "wan-peak-trend",
      spec: chartOf<Trend>({ title: "Peak Hour Throughput Trend (Mbps)", unit: "Mbps" }, u?.peak_hours.peak_throughput_trend ?? [], [
        { name: "Download", value: (s) => mbps(s["max.rx.bps"]) },
        { name: "Upload", value: (s) => mbps(s["max.tx.bps"]) },
      ]),
    },
  ];
}

const PEAK_HOUR_ID = "wan-peak-hour";

export async function load(request: Request, { device, range }: DeviceTabContext) {
  const u = await part(request, "dashboard_get_wan_link_utilization", { node_id: device.id, range });
  const data = u.ok ? u.data : null;
  const charts = data ? sharedGridCharts(request, data, "", () => utilizationCharts(data)) : gridCharts(request, utilizationCharts(null));
  // The scatter's table says each day and its busiest hour (its axis' reference day means nothing).
  if (new URL(request.url).searchParams.get(DATA_PARAM) === PEAK_HOUR_ID) {
    const rows = peakHourRows(data);
    const at = (r: PeakHourRow) => `${r.day} ${hourSpan(r.hour)}`;
    const series = [
      { name: "Download", points: rows.map((r) => ({ t: at(r), v: r.rx })) },
      { name: "Upload", points: rows.map((r) => ({ t: at(r), v: r.tx })) },
    ];
    charts[1] = {
      ...charts[1]!,
      table: chartTableHtml({
        title: "Daily Site Traffic Peak Hour (Mbps)",
        unit: "Mbps",
        series,
        time: false,
        xLabel: "Day and busiest hour (UTC)",
      }),
    };
  }
  return { charts, error: u.ok ? null : u.error };
}
