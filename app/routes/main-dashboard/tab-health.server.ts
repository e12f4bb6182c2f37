import { gridCharts, sharedGridCharts } from "../../components/chart/grid.server.ts";
import type { ChartBand } from "../../components/chart/model.ts";
import type { WanLinkHealth } from "../../../platform/contract/monitoring.ts";
import { loadAvailability } from "../sla/data.server.ts";
import { chartOf } from "./charts.ts";
import { part } from "./feeds.server.ts";
import type { DeviceTabContext } from "./model.ts";

/*
 * WAN Link Health's part of the loader (tab-health.tsx): dashboard_get_wan_link_health (the
 * health/RTT/loss series, the daily tests, the outage history), dashboard_get_route (the path today
 * and at the last outage) and the availability block's figures (get_availability: uptime excl.
 * maintenance, whose windows shade the charts), each failing on its own. The charts are prepared
 * here (the chart kit's grid: SVG markup, 'Show data' by URL) and remembered beside the shared
 * health answer (sharedGridCharts).
 */

type Sample = WanLinkHealth["health"][number];
type Test = WanLinkHealth["performance_tests"][number];

export function healthCharts(h: WanLinkHealth | null, bands: ChartBand[]) {
  const samples = h?.health ?? [];
  const testTime = (s: Test) => s.timestamp.slice(0, 16).replace("T", " ");
  return [
    {
      id: "wan-health",
      spec: {
        ...chartOf<Sample>({ title: "WAN Link Health (%)", unit: "%", yDomain: [0, 100] }, samples, [{ name: "Health", value: (s) => s.health }]),
        bands,
      },
    },
    {
      id: "wan-rtt",
      spec: {
        ...chartOf<Sample>({ title: "WAN Link RTT (ms)", unit: "ms" }, samples, [{ name: "RTT", value: (s) => s.RTT_ms }]),
        bands,
      },
    },
    {
      id: "wan-loss",
      spec: {
        ...chartOf<Sample>({ title: "WAN Link Packet Loss Rate (%)", unit: "%" }, samples, [{ name: "Packet loss", value: (s) => s["Loss Rate"] }]),
        bands,
      },
    },
    {
      id: "wan-tests",
      spec: chartOf<Test>(
        {
          title: "Daily Performance Assurance Test (Mbps)",
          unit: "Mbps",
          kind: "bar",
          xLabel: "Test (UTC)",
        },
        h?.performance_tests ?? [],
        [
          { name: "Upload", value: (s) => s["tx.mbps"], time: testTime },
          { name: "Download", value: (s) => s["rx.mbps"], time: testTime },
        ],
      ),
    },
  ];
}

export async function load(request: Request, { device, range }: DeviceTabContext) {
  const [health, route, availability] = await Promise.all([
    part(request, "dashboard_get_wan_link_health", { node_id: device.id, range }),
    part(request, "dashboard_get_route", { node_id: device.id }),
    loadAvailability(request, device.id, range),
  ]);
  const bands = (availability.availability?.devices ?? [])
    .flatMap((d) => d.maintenance)
    .map((m) => ({
      start: m.start,
      end: m.end,
      label: "Announced maintenance",
    }));
  return {
    availability,
    // Remembered beside the shared answer, by the maintenance windows that shade them.
    charts: health.ok ? sharedGridCharts(request, health.data, JSON.stringify(bands), () => healthCharts(health.data, bands)) : gridCharts(request, healthCharts(null, bands)),
    outages: health.ok ? health.data.outage_history : [],
    error: health.ok ? null : health.error,
    route: route.ok ? route.data : null,
    routeError: route.ok ? null : route.error,
  };
}
