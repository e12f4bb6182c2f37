import { chartTableHtml } from "../../components/chart/chart-table.tsx";
import { prepareChart, rowsByTime, type ChartSpec, type PreparedChart } from "../../components/chart/model.ts";

/* The dashboard's traffic on the server: one time axis, two number arrays per object. */

export interface TrafficObject {
  kind: "endpoint" | "app_service";
  /** The object's id: beside its name in the legend and the table when two share a name. */
  id: string;
  name: string;
  tx: number[];
  rx: number[];
}

export interface Traffic {
  times: string[];
  endpoints: TrafficObject[];
  appServices: TrafficObject[];
}

const UNIT = "bytes/s";

/** The four line charts (spec 2 §2), in page order; `id` is the figure's id and the `?data=` value. */
export const TRAFFIC_CHARTS = [
  { id: "endpoints-tx", of: "endpoints", dir: "tx" },
  { id: "endpoints-rx", of: "endpoints", dir: "rx" },
  { id: "app-services-tx", of: "appServices", dir: "tx" },
  { id: "app-services-rx", of: "appServices", dir: "rx" },
] as const;
export type TrafficChartId = (typeof TRAFFIC_CHARTS)[number]["id"];

/** One of the four line charts: transmit or receive bytes per second of endpoints or app services, every object. */
export function trafficChart(traffic: Traffic | null, of: "endpoints" | "appServices", dir: "tx" | "rx", range: string): ChartSpec {
  const what = of === "endpoints" ? "Endpoints" : "App Services";
  const title = `${what}: ${dir === "tx" ? "transmit" : "receive"} bytes per second`;
  const objects = traffic?.[of] ?? [];
  return {
    title,
    unit: UNIT,
    kind: "line",
    series: objects.map((o) => ({ name: o.name, id: o.id, points: o[dir].map((v, i) => ({ t: traffic!.times[i]!, v })) })),
    ...(objects.length ? {} : { description: `${title} over the last ${range}: no data.` }),
  };
}

export interface DashboardChart {
  id: TrafficChartId;
  chart: PreparedChart;
  /** The 'Show data' table (every object) when the URL asks for this chart's (`?data=id`), else null. */
  table: string | null;
}

/** What the page gets: each chart's drawn series only (five largest + 'Other'), and the one table asked for. */
export function dashboardCharts(traffic: Traffic | null, range: string, dataParam: string | null): DashboardChart[] {
  return TRAFFIC_CHARTS.map(({ id, of, dir }) => {
    const spec = trafficChart(traffic, of, dir, range);
    const table = dataParam === id && traffic ? chartTableHtml({ title: spec.title, unit: spec.unit, series: spec.series, time: rowsByTime(spec) }) : null;
    return { id, chart: prepareChart(spec), table };
  });
}
