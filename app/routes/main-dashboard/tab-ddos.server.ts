import { gridCharts } from "../../components/chart/grid.server.ts";
import { prepareMap } from "../../components/map/markup.server.tsx";
import type { MapPoint, MapWords } from "../../components/map/model.ts";
import { MALICIOUS_SCORE } from "../../../platform/contract/monitoring-insights.ts";
import { deviceFeed } from "./feeds.server.ts";
import type { DeviceTabContext } from "./model.ts";

/*
 * DDoS Protection Suite's part of the loader: dashboard_get_ddos for the device and range, and its
 * three maps prepared on the server (the map kit: the SVG is drawn here, once) and the mitigation
 * chart (the chart kit's grid). A city is a point, 'Malicious' (the kit's down state: a red
 * triangle) when one of its addresses scores 70 or more.
 */

const words: Partial<MapWords> = {
  status: { up: "Benign", down: "Malicious", unknown: "Unscored" },
  columns: { product: "Country", id: "IPs (score)", address: "Ports" },
  noun: { one: "location", many: "locations" },
  downWord: "malicious",
  idIsList: true,
};

export const DDOS_MAPS = [
  {
    id: "ddos-inbound",
    key: "inbound",
    title: "Originating Traffic Geolocations",
  },
  {
    id: "ddos-outbound",
    key: "outbound",
    title: "Destination Traffic Geolocations",
  },
  { id: "ddos-blocked", key: "blocked", title: "Blocked Malicious IPs" },
] as const;

type Place = {
  city: string;
  country: string;
  latitude: number;
  longitude: number;
  ips: {
    malicious_score: number;
    ip_address?: string;
    ip?: string;
    ports?: number[];
  }[];
};

/** A city as a map point: its addresses with their scores (unique in the map) as the id, the ports seen. */
function cityPoint(p: Place): MapPoint {
  const worst = Math.max(0, ...p.ips.map((x) => x.malicious_score));
  const ports = [...new Set(p.ips.flatMap((x) => x.ports ?? []))].sort((a, b) => a - b);
  return {
    id: p.ips.map((x) => `${x.ip_address ?? x.ip ?? ""} (${x.malicious_score})`).join(", "),
    name: p.city,
    product: p.country,
    address: ports.join(", "),
    latitude: p.latitude,
    longitude: p.longitude,
    status: worst >= MALICIOUS_SCORE ? "down" : "up",
  };
}

export async function load(request: Request, ctx: DeviceTabContext) {
  const feed = await deviceFeed(request, "dashboard_get_ddos", ctx);
  if (!feed.ok) return { error: feed.error, ddos: null, maps: [], charts: [] };
  const d = feed.data;
  const maps = DDOS_MAPS.map((m) =>
    prepareMap({
      id: m.id,
      title: m.title,
      points: (d[m.key].locations as Place[]).map(cityPoint),
      words,
    }),
  );
  const series = (name: string, key: "blocked_bps" | "passed_bps") => ({
    name,
    points: d.mitigation.map((x) => ({ t: x.timestamp, v: x[key] })),
  });
  const charts = gridCharts(request, [
    {
      id: "ddos-mitigation",
      spec: {
        title: "DDoS Mitigation Traffic",
        unit: "bits/s",
        kind: "line",
        series: [series("Blocked", "blocked_bps"), series("Passed", "passed_bps")],
      },
    },
  ]);
  return {
    error: null,
    maps,
    charts,
    ddos: {
      ...d,
      // The maps carry the cities and the chart the series; the page needs the nodes' counts only.
      mitigation: [],
      inbound: { node: d.inbound.node },
      outbound: { node: d.outbound.node },
      blocked: { node: d.blocked.node },
    },
  };
}
