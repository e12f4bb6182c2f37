import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";

/*
 * The monitoring feeds of /main-dashboard (spec 3 §2.14, §3: Dashboard summary, WAN health sample,
 * Link speed test sample, Connection status, Route, Utilization sample, Peak hours). The spec
 * names the fields and shows no call: these are dashboard_get_summary,
 * dashboard_get_wan_link_health, dashboard_get_wan_link_utilization, dashboard_get_route,
 * dashboard_get_post_mortem (+ _pdf) and dashboard_stream_post_mortem here, in the spelling of
 * their neighbour dashboard_get_device_names.
 */

const opState = z.enum(["up", "down"]).nullable().openapi({ description: "null: not reported yet" });

/** Spec 3 §3 Dashboard summary 'Devices': one device of the map. */
export const SummaryDevice = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(["cpe", "metro"]),
    prod_code: z.string(),
    address: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    op_state: opState,
  })
  .openapi("SummaryDevice");
export type SummaryDevice = z.infer<typeof SummaryDevice>;

export const SummaryRegion = z
  .object({
    region: z.string().openapi({
      description: "The provider PoP nearest the site (its code), or 'Unknown' without coordinates",
    }),
    devices: z.number().int(),
    down: z.number().int(),
  })
  .openapi("SummaryRegion");
export type SummaryRegion = z.infer<typeof SummaryRegion>;

/** dashboard_get_summary: Global (name to count), Regions, Devices. */
export const DashboardSummary = z
  .object({
    global: z.record(z.string(), z.number().int()).openapi({
      description: "Item name to count, in the order of the cards",
    }),
    regions: z.array(SummaryRegion),
    devices: z.array(SummaryDevice),
  })
  .openapi("DashboardSummary");
export type DashboardSummary = z.infer<typeof DashboardSummary>;

/** Spec 3 §3 WAN health sample. */
export const WanHealthSample = z
  .object({
    timestamp: isoTime().openapi({ description: "Start of the bucket (UTC)" }),
    health: z.number().openapi({ description: "0–100" }),
    RTT_ms: z.number(),
    "Loss Rate": z.number().openapi({ description: "Percent of packets lost, 0–100" }),
  })
  .openapi("WanHealthSample");

/** Spec 3 §3 Link speed test sample: the daily performance assurance test. */
export const LinkSpeedTestSample = z
  .object({
    timestamp: isoTime(),
    "tx.mbps": z.number().openapi({ description: "Upload" }),
    "rx.mbps": z.number().openapi({ description: "Download" }),
  })
  .openapi("LinkSpeedTestSample");

export const OutageHistoryEntry = z
  .object({
    timestamp: isoTime(),
    status: z.enum(["up", "down"]),
    self_diagnosis: z.string(),
    outage_id: z.string().openapi({
      description: "The outage the row starts (down) or ends (up): dashboard_get_post_mortem's outage_id",
    }),
  })
  .openapi("OutageHistoryEntry");
export type OutageHistoryEntry = z.infer<typeof OutageHistoryEntry>;

/** Spec 3 §3 Connection status. */
export const ConnectionStatus = z
  .object({
    percent: z.number(),
    history: z.array(
      z.object({
        node_id: z.string(),
        "@timestamp": isoTime(),
        type: z.string(),
        status: z.enum(["up", "down"]),
        gw_pingable: z.enum(["yes", "no"]),
      }),
    ),
  })
  .openapi("ConnectionStatus");

/** dashboard_get_wan_link_health: the WAN Link Health tab of one device over the range. */
export const WanLinkHealth = z
  .object({
    device_id: z.string(),
    range: z.string(),
    uptime_percent: z.number().nullable().openapi({
      description: "Up time over the range in percent, announced maintenance excluded, to 3 decimals (get_availability's figure for the range); null when nothing was counted",
    }),
    health: z.array(WanHealthSample),
    performance_tests: z.array(LinkSpeedTestSample),
    connection_status: ConnectionStatus,
    outage_history: z.array(OutageHistoryEntry).openapi({
      description: "Newest first: a down row at each outage's start, an up row at its end",
    }),
  })
  .openapi("WanLinkHealth");
export type WanLinkHealth = z.infer<typeof WanLinkHealth>;

/** Spec 3 §3 Utilization sample (ratios 0–1). */
export const UtilizationSample = z
  .object({
    timestamp: isoTime(),
    rx_avg_util: z.number(),
    rx_peak_util: z.number(),
    tx_avg_util: z.number(),
    tx_peak_util: z.number(),
  })
  .openapi("UtilizationSample");

/** Spec 3 §3 Peak hours. */
export const PeakHours = z
  .object({
    peak_hour_scatter_plot: z
      .record(
        z.string(),
        z.array(
          z.object({
            "rx.mbps": z.number(),
            "tx.mbps": z.number(),
            timestamp: isoTime(),
          }),
        ),
      )
      .openapi({
        description: "Per hour of day (UTC, '0'–'23'): the days whose busiest hour it was",
      }),
    peak_throughput_trend: z.array(
      z.object({
        "max.rx.bps": z.number(),
        "max.tx.bps": z.number(),
        timestamp: isoTime(),
      }),
    ),
  })
  .openapi("PeakHours");

/** dashboard_get_wan_link_utilization: the WAN Link Utilization tab of one device over the range. */
export const WanLinkUtilization = z
  .object({
    device_id: z.string(),
    range: z.string(),
    utilization: z.array(UtilizationSample),
    peak_hours: PeakHours,
  })
  .openapi("WanLinkUtilization");
export type WanLinkUtilization = z.infer<typeof WanLinkUtilization>;

const hop = z
  .object({
    hop: z.number().int(),
    hostname: z.string().nullable(),
    ip: z.string().nullable(),
  })
  .openapi("RouteHop");

/** Spec 3 §3 Route: dashboard_get_route. */
export const DeviceRoute = z
  .object({
    destination: z.string(),
    up_timestamp_utc: isoTime(),
    down_timestamp_utc: isoTime().nullable(),
    up_hops: z.array(hop),
    down_hops: z.array(hop).openapi({
      description: "The traceroute at the last outage; empty when the default gateway was unreachable",
    }),
  })
  .openapi("DeviceRoute");
export type DeviceRoute = z.infer<typeof DeviceRoute>;

/** dashboard_get_post_mortem: the whole analysis at once (the page without JavaScript, the PDF). */
export const PostMortem = z
  .object({
    device_id: z.string(),
    outage_id: z.string(),
    start_time: isoTime(),
    end_time: isoTime().nullable(),
    markdown: z.string(),
  })
  .openapi("PostMortem");
export type PostMortem = z.infer<typeof PostMortem>;
